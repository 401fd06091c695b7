package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;

/**
 * One contract for every importer: the same small trace, written in each format that can express
 * it, imported through {@link Importer} into a store, reopened from disk, gives the same store —
 * producers (paths and kinds where the format names them), types, and every record.
 *
 * <p>The trace (times in s, window [0, 5)):
 * <pre>
 *   node1 ─ rank0   run [0, 4) with send [1, 2) nested (depth 1); tick at 2.5; a LINK to rank2 [1, 1.5)
 *         ─ rank1   wait [0, 3), run [3, 5)
 *         load (a variable of node1): 1 from 0, 3 from 2
 *   node2 ─ rank2   run [0, 5); tick at 1
 * </pre>
 * What each format expresses, and so what is compared:
 * <ul>
 *   <li>Pajé (plain and gzip) and pj_dump CSV: everything, as written.
 *   <li>Chrome Trace Event JSON: everything, through the format's own structure: a process
 *       holds its threads and a {@code counters} leaf whose variables are named
 *       {@code COUNTER.KEY}; the comparison maps those back ({@code node1/counters} → node1,
 *       {@code load.value} → load). Container kinds are the reader's (process, thread), not
 *       the trace's, so kinds are compared for the other formats only.
 * </ul>
 * OTF2 and JFR are not written here: no writer of them is at hand in the build; their readers
 * are checked against otf2-print and the JDK's own parser (Otf2ReaderTest, JfrReaderTest).
 */
class ImporterContractTest {
  @TempDir Path dir;

  /** A record as the store holds it, by names: comparable across formats. */
  record Row(String line) implements Comparable<Row> {
    @Override
    public int compareTo(Row other) {
      return line.compareTo(other.line);
    }
  }

  static Stream<Arguments> formats() {
    return Stream.of(
        Arguments.of("paje", (Writer) ImporterContractTest::paje, UnaryOperator.<String>identity(), true),
        Arguments.of("paje-gzip", (Writer) (file) -> gzip(paje(file)), UnaryOperator.<String>identity(), true),
        Arguments.of("pjdump", (Writer) ImporterContractTest::pjdump, UnaryOperator.<String>identity(), true),
        Arguments.of("chrome", (Writer) ImporterContractTest::chrome,
            (UnaryOperator<String>) line -> line.replace("node1/counters", "node1").replace("load.value", "load"),
            false));
  }

  interface Writer {
    Path write(Path file) throws IOException;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("formats")
  void everyImporterGivesTheSameStore(String name, Writer writer, UnaryOperator<String> mapping, boolean kinds)
      throws IOException {
    Path trace = writer.write(dir.resolve(name + ".input"));
    Path storeDir = dir.resolve(name + ".store");
    Files.createDirectories(storeDir);
    Importer.importTrace(trace, Formats.standard().detect(trace), ImportOptions.DEFAULT, ImportProgress.NONE, storeDir,
        StoreWriter.DEFAULT_CHUNK_CAPACITY);
    TraceStore store = TraceStore.open(storeDir); // reopened from disk: what every later use sees
    List<Row> rows = new ArrayList<>();
    for (String row : rows(store, kinds)) {
      rows.add(new Row(mapping.apply(row)));
    }
    rows.sort(null);
    assertEquals(expected(kinds), rows.stream().map(Row::line).toList(), name);
  }

  /** The logical trace, as the rows the store must give back. */
  static List<String> expected(boolean kinds) {
    List<String> rows = new ArrayList<>(List.of(
        "state node1/rank0 run 0.0 4.0 d0",
        "state node1/rank0 send 1.0 2.0 d1",
        "state node1/rank1 wait 0.0 3.0 d0",
        "state node1/rank1 run 3.0 5.0 d0",
        "state node2/rank2 run 0.0 5.0 d0",
        "event node1/rank0 tick 2.5",
        "event node2/rank2 tick 1.0",
        "variable node1 load 0.0 2.0 = 1.0",
        "variable node1 load 2.0 5.0 = 3.0",
        "link LINK node1/rank0 → node2/rank2 1.0 1.5"));
    if (kinds) {
      rows.addAll(List.of("producer node1 NODE", "producer node1/rank0 RANK", "producer node1/rank1 RANK",
          "producer node2 NODE", "producer node2/rank2 RANK"));
    }
    rows.sort(null);
    return rows;
  }

  /** Every record of the store, by producer path and type name, in a canonical text form. */
  static List<String> rows(TraceStore store, boolean kinds) throws IOException {
    StoreMetadata m = store.metadata();
    String[] paths = new String[m.producers().size()];
    TreeMap<Integer, StoreMetadata.Producer> byId = new TreeMap<>();
    m.producers().forEach(p -> byId.put(p.id(), p));
    List<String> rows = new ArrayList<>();
    for (StoreMetadata.Producer p : byId.values()) {
      paths[p.id()] = p.parent() < 0 ? "" : paths[p.parent()].isEmpty() ? p.name() : paths[p.parent()] + "/" + p.name();
      if (kinds && p.parent() >= 0) {
        rows.add("producer " + paths[p.id()] + " " + p.kind());
      }
    }
    List<String> types = m.types().stream().map(StoreMetadata.EventType::name).toList();
    // Times in seconds whatever the format's unit (Chrome's is µs): a division of exact integers,
    // so 2500000 µs is exactly 2.5 s.
    double perSecond = switch (m.timeUnit()) {
      case "s" -> 1;
      case "us" -> 1e6;
      default -> throw new AssertionError("unit " + m.timeUnit());
    };
    StateColumns states = store.stateColumns();
    for (Chunk chunk : store.chunks(EventCategory.STATE)) {
      store.read(chunk, states);
      for (int i = 0; i < states.size(); i++) {
        rows.add("state " + paths[states.producer()[i]] + " " + types.get(states.type()[i]) + " " + (states.start()[i] / perSecond)
            + " " + (states.end()[i] / perSecond) + " d" + states.depth()[i]);
      }
    }
    EventColumns events = store.eventColumns();
    for (Chunk chunk : store.chunks(EventCategory.EVENT)) {
      store.read(chunk, events);
      for (int i = 0; i < events.size(); i++) {
        rows.add("event " + paths[events.producer()[i]] + " " + types.get(events.type()[i]) + " " + (events.time()[i] / perSecond));
      }
    }
    VariableColumns variables = store.variableColumns();
    for (Chunk chunk : store.chunks(EventCategory.VARIABLE)) {
      store.read(chunk, variables);
      for (int i = 0; i < variables.size(); i++) {
        rows.add("variable " + paths[variables.producer()[i]] + " " + types.get(variables.type()[i]) + " "
            + (variables.start()[i] / perSecond) + " " + (variables.end()[i] / perSecond) + " = " + variables.value()[i]);
      }
    }
    LinkColumns links = store.linkColumns();
    for (Chunk chunk : store.chunks(EventCategory.LINK)) {
      store.read(chunk, links);
      for (int i = 0; i < links.size(); i++) {
        rows.add("link " + types.get(links.type()[i]) + " " + paths[links.from()[i]] + " → " + paths[links.to()[i]]
            + " " + (links.start()[i] / perSecond) + " " + (links.end()[i] / perSecond));
      }
    }
    return rows;
  }

  // ---- the trace in each format ------------------------------------------------------------

  static Path paje(Path file) throws IOException {
    String header = String.join("\n",
        "%EventDef PajeDefineContainerType 0", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeDefineStateType 1", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeDefineEventType 2", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeDefineVariableType 3", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeDefineLinkType 4", "% Alias string", "% Type string", "% StartContainerType string",
        "% EndContainerType string", "% Name string", "%EndEventDef",
        "%EventDef PajeCreateContainer 5", "% Time date", "% Alias string", "% Type string", "% Container string",
        "% Name string", "%EndEventDef",
        "%EventDef PajeDestroyContainer 6", "% Time date", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajePushState 7", "% Time date", "% Type string", "% Container string", "% Value string", "%EndEventDef",
        "%EventDef PajePopState 8", "% Time date", "% Type string", "% Container string", "%EndEventDef",
        "%EventDef PajeNewEvent 9", "% Time date", "% Type string", "% Container string", "% Value string", "%EndEventDef",
        "%EventDef PajeSetVariable 10", "% Time date", "% Type string", "% Container string", "% Value double",
        "%EndEventDef",
        "%EventDef PajeStartLink 11", "% Time date", "% Type string", "% Container string", "% Value string",
        "% StartContainer string", "% Key string", "%EndEventDef",
        "%EventDef PajeEndLink 12", "% Time date", "% Type string", "% Container string", "% Value string",
        "% EndContainer string", "% Key string", "%EndEventDef");
    String body = String.join("\n",
        "0 N 0 NODE", "0 R N RANK", "1 S R STATE", "2 E R EVENT", "3 V N load", "4 L 0 R R LINK",
        "5 0 n1 N 0 node1", "5 0 n2 N 0 node2",
        "5 0 r0 R n1 rank0", "5 0 r1 R n1 rank1", "5 0 r2 R n2 rank2",
        "7 0 S r0 run", "7 0 S r1 wait", "7 0 S r2 run", "10 0 V n1 1",
        "7 1 S r0 send", "11 1 L 0 msg r0 k1", "9 1 E r2 tick", "12 1.5 L 0 msg r2 k1",
        "8 2 S r0", "10 2 V n1 3", "9 2.5 E r0 tick", "8 3 S r1", "7 3 S r1 run", "8 4 S r0",
        "8 5 S r1", "8 5 S r2", "6 5 R rank0", "6 5 R rank1", "6 5 R rank2", "6 5 N node1", "6 5 N node2", "");
    return Files.writeString(file, header + "\n" + body);
  }

  static Path gzip(Path plain) throws IOException {
    Path zipped = plain.resolveSibling(plain.getFileName() + ".gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(zipped))) {
      out.write(Files.readAllBytes(plain));
    }
    Files.delete(plain);
    return zipped;
  }

  static Path pjdump(Path file) throws IOException {
    return Files.writeString(file, String.join("\n",
        "Container, 0, 0, 0.000000, 5.000000, 5.000000, 0",
        "Container, 0, NODE, 0.000000, 5.000000, 5.000000, node1",
        "Container, 0, NODE, 0.000000, 5.000000, 5.000000, node2",
        "Container, node1, RANK, 0.000000, 5.000000, 5.000000, rank0",
        "Container, node1, RANK, 0.000000, 5.000000, 5.000000, rank1",
        "Container, node2, RANK, 0.000000, 5.000000, 5.000000, rank2",
        "State, rank0, STATE, 0.000000, 4.000000, 4.000000, 0.000000, run",
        "State, rank0, STATE, 1.000000, 2.000000, 1.000000, 1.000000, send",
        "State, rank1, STATE, 0.000000, 3.000000, 3.000000, 0.000000, wait",
        "State, rank1, STATE, 3.000000, 5.000000, 2.000000, 0.000000, run",
        "State, rank2, STATE, 0.000000, 5.000000, 5.000000, 0.000000, run",
        "Event, rank0, EVENT, 2.500000, tick",
        "Event, rank2, EVENT, 1.000000, tick",
        "Variable, node1, load, 0.000000, 2.000000, 2.000000, 1.000000",
        "Variable, node1, load, 2.000000, 5.000000, 3.000000, 3.000000",
        "Link, 0, LINK, 1.000000, 1.500000, 0.500000, msg, rank0, rank2, k1", ""));
  }

  static Path chrome(Path file) throws IOException {
    return Files.writeString(file, String.join("\n",
        "{\"traceEvents\":[",
        "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"node1\"}},",
        "{\"ph\":\"M\",\"pid\":2,\"tid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"node2\"}},",
        "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":\"rank0\"}},",
        "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"rank1\"}},",
        "{\"ph\":\"M\",\"pid\":2,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"rank2\"}},",
        // unsorted on purpose: the format allows it
        "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"run\",\"ts\":3000000,\"dur\":2000000},",
        "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"name\":\"run\",\"ts\":0,\"dur\":4000000},",
        "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"name\":\"send\",\"ts\":1000000,\"dur\":1000000},",
        "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"name\":\"wait\",\"ts\":0},",
        "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3000000},",
        "{\"ph\":\"X\",\"pid\":2,\"tid\":2,\"name\":\"run\",\"ts\":0,\"dur\":5000000},",
        "{\"ph\":\"i\",\"pid\":1,\"tid\":0,\"name\":\"tick\",\"ts\":2500000,\"s\":\"t\"},",
        "{\"ph\":\"i\",\"pid\":2,\"tid\":2,\"name\":\"tick\",\"ts\":1000000,\"s\":\"t\"},",
        "{\"ph\":\"C\",\"pid\":1,\"name\":\"load\",\"ts\":0,\"args\":{\"value\":1}},",
        "{\"ph\":\"C\",\"pid\":1,\"name\":\"load\",\"ts\":2000000,\"args\":{\"value\":3}},",
        "{\"ph\":\"s\",\"pid\":1,\"tid\":0,\"name\":\"LINK\",\"cat\":\"mpi\",\"id\":1,\"ts\":1000000},",
        "{\"ph\":\"f\",\"pid\":2,\"tid\":2,\"name\":\"LINK\",\"cat\":\"mpi\",\"id\":1,\"ts\":1500000}",
        "]}", ""));
  }
}
