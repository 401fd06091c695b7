package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.testing.InstalledTools;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;

/**
 * Archives against otf2-print (the stored output beside them, and otf2-print itself when
 * installed): every archive of shared/traces/otf2, and a Score-P-style archive written by
 * scripts/gen-otf2-trace (local id mappings and clock offsets per location, MPI messages,
 * collectives, metrics), kept in the test resources and generated afresh when python3-otf2 is
 * installed. Compared: the locations; per location the number of records of every kind; the
 * states (otf2-print's Enter/Leave and collective begin/end replayed on a stack: type, start,
 * end, depth); the punctual events' times; the links (otf2-print's sends and receives paired
 * FIFO per sender, receiver and tag, the peer's location as otf2-print resolves it: ends,
 * times and the send's length); and the variables (every metric value, at its time).
 */
class Otf2ReaderTest {
  private static final Pattern LOCATION_DEF =
      Pattern.compile("^LOCATION\\s+(\\d+)\\s+Name: \"(.*?)\" <\\d+>");
  private static final Pattern REGION = Pattern.compile("Region: \"(.*?)\" <\\d+>");
  private static final Pattern OPERATION = Pattern.compile("Operation: (\\w+)");
  /** "Receiver: 1 ("Thread 1:0" <1>), …, Tag: 0, Length: 8": the peer's location, tag, length. */
  private static final Pattern MESSAGE =
      Pattern.compile("(?:Receiver|Sender): \\d+ \\(\".*?\" <(\\d+)>\\), .*Tag: (\\d+), Length: (\\d+)");
  /** One metric value: ("power" <1>; DOUBLE; 110.64). */
  private static final Pattern METRIC_VALUE = Pattern.compile("\\(\"(.*?)\" <\\d+>; (\\w+); ([^)]+)\\)");
  private static final Path SCOREP = Path.of("src/test/resources/org/ocelotl/format/otf2");

  static Stream<Arguments> archives() {
    return Stream.of(
        Arguments.of("otf2/pytrace/traces.otf2", "otf2/pytrace"),
        Arguments.of("otf2/ez_mpi4/eztrace_log.otf2", "otf2/ez_mpi4/eztrace_log"),
        Arguments.of("otf2/ez_hybrid/eztrace_log.otf2", "otf2/ez_hybrid/eztrace_log"));
  }

  @ParameterizedTest
  @MethodSource("archives")
  void matchesStoredOtf2PrintOutput(String archive, String printPrefix) throws IOException {
    Path anchor = SharedTraces.file(archive);
    Oracle oracle = compare(anchor, Files.readAllLines(SharedTraces.file(printPrefix + ".defs.txt")),
        Files.readAllLines(SharedTraces.file(printPrefix + ".print.txt")));
    // These archives record no receive with its sender (only MPI_IRECV_REQUEST), and no metric.
    assertTrue(oracle.links.isEmpty());
    assertTrue(oracle.variables.isEmpty());
  }

  @ParameterizedTest
  @MethodSource("archives")
  void matchesOtf2PrintRunNow(String archive, String printPrefix) throws Exception {
    Path anchor = SharedTraces.file(archive);
    compare(anchor, run(otf2Print(), "-G", anchor.toString()), run(otf2Print(), anchor.toString()));
  }

  /**
   * The Score-P-style archive of the test resources (written by {@code scripts/gen-otf2-trace
   * OUT 12 17}) against its stored otf2-print output: every location's region, communicator
   * and metric ids are local and permuted, and three of its four locations have their clock
   * corrected (two offsets, three offsets, and a single one, which OTF2 ignores).
   */
  @Test
  void scorePArchiveWithLocalMappingsMatchesStoredOtf2PrintOutput() throws IOException {
    Oracle oracle = compare(SCOREP.resolve("scorep/traces.otf2"),
        Files.readAllLines(SCOREP.resolve("scorep.defs.txt")), Files.readAllLines(SCOREP.resolve("scorep.print.txt")));
    assertScorePShape(oracle, 12);
  }

  @Test
  void scorePArchiveWithLocalMappingsMatchesOtf2PrintRunNow() throws Exception {
    Path anchor = SCOREP.resolve("scorep/traces.otf2");
    Oracle oracle = compare(anchor, run(otf2Print(), "-G", anchor.toString()), run(otf2Print(), anchor.toString()));
    assertScorePShape(oracle, 12);
  }

  /**
   * What a task of the parallel path reads: through the {@link Otf2Files} the split was opened with
   * and shipped in (serialised, as Spark ships it), its location's event file and local
   * definitions, nothing else; the driver, only the anchor and the global definitions. The
   * recordings are those of the split never serialised.
   */
  @Test
  void aSplitOpensTheAnchorAndDefinitionsOnceAndEachLocationOnlyItsOwnFiles() throws Exception {
    Path anchor = SCOREP.resolve("scorep/traces.otf2");
    Recording.OPENED.clear();
    Otf2Split split = Otf2Split.open(new Recording(Otf2Files.local(anchor)));
    assertEquals(List.of("traces.otf2", "traces.def"), Recording.OPENED);
    Otf2Split plain = Otf2Split.open(anchor);
    for (int index = 0; index < split.locations().size(); index++) {
      long location = split.locations().get(index);
      Otf2Split shipped = roundTrip(split);
      Recording.OPENED.clear();
      Otf2Split.Decoded recording = shipped.decode(index);
      assertEquals(List.of("traces/" + location + ".def", "traces/" + location + ".evt"), Recording.OPENED);
      Otf2Split.Decoded expected = plain.decode(index);
      assertEquals(expected.summary(), recording.summary(), "location " + location);
      assertTrue(java.util.Arrays.equals(expected.records(), recording.records()), "location " + location);
      assertTrue(java.util.Arrays.equals(expected.messages(), recording.messages()), "location " + location);
    }
  }

  private static Otf2Split roundTrip(Otf2Split split) throws IOException, ClassNotFoundException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(split);
    }
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      return (Otf2Split) in.readObject();
    }
  }

  /** Local files that note the names opened (in a static list: a serialised copy notes them too). */
  private record Recording(Otf2Files files) implements Otf2Files {
    static final List<String> OPENED = new ArrayList<>();

    @Override
    public String anchor() {
      return files.anchor();
    }

    @Override
    public String name(String relative) {
      return files.name(relative);
    }

    @Override
    public Source open(String relative) throws IOException {
      OPENED.add(relative);
      return files.open(relative);
    }
  }

  /** A larger archive written now, with another seed, when the OTF2 Python bindings are installed. */
  @Test
  void freshScorePArchiveMatchesOtf2Print(@TempDir Path dir) throws Exception {
    InstalledTools.directory("/usr/lib/python3/dist-packages/_otf2", "python3-otf2");
    Path out = dir.resolve("archive");
    run(Path.of("..", "scripts", "gen-otf2-trace").toAbsolutePath().toString(), out.toString(), "200", "5");
    Path anchor = out.resolve("traces.otf2");
    Oracle oracle = compare(anchor, run(otf2Print(), "-G", anchor.toString()), run(otf2Print(), anchor.toString()));
    assertScorePShape(oracle, 200);
  }

  /**
   * What the generator writes, so that the comparison cannot pass on an empty reading: per
   * iteration each of the 3 ranks sends one blocking and one non-blocking message and records
   * 3 metric values.
   */
  private static void assertScorePShape(Oracle oracle, int iterations) {
    assertEquals(2 * 3 * iterations, oracle.links.size());
    assertEquals(3 * 3 * iterations, oracle.variables.size());
    assertEquals(0, oracle.unmatched, "every message has its other side");
    assertEquals(List.of(), oracle.warnings);
  }

  private static String otf2Print() {
    return InstalledTools.executable("/usr/bin/otf2-print", "otf2-tools").toString();
  }

  private static List<String> run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new String(process.getInputStream().readAllBytes()).lines().toList();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), String.join("\n", lines));
    return lines;
  }

  private record OracleState(String type, long start, long end, int depth) {}

  private record OracleLink(String from, String to, long start, long end, long volume) {}

  private record OracleVariable(String producer, String type, long time, double value) {}

  /** One side of a message in otf2-print's output, waiting for the other. */
  private record Side(String location, String kind, long time, long length) {}

  /** What otf2-print's lines say the reader must produce, beyond counts, states and events. */
  private record Oracle(List<OracleLink> links, List<OracleVariable> variables, long unmatched, List<String> warnings) {}

  private static Oracle compare(Path anchor, List<String> defs, List<String> print)
      throws IOException {
    Map<Long, String> locationNames = new TreeMap<>();
    for (String line : defs) {
      Matcher m = LOCATION_DEF.matcher(line);
      if (m.find()) {
        locationNames.put(Long.parseLong(m.group(1)), m.group(2));
      }
    }
    MemoryTrace trace = new MemoryTrace();
    new Otf2Reader().read(anchor, trace, ReadOptions.STRICT);

    // Same locations: the leaves of the producer tree are the locations, by name.
    List<String> leaves = new ArrayList<>();
    for (MemoryTrace.Producer p : trace.producers) {
      if (trace.producers.stream().noneMatch(c -> c.parent() == p.id())) {
        leaves.add(p.name());
      }
    }
    assertEquals(new ArrayList<>(locationNames.values()).stream().sorted().toList(),
        leaves.stream().sorted().toList());

    // Oracle: replay otf2-print's records per location.
    Map<String, Map<String, Long>> expectedCounts = new TreeMap<>();
    Map<String, List<OracleState>> expectedStates = new HashMap<>();
    Map<String, List<long[]>> stacks = new HashMap<>();
    Map<String, List<String>> stackTypes = new HashMap<>();
    Map<String, Map<String, List<Long>>> expectedEventTimes = new TreeMap<>();
    List<OracleVariable> expectedVariables = new ArrayList<>();
    // Per channel "from|to|tag": the sends and the receives not paired yet, oldest first.
    Map<String, ArrayDeque<Side>> sends = new TreeMap<>();
    Map<String, ArrayDeque<Side>> receives = new TreeMap<>();
    List<OracleLink> expectedLinks = new ArrayList<>();
    boolean inEvents = false;
    for (String line : print) {
      if (line.startsWith("Event ")) {
        inEvents = true;
        continue;
      }
      String[] f = line.trim().split("\\s+", 4);
      if (!inEvents || f.length < 3 || !f[1].matches("\\d+")) {
        continue;
      }
      String kind = f[0];
      String loc = locationNames.get(Long.parseLong(f[1]));
      long time = Long.parseLong(f[2]);
      String rest = f.length > 3 ? f[3] : "";
      List<long[]> stack = stacks.computeIfAbsent(loc, k -> new ArrayList<>());
      List<String> types = stackTypes.computeIfAbsent(loc, k -> new ArrayList<>());
      switch (kind) {
        case "ENTER" -> {
          Matcher m = REGION.matcher(rest);
          assertTrue(m.find(), line);
          stack.add(new long[] {time});
          types.add(m.group(1));
          count(expectedCounts, loc, "region states");
        }
        case "MPI_COLLECTIVE_BEGIN" -> {
          stack.add(new long[] {time});
          types.add(null);
          count(expectedCounts, loc, "collective states");
        }
        case "LEAVE", "MPI_COLLECTIVE_END" -> {
          int depth = stack.size() - 1;
          String type = types.remove(depth);
          if (kind.equals("MPI_COLLECTIVE_END")) {
            Matcher m = OPERATION.matcher(rest);
            assertTrue(m.find(), line);
            type = "MPI_" + m.group(1);
          }
          expectedStates.computeIfAbsent(loc, k -> new ArrayList<>())
              .add(new OracleState(type, stack.remove(depth)[0], time, depth));
        }
        case "METRIC" -> {
          Matcher m = METRIC_VALUE.matcher(rest);
          while (m.find()) {
            expectedVariables.add(new OracleVariable(loc, m.group(1), time, Double.parseDouble(m.group(3))));
          }
        }
        case "MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV" -> {
          Matcher m = MESSAGE.matcher(rest);
          if (!m.find()) { // a peer otf2-print cannot resolve stays an event
            event(expectedCounts, expectedEventTimes, loc, kind, time);
            break;
          }
          String peer = locationNames.get(Long.parseLong(m.group(1)));
          boolean send = kind.endsWith("SEND");
          String channel = (send ? loc : peer) + "|" + (send ? peer : loc) + "|" + m.group(2);
          Side side = new Side(loc, kind, time, Long.parseLong(m.group(3)));
          ArrayDeque<Side> others = (send ? receives : sends).computeIfAbsent(channel, c -> new ArrayDeque<>());
          if (others.isEmpty()) {
            (send ? sends : receives).computeIfAbsent(channel, c -> new ArrayDeque<>()).add(side);
          } else {
            Side other = others.poll();
            Side s = send ? side : other;
            Side r = send ? other : side;
            // A receive earlier than its send (clock skew) ends where the send starts.
            expectedLinks.add(new OracleLink(s.location(), r.location(), s.time(), Math.max(s.time(), r.time()),
                s.length()));
          }
        }
        default -> event(expectedCounts, expectedEventTimes, loc, kind, time);
      }
    }
    stacks.forEach((loc, stack) -> assertTrue(stack.isEmpty(), loc + " ends with open states"));
    long unmatched = 0;
    for (Map<String, ArrayDeque<Side>> sides : List.of(sends, receives)) {
      for (ArrayDeque<Side> channel : sides.values()) {
        for (Side side : channel) {
          event(expectedCounts, expectedEventTimes, side.location(), side.kind(), side.time());
          unmatched++;
        }
      }
    }

    // The reader's view, in the same terms.
    Map<Integer, String> producerNames = new HashMap<>();
    trace.producers.forEach(p -> producerNames.put(p.id(), p.name()));
    Map<Integer, MemoryTrace.Type> types = new HashMap<>();
    trace.types.forEach(t -> types.put(t.id(), t));
    Map<String, Map<String, Long>> actualCounts = new TreeMap<>();
    Map<String, List<OracleState>> actualStates = new HashMap<>();
    Map<String, Map<String, List<Long>>> actualEventTimes = new TreeMap<>();
    for (MemoryTrace.State s : trace.states) {
      MemoryTrace.Type type = types.get(s.type());
      assertEquals(EventCategory.STATE, type.category());
      String loc = producerNames.get(s.producer());
      count(actualCounts, loc, type.group().equals("region") ? "region states" : "collective states");
      assertEquals((double) (long) s.start(), s.start(), "ticks are integers");
      actualStates.computeIfAbsent(loc, k -> new ArrayList<>())
          .add(new OracleState(type.name(), (long) s.start(), (long) s.end(), s.depth()));
    }
    for (MemoryTrace.Event e : trace.events) {
      event(actualCounts, actualEventTimes, producerNames.get(e.producer()), types.get(e.type()).name(),
          (long) e.time());
    }
    List<OracleLink> actualLinks = new ArrayList<>();
    for (MemoryTrace.Link l : trace.links) {
      assertEquals(EventCategory.LINK, types.get(l.type()).category());
      actualLinks.add(new OracleLink(producerNames.get(l.from()), producerNames.get(l.to()), (long) l.start(),
          (long) l.end(), (long) l.volume()));
    }
    List<OracleVariable> actualVariables = new ArrayList<>();
    for (MemoryTrace.Variable v : trace.variables) {
      assertEquals(EventCategory.VARIABLE, types.get(v.type()).category());
      actualVariables.add(new OracleVariable(producerNames.get(v.producer()), types.get(v.type()).name(),
          (long) v.time(), v.value()));
    }

    assertEquals(expectedCounts, actualCounts);
    assertEquals(expectedStates, actualStates);
    actualEventTimes.values().forEach(m -> m.values().forEach(l -> l.sort(null)));
    expectedEventTimes.values().forEach(m -> m.values().forEach(l -> l.sort(null)));
    assertEquals(expectedEventTimes, actualEventTimes);
    Comparator<OracleLink> linkOrder = Comparator.comparing(OracleLink::from).thenComparing(OracleLink::to)
        .thenComparingLong(OracleLink::start).thenComparingLong(OracleLink::end);
    assertEquals(expectedLinks.stream().sorted(linkOrder).toList(), actualLinks.stream().sorted(linkOrder).toList());
    Comparator<OracleVariable> variableOrder = Comparator.comparing(OracleVariable::producer)
        .thenComparing(OracleVariable::type).thenComparingLong(OracleVariable::time);
    assertEquals(expectedVariables.stream().sorted(variableOrder).toList(),
        actualVariables.stream().sorted(variableOrder).toList());
    assertEquals("ns", trace.timeUnit);
    assertFalse(expectedCounts.isEmpty());
    return new Oracle(expectedLinks, expectedVariables, unmatched, trace.warnings);
  }

  private static void count(Map<String, Map<String, Long>> counts, String loc, String key) {
    counts.computeIfAbsent(loc, k -> new TreeMap<>()).merge(key, 1L, Long::sum);
  }

  private static void event(Map<String, Map<String, Long>> counts, Map<String, Map<String, List<Long>>> times,
      String loc, String kind, long time) {
    count(counts, loc, kind);
    times.computeIfAbsent(loc, k -> new TreeMap<>()).computeIfAbsent(kind, k -> new ArrayList<>()).add(time);
  }
}
