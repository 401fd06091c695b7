package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.split.LineBatch;
import org.ocelotl.split.SplitWarnings;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

/**
 * A Pajé trace read over byte ranges ({@link PajeSplit}, the steps the Spark import runs, here one
 * after the other in one JVM) gives what the sequential reader gives: the same producers and types
 * with the same ids, the same bounds, and the same records — compared as sorted lists, since the
 * partitions hand them over in another order. Doubles are compared through their shortest exact
 * decimal form, so equal means equal to the bit.
 */
class PajeSplitTest {
  @TempDir Path tmp;

  /**
   * Real traces with ranges of a few hundred bytes: states, links and variables span ranges and
   * partitions; ms.trace has links with sizes, smpi_small_grouped the SimGrid link-type warning,
   * the bundled trace is gzip'd (its text split here as the Spark import would split plain text).
   */
  @ParameterizedTest(name = "{0} in ranges of {1} bytes, {2} partitions")
  @CsvSource({
      "paje/pajeng/ms.trace, 500, 3",
      "paje/pajeng/categories.trace, 300, 4",
      "paje/pajeng/simu-mardi.trace, 8000, 5",
      "paje/pajeng/g5k.trace, 10000, 7",
      "paje/simgrid/smpi_small_flat.trace, 4000, 3",
      "paje/simgrid/smpi_small_grouped.trace, 4000, 2",
      "paje/simgrid/s4u_mw_small.trace, 3000, 6",
      "../../main/examples/smpi_perturbed.trace.gz, 200000, 8"})
  void rangesGiveTheSequentialRecords(String trace, long rangeBytes, int partitions) throws IOException {
    Path file = trace.startsWith("..") ? Path.of("../examples/smpi_perturbed.trace.gz") : SharedTraces.file(trace);
    MemoryTrace sequential = new MemoryTrace();
    new PajeReader().read(file, sequential, ReadOptions.STRICT);
    MemoryTrace split = new MemoryTrace();
    int ranges = readInRanges(file, text(file), rangeBytes, partitions, split);
    assertTrue(ranges >= 10, ranges + " ranges");
    assertSameTrace(sequential, split);
  }

  /**
   * Drawn by hand: c1's state "busy" pushed at 1.5 and popped at 7.75, seven lines later, with
   * c2's state "idle" (3.0 to 4.25) and events of both in between; ranges of 8 bytes, shorter than
   * any line, so every body line starts in a range of its own and both states span ranges.
   * Value ids follow first use: busy 0, tick 1, idle 2, tock 3.
   */
  @Test
  void whatSpansRangesIsReadAsOne() throws IOException {
    String trace = """
        %EventDef PajeDefineContainerType 0
        % Alias string
        % Type string
        % Name string
        %EndEventDef
        %EventDef PajeDefineStateType 1
        % Alias string
        % Type string
        % Name string
        %EndEventDef
        %EventDef PajeCreateContainer 2
        % Time date
        % Alias string
        % Type string
        % Container string
        % Name string
        %EndEventDef
        %EventDef PajePushState 3
        % Time date
        % Type string
        % Container string
        % Value string
        %EndEventDef
        %EventDef PajePopState 4
        % Time date
        % Type string
        % Container string
        %EndEventDef
        %EventDef PajeNewEvent 5
        % Time date
        % Type string
        % Container string
        % Value string
        %EndEventDef
        %EventDef PajeDefineEventType 6
        % Alias string
        % Type string
        % Name string
        %EndEventDef
        0 N 0 Node
        1 S N State
        6 E N Mark
        2 0.0 c1 N 0 "node one"
        2 0.0 c2 N 0 "node two"
        3 1.5 S c1 busy
        5 2.0 E c2 tick
        5 2.5 E c1 tick
        3 3.0 S c2 idle
        5 3.5 E c1 tock
        4 4.25 S c2
        4 7.75 S c1
        """;
    Path file = tmp.resolve("drawn.trace");
    Files.writeString(file, trace);
    MemoryTrace sequential = new MemoryTrace();
    new PajeReader().read(file, sequential, ReadOptions.STRICT);
    MemoryTrace split = new MemoryTrace();
    int ranges = readInRanges(file, trace.getBytes(StandardCharsets.UTF_8), 8, 2, split);
    assertTrue(ranges > 12, ranges + " ranges");
    assertSameTrace(sequential, split);
    assertEquals(sorted(List.of(new MemoryTrace.State(1, 0, 1.5, 7.75, 0), new MemoryTrace.State(2, 2, 3.0, 4.25, 0))),
        sorted(split.states));
  }

  /**
   * Partitions' warnings merged into the sequential read's wording: counts summed, the earliest line
   * kept; two partitions that word a warning alike both count.
   */
  @Test
  void warningsOfPartitionsAreMerged() {
    assertEquals(List.of("link type 'L' is declared from container type 'A' to 'A' but links containers of type 'B' "
            + "(first at line 12); links kept", "ignored 5 events on destroyed containers (first at line 40), as "
            + "pj_dump does", "3 links started but never ended (first at line 7); dropped",
            "4 variable changes came before the previous change of the same variable; their steps were cut to zero length"),
        SplitWarnings.merged(List.of(
            "link type 'L' is declared from container type 'A' to 'A' but links containers of type 'B' (first at line "
                + "30); links kept",
            "ignored 2 events on destroyed containers (first at line 41), as pj_dump does",
            "1 link started but never ended (first at line 9); dropped",
            "link type 'L' is declared from container type 'A' to 'A' but links containers of type 'B' (first at line "
                + "12); links kept",
            "ignored 3 events on destroyed containers (first at line 40), as pj_dump does",
            "2 links started but never ended (first at line 7); dropped",
            "2 variable changes came before the previous change of the same variable; their steps were cut to zero length",
            "2 variable changes came before the previous change of the same variable; their steps were cut to zero length")));
  }

  /** A %EventDef after the first event line cannot be known to the ranges before it: refused in one line. */
  @Test
  void aDefinitionInTheBodyIsRefused() throws IOException {
    byte[] text = String.join("\n", "%EventDef PajeDefineContainerType 0", "% Alias string", "% Type string",
        "% Name string", "%EndEventDef", "0 N 0 Node", "%EventDef PajeDefineStateType 1", "% Alias string",
        "% Type string", "% Name string", "%EndEventDef", "").getBytes(StandardCharsets.UTF_8);
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> readInRanges(Path.of("late.trace"), text, 1000, 1, new MemoryTrace()));
    assertEquals("late.trace: a % line after the first event line ('%EventDef PajeDefineStateType 1'): the Spark "
        + "import needs every %EventDef in the header; import this trace with ocelotl", e.getMessage());
  }

  /** A malformed line is refused at its line in the trace, as the sequential read refuses it. */
  @Test
  void aBadLineIsRefusedAtItsTraceLine() throws IOException {
    Path file = SharedTraces.file("paje/pajeng/categories.trace");
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    int last = lines.size() - 1;
    lines.set(last, lines.get(last).replaceFirst("^(\\S+) \\S+", "$1 not-a-date"));
    Path bad = tmp.resolve("bad.trace");
    Files.write(bad, lines);
    TraceFormatException sequential = assertThrows(TraceFormatException.class,
        () -> new PajeReader().read(bad, new MemoryTrace(), ReadOptions.STRICT));
    TraceFormatException split = assertThrows(TraceFormatException.class,
        () -> readInRanges(bad, Files.readAllBytes(bad), 300, 3, new MemoryTrace()));
    assertEquals(sequential.getMessage(), split.getMessage());
  }

  /**
   * The steps of the Spark import, one after the other: ranges of {@code rangeBytes} over the
   * body, pass one, the plan, pass two, a read per partition, the type order, each partition's
   * assembly. Returns the number of
   * ranges.
   */
  static int readInRanges(Path file, byte[] text, long rangeBytes, int partitions, MemoryTrace into)
      throws IOException {
    PajeSplit split = PajeSplit.open(new ByteArrayInputStream(text), file.toString());
    List<long[]> ranges = new ArrayList<>();
    for (long start = split.bodyStart(); start < text.length; start += rangeBytes) {
      ranges.add(new long[] {start, Math.min(text.length, start + rangeBytes)});
    }
    List<PajeSplit.Summary> summaries = new ArrayList<>();
    for (int r = 0; r < ranges.size(); r++) {
      summaries.add(split.summarize(range(split, text, ranges, r)));
    }
    PajeSplit.Plan plan = split.plan(summaries, partitions);
    // Each partition's lines in batches of a few lines (at most 64 bytes and the last line), in
    // trace order: ranges in order, a range's lines in order.
    List<List<byte[]>> routed = new ArrayList<>();
    List<LineBatch> open = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      routed.add(new ArrayList<>());
      open.add(new LineBatch(16));
    }
    for (int r = 0; r < ranges.size(); r++) {
      PajeSplit.Routed lines = split.route(range(split, text, ranges, r), r, plan);
      while (lines.next()) {
        LineBatch batch = open.get(lines.partition());
        lines.addTo(batch);
        if (batch.size() >= 64) {
          routed.get(lines.partition()).add(batch.take());
        }
      }
    }
    List<List<PajeSplit.Declaration>> types = new ArrayList<>();
    List<PajeSplit.Recording> recordings = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      routed.get(p).add(open.get(p).take());
      PajeSplit.Recording recording = split.interpret(plan, routed.get(p).iterator());
      types.add(split.types(recording));
      recordings.add(recording);
    }
    // Each partition's own store holds every producer, every type and the end; the records are
    // gathered into the first's, as the dataset's files gather them.
    List<PajeSplit.Declaration> order = split.typeOrder(types);
    List<String> warnings = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      MemoryTrace part = p == 0 ? into : new MemoryTrace();
      split.assemblePart(order, recordings.get(p), part, warnings);
      if (p > 0) {
        assertEquals(List.of(into.producers, into.types, into.start, into.end, into.timeUnit),
            List.of(part.producers, part.types, part.start, part.end, part.timeUnit));
        assertEquals(sorted(into.producerEnds.stream().map(e -> e[0] + " " + e[1]).toList()),
            sorted(part.producerEnds.stream().map(e -> e[0] + " " + e[1]).toList()));
        into.states.addAll(part.states);
        into.events.addAll(part.events);
        into.variables.addAll(part.variables);
        into.links.addAll(part.links);
      }
    }
    SplitWarnings.merged(warnings).forEach(into::warning);
    return ranges.size();
  }

  private static InputStream range(PajeSplit split, byte[] text, List<long[]> ranges, int r) throws IOException {
    long start = ranges.get(r)[0];
    boolean first = r == 0;
    int from = (int) (first ? start : start - 1);
    return split.range(new ByteArrayInputStream(text, from, text.length - from), start, ranges.get(r)[1], first);
  }

  private static byte[] text(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readAllBytes();
      return bytes.length > 1 && bytes[0] == (byte) 0x1f && bytes[1] == (byte) 0x8b
          ? new GZIPInputStream(new ByteArrayInputStream(bytes)).readAllBytes() : bytes;
    }
  }

  static void assertSameTrace(MemoryTrace expected, MemoryTrace actual) {
    assertEquals(expected.producers, actual.producers);
    assertEquals(sorted(expected.producerEnds.stream().map(e -> e[0] + " " + e[1]).toList()),
        sorted(actual.producerEnds.stream().map(e -> e[0] + " " + e[1]).toList()));
    assertEquals(expected.types, actual.types);
    assertEquals(sorted(expected.states), sorted(actual.states));
    assertEquals(sorted(expected.events), sorted(actual.events));
    assertEquals(sorted(expected.variables), sorted(actual.variables));
    assertEquals(sorted(expected.links), sorted(actual.links));
    assertEquals(expected.warnings, actual.warnings);
    assertEquals(List.of(expected.start, expected.end, expected.timeUnit),
        List.of(actual.start, actual.end, actual.timeUnit));
  }

  private static List<String> sorted(List<?> records) {
    return records.stream().map(Object::toString).sorted().toList();
  }
}
