package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

/** Semantics on tiny hand-written traces, and every kind of bad input. */
class PajeReaderTest {
  /** SimGrid's header, ids 0–17; the body below it starts at line {@link #BODY}. */
  private static final String HEADER = """
      %EventDef PajeDefineContainerType 0
      % Alias string
      % Type string
      % Name string
      %EndEventDef
      %EventDef PajeDefineVariableType 1
      % Alias string
      % Type string
      % Name string
      % Color color
      %EndEventDef
      %EventDef PajeDefineStateType 2
      % Alias string
      % Type string
      % Name string
      %EndEventDef
      %EventDef PajeDefineEventType 3
      % Alias string
      % Type string
      % Name string
      %EndEventDef
      %EventDef PajeDefineLinkType 4
      % Alias string
      % Type string
      % StartContainerType string
      % EndContainerType string
      % Name string
      %EndEventDef
      %EventDef PajeDefineEntityValue 5
      % Alias string
      % Type string
      % Name string
      % Color color
      %EndEventDef
      %EventDef PajeCreateContainer 6
      % Time date
      % Alias string
      % Type string
      % Container string
      % Name string
      %EndEventDef
      %EventDef PajeDestroyContainer 7
      % Time date
      % Type string
      % Name string
      %EndEventDef
      %EventDef PajeSetVariable 8
      % Time date
      % Type string
      % Container string
      % Value double
      %EndEventDef
      %EventDef PajeAddVariable 9
      % Time date
      % Type string
      % Container string
      % Value double
      %EndEventDef
      %EventDef PajeSubVariable 10
      % Time date
      % Type string
      % Container string
      % Value double
      %EndEventDef
      %EventDef PajeSetState 11
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      %EventDef PajePushState 12
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      %EventDef PajePopState 13
      % Time date
      % Type string
      % Container string
      %EndEventDef
      %EventDef PajeResetState 14
      % Time date
      % Type string
      % Container string
      %EndEventDef
      %EventDef PajeStartLink 15
      % Time date
      % Type string
      % Container string
      % Value string
      % StartContainer string
      % Key string
      %EndEventDef
      %EventDef PajeEndLink 16
      % Time date
      % Type string
      % Container string
      % Value string
      % EndContainer string
      % Key string
      %EndEventDef
      %EventDef PajeNewEvent 17
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      """;
  private static final int BODY = (int) HEADER.lines().count() + 1;
  /** Types and two ranks (lines BODY..BODY+8); events go after. */
  private static final String SETUP = """
      0 1 0 "MPI"
      2 2 1 "MPI_STATE"
      5 20 2 "PMPI_Send" "1 0 0"
      1 3 1 "load" "0 0 1"
      3 4 1 "mark"
      4 5 0 1 1 "MPI_LINK"
      6 0 r0 1 0 "rank-0"
      6 0 r1 1 0 "rank-1"
      """;
  private static final int EVENTS = BODY + 8;

  @TempDir
  Path dir;

  /** A small gzip that expands to far more text than a trace would (a gzip bomb): refused, saying how to go on. */
  @Test
  void aGzipThatExpandsBeyondTheRatioIsRefused() throws IOException {
    Path bomb = dir.resolve("bomb.trace.gz");
    byte[] newlines = new byte[1 << 20];
    java.util.Arrays.fill(newlines, (byte) '\n');
    try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(bomb), 1 << 16)) {
      for (int i = 0; i < 100; i++) { // 100 MiB of newlines, about 100 KB compressed: over 1000×
        out.write(newlines);
      }
    }
    long size = Files.size(bomb);
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new PajeReader().read(bomb, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(bomb + ": the gzip data expands more than 1000× its " + size + " bytes (over "
        + Math.max(64L << 20, 1000 * size) + " bytes): not a trace; if it is one, raise the limit with "
        + "OCELOTL_JAVA_OPTS=-Docelotl.gzip.maxRatio=N", e.getMessage());
  }

  @Test
  void stateStacksFollowPjDump() throws IOException {
    MemoryTrace t = read(SETUP + """
        12 1 2 r0 20
        12 2 2 r0 compute
        13 3 2 r0
        11 4 2 r0 idle
        12 5 2 r0 20
        14 6 2 r0
        12 7 2 r0 20
        12 8 2 r0 compute
        11 9 2 r0 idle
        12 10 2 r1 compute
        """);
    assertEquals(List.of(
        "rank-0 MPI_STATE/compute 2.0-3.0 depth 1",
        "rank-0 MPI_STATE/PMPI_Send 1.0-4.0 depth 0",
        "rank-0 MPI_STATE/PMPI_Send 5.0-6.0 depth 1",
        "rank-0 MPI_STATE/idle 4.0-6.0 depth 0",
        "rank-0 MPI_STATE/compute 8.0-9.0 depth 1",
        "rank-0 MPI_STATE/PMPI_Send 7.0-9.0 depth 0",
        "rank-0 MPI_STATE/idle 9.0-10.0 depth 0",
        "rank-1 MPI_STATE/compute 10.0-10.0 depth 0"), states(t));
    MemoryTrace.Type send = t.types.get(t.states.get(1).type());
    assertEquals(new MemoryTrace.Type(send.id(), "PMPI_Send", EventCategory.STATE, "MPI_STATE",
        "1 0 0"), send);
    MemoryTrace.Type compute = t.types.get(t.states.get(0).type());
    assertEquals(null, compute.color(), "a value never defined has no colour");
    assertEquals(0, t.start);
    assertEquals(10, t.end);
    assertEquals("s", t.timeUnit);
  }

  @Test
  void variablesAreAbsoluteAndChangesAtOneDateCollapse() throws IOException {
    MemoryTrace t = read(SETUP + """
        8 1 3 r0 10
        9 2 3 r0 3
        10 3 3 r0 1.5
        8 4 3 r0 100
        9 4 3 r0 1
        10 5 3 r0 101
        """);
    List<String> values = new ArrayList<>();
    t.variables.forEach(v -> values.add(v.time() + "=" + v.value()));
    assertEquals(List.of("1.0=10.0", "2.0=13.0", "3.0=11.5", "4.0=101.0", "5.0=0.0"), values);
    MemoryTrace.Type load = t.types.get(t.variables.get(0).type());
    assertEquals(new MemoryTrace.Type(load.id(), "load", EventCategory.VARIABLE, null, "0 0 1"),
        load);
  }

  @Test
  void linksMatchByKeyInEitherOrderAndContainersEnd() throws IOException {
    MemoryTrace t = read(SETUP + """
        15 1 5 0 PTP r0 k1
        16 1 5 0 PTP r0 k2
        15 1 5 0 PTP r1 k2
        16 2 5 0 PTP r1 k1
        17 2.5 4 r1 hello
        7 3 1 r1
        15 4 5 0 PTP r0 k3
        """);
    List<String> links = new ArrayList<>();
    t.links.forEach(l -> links.add(l.from() + "->" + l.to() + " " + l.start() + "-" + l.end()));
    assertEquals(List.of("2->1 1.0-1.0", "1->2 1.0-2.0"), links);
    assertEquals("MPI_LINK", t.types.get(t.links.get(0).type()).name());
    assertEquals(1, t.events.size());
    assertEquals("hello", t.types.get(t.events.get(0).type()).name());
    assertEquals("mark", t.types.get(t.events.get(0).type()).group());
    assertEquals(1, t.producerEnds.size());
    assertEquals(2, t.producerEnds.get(0)[0]);
    assertEquals(3, t.producerEnds.get(0)[1]);
    assertEquals(List.of("1 link started but never ended (first at line " + (EVENTS + 6)
        + "); dropped"), t.warnings);
  }

  @Test
  void producersFormTheContainerTree() throws IOException {
    MemoryTrace t = read(SETUP + "0 H 0 HOST\n0 T H THREAD\n6 0 h1 H 0 host-1\n6 0 t1 T h1 th\n");
    assertEquals(new MemoryTrace.Producer(0, "0", "0", -1, 0), t.producers.get(0));
    assertEquals(new MemoryTrace.Producer(1, "rank-0", "MPI", 0, 0), t.producers.get(1));
    assertEquals(new MemoryTrace.Producer(4, "th", "THREAD", 3, 0), t.producers.get(4));
  }

  @Test
  void acceptsFreeFieldOrderQuotingCommentsExtraFieldsOldNamesAndLateDefinitions()
      throws IOException {
    Path trace = write("t.trace", """
        # a comment line
        %EventDef PajeDefineContainerType 1
        %	Name	string
        %	ContainerType	string
        %	Alias	string
        %EndEventDef

        1 "Big Machine" 0 M   # trailing comment
        %EventDef PajeCreateContainer 2
        % Name string
        % Type string
        % Container string
        % Time date
        % Extra int
        %EndEventDef
        2 "node #1" M 0 0.5 42
        %EventDef PajeDefineStateType 3
        % EntityType string
        % Name string
        %EndEventDef
        3 M S
        %EventDef PajePushState 4
        % Container string
        % Time date
        % Type string
        % Value string
        % Size double
        %EndEventDef
        4 "node #1" 1.0 S "a b" 1e3
        """);
    MemoryTrace t = new MemoryTrace();
    new PajeReader().read(trace, t, ReadOptions.STRICT);
    assertEquals(new MemoryTrace.Producer(1, "node #1", "Big Machine", 0, 0.5), t.producers.get(1));
    assertEquals(List.of("node #1 S/a b 1.0-1.0 depth 0"), states(t));
  }

  @Test
  void gzipIsReadByItsMagicBytesWhateverTheName() throws IOException {
    Path plain = PajeReferenceTest.TRACES.resolve("simgrid/smpi_small_flat.trace");
    Path zipped = dir.resolve("no-extension");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(zipped))) {
      Files.copy(plain, out);
    }
    MemoryTrace a = PajeReferenceTest.read(plain);
    MemoryTrace b = PajeReferenceTest.read(zipped);
    assertEquals(a.producers, b.producers);
    assertEquals(a.types, b.types);
    assertEquals(a.states, b.states);
    assertEquals(a.variables, b.variables);
    assertEquals(a.links, b.links);
  }

  /**
   * Bytes after the gzip data (a file cut and appended to) are ignored by the JDK's reader in
   * silence: read, with a warning; two members one after the other are one trace, no warning.
   */
  @Test
  void gzipWithTrailingGarbageIsReadWithAWarning() throws IOException {
    Path plain = PajeReferenceTest.TRACES.resolve("simgrid/smpi_small_flat.trace");
    java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(zipped)) {
      Files.copy(plain, out);
    }
    MemoryTrace reference = PajeReferenceTest.read(plain);
    for (int garbage : new int[] {0, 1, 3, 18, 19, 100, 70_000}) {
      Path file = dir.resolve("garbage-" + garbage + ".trace.gz");
      byte[] tail = new byte[garbage];
      java.util.Arrays.fill(tail, (byte) 'x');
      Files.write(file, zipped.toByteArray());
      Files.write(file, tail, java.nio.file.StandardOpenOption.APPEND);
      MemoryTrace t = new MemoryTrace();
      new PajeReader().read(file, t, ReadOptions.STRICT);
      assertEquals(reference.states, t.states, garbage + " bytes after");
      assertEquals(garbage == 0 ? List.of() : List.of(file + ": bytes that are no gzip data follow the compressed "
          + "trace, and were ignored: the file may have been cut and appended to"), t.warnings, garbage + " bytes after");
    }
    Path twice = dir.resolve("two-members.trace.gz");
    byte[] text = Files.readAllBytes(plain);
    int cut = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1).lastIndexOf('\n', text.length / 2) + 1;
    java.io.ByteArrayOutputStream both = new java.io.ByteArrayOutputStream();
    for (byte[] part : List.of(java.util.Arrays.copyOf(text, cut), java.util.Arrays.copyOfRange(text, cut, text.length))) {
      java.io.ByteArrayOutputStream member = new java.io.ByteArrayOutputStream();
      try (OutputStream out = new GZIPOutputStream(member)) {
        out.write(part);
      }
      both.write(member.toByteArray());
    }
    Files.write(twice, both.toByteArray());
    MemoryTrace t = new MemoryTrace();
    new PajeReader().read(twice, t, ReadOptions.STRICT);
    assertEquals(reference.states, t.states);
    assertEquals(List.of(), t.warnings);
  }

  @Test
  void truncatedGzipIsOneClearMessage() throws IOException {
    Path plain = PajeReferenceTest.TRACES.resolve("simgrid/smpi_small_flat.trace");
    Path zipped = dir.resolve("t.trace.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(zipped))) {
      Files.copy(plain, out);
    }
    byte[] bytes = Files.readAllBytes(zipped);
    Path truncated = dir.resolve("truncated.trace.gz");
    Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertEquals(truncated + ": truncated gzip data: the compressed stream ends early"
        + " (expected the gzip trailer)", failure(truncated, false));
  }

  @Test
  void emptyAndBinaryFilesAreOneClearMessage() throws IOException {
    Path empty = write("empty.trace", "");
    assertEquals(empty + ": empty trace: no %EventDef definitions and no events",
        failure(empty, false));
    Path blank = write("blank.trace", "\n# only a comment\n\n");
    assertEquals(blank + ": empty trace: no %EventDef definitions and no events",
        failure(blank, false));
    Path binary = dir.resolve("binary.trace");
    Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0});
    assertEquals(binary + ": not a Pajé trace: binary data (expected text starting with"
        + " %EventDef definitions)", failure(binary, false));
  }

  @Test
  void multiFileTraceIsOneClearMessage() throws IOException {
    Path root = PajeReferenceTest.TRACES.resolve("pajeng/multiple_files/root.trace");
    String message = failure(root, false);
    assertEquals(root + ":110: multi-file traces (PajeTraceFile) are not supported: expected one"
        + " file holding the whole trace, found a reference to part 'root.trace'\n"
        + "  17 \"0\" \"0\" \"root.trace\"", message);
    Path copy = dir.resolve("main.trace");
    Files.copy(root, copy);
    assertEquals(copy + ":110: multi-file trace: part 'root.trace' is missing (expected at "
        + dir.resolve("root.trace").toAbsolutePath() + ")\n  17 \"0\" \"0\" \"root.trace\"",
        failure(copy, false));
  }

  @Test
  void traceGoingBackInTimeIsRejectedAtItsFirstLine() {
    Path trace = PajeReferenceTest.TRACES.resolve("pajeng/native_paje.trace");
    assertEquals(trace + ":1936: not time-ordered: the date goes back in time for type"
        + " 'Number of Ready Tasks' (alias nready) in container 'scheduler' (expected a date"
        + " ≥ 4103.658833, the date at line 1934)\n  13\t4103.658751000\tsched\tnready\t1.000000",
        failure(trace, true));
  }

  @Test
  void malformedLinesNameFileLineAndWhatWasExpected() throws IOException {
    int line = EVENTS;
    assertBad("99 1 2 r0 x", line, "unknown event id '99': expected an id defined by %EventDef");
    assertBad("12 1 2 r0", line, "PajePushState (id 12) expects 4 fields after the id"
        + " (Time Type Container Value), found 3");
    assertBad("12 1 2 r0 a b", line, "PajePushState (id 12) expects 4 fields after the id"
        + " (Time Type Container Value), found 5");
    assertBad("12 soon 2 r0 a", line, "Time: expected a finite number, found 'soon'");
    assertBad("8 1 3 r0 lots", line, "Value: expected a finite number, found 'lots'");
    assertBad("12 1e400 2 r0 a", line, "Time: expected a finite number, found '1e400'"); // beyond a double
    assertBad("13 1 2 r0", line, "pop on an empty stack: expected an open state of type"
        + " 'MPI_STATE' in container 'rank-0'");
    assertBad("12 1 2 r9 a", line, "unknown container 'r9' in field Container: expected the"
        + " name or alias of a created container");
    assertBad("12 1 9 r0 a", line, "unknown type '9' in field Type: expected the name or alias"
        + " of a defined type");
    assertBad("12 1 3 r0 a", line, "type 'load' is not a state type");
    assertBad("9 1 3 r0 1", line, "PajeAddVariable on a variable without value: expected a"
        + " PajeSetVariable of 'load' in container 'rank-0' first");
    assertBad("12 1 2 r0 \"open quote", line, "a quoted field has no closing quote");
    assertBad("6 1 r0 1 0 again", line, "container 'r0' already exists: expected a new name or"
        + " alias");
    assertBad("12 5 2 r0 a\n12 4 2 r0 b", line + 1, "not time-ordered: the date goes back in"
        + " time for type 'MPI_STATE' (alias 2) in container 'rank-0' (expected a date ≥ 5.0,"
        + " the date at line " + line + ")");
  }

  @Test
  void linkEndWithoutStartIsAnErrorAtTheEnd() throws IOException {
    Path trace = write("t.trace", HEADER + SETUP + "16 1 5 0 PTP r1 lost\n12 2 2 r0 a\n");
    assertEquals(trace + ":" + EVENTS + ": link end without start: no PajeStartLink with the"
        + " same type and key in the whole trace\n  16 1 5 0 PTP r1 lost", failure(trace, false));
  }

  @Test
  void lenientReadSkipsCountsAndReports() throws IOException {
    Path trace = write("t.trace", HEADER + SETUP + """
        13 1 2 r0
        12 2 2 r0 a
        13 3 2 r0
        13 4 2 r0
        13 5 2 r0
        99 5 x
        12 6 2 nobody a
        16 7 5 0 PTP r1 lost
        """);
    MemoryTrace t = new MemoryTrace();
    new PajeReader().read(trace, t, new ReadOptions(true, bytes -> { }));
    assertEquals(List.of("rank-0 MPI_STATE/a 2.0-3.0 depth 0"), states(t));
    assertEquals(List.of(
        "skipped 1 line: unknown event id (first at line " + (EVENTS + 5) + ")",
        "skipped 1 line: unknown container (first at line " + (EVENTS + 6) + ")",
        "skipped 3 lines: pop on an empty stack (first at line " + EVENTS + ")",
        "skipped 1 line: link end without start (first at line " + (EVENTS + 7) + ")"),
        t.warnings);
  }

  @Test
  void headerErrorsAreFatalEvenWhenLenient() throws IOException {
    Path trace = write("t.trace", "%EventDef PajeDefineSomething 0\n%EndEventDef\n");
    String message = failure(trace, true);
    assertTrue(message.startsWith(trace + ":1: unknown Pajé event 'PajeDefineSomething':"
        + " expected one of [PajeDefineContainerType,"), message);
    Path missing = write("m.trace", "%EventDef PajePopState 0\n% Time date\n%EndEventDef\n");
    assertEquals(missing + ":3: PajePopState (id 0) lacks the fields [Type, Container]\n"
        + "  %EndEventDef", failure(missing, true));
  }

  @Test
  void progressIsReportedWithTheFileSize() throws IOException {
    Path plain = PajeReferenceTest.TRACES.resolve("simgrid/smpi_perturbed.trace");
    List<Long> reports = new ArrayList<>();
    new PajeReader().read(plain, new MemoryTrace(), new ReadOptions(false, reports::add));
    assertEquals(Files.size(plain), reports.get(reports.size() - 1));
    assertTrue(reports.size() > 1 && reports.size() < 20, reports::toString);
  }

  private void assertBad(String body, int line, String what) throws IOException {
    Path trace = write("bad.trace", HEADER + SETUP + body + "\n");
    String lineText = body.lines().reduce((a, b) -> b).orElseThrow();
    assertEquals(trace + ":" + line + ": " + what + "\n  " + lineText, failure(trace, false));
  }

  private String failure(Path trace, boolean lenient) {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new PajeReader().read(trace, new MemoryTrace(), new ReadOptions(lenient, b -> { })));
    return e.getMessage();
  }

  private MemoryTrace read(String body) throws IOException {
    MemoryTrace t = new MemoryTrace();
    new PajeReader().read(write("t.trace", HEADER + body), t, ReadOptions.STRICT);
    return t;
  }

  private Path write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static List<String> states(MemoryTrace t) {
    List<String> list = new ArrayList<>();
    for (MemoryTrace.State s : t.states) {
      MemoryTrace.Type type = t.types.get(s.type());
      list.add(t.producers.get(s.producer()).name() + " " + type.group() + "/" + type.name() + " "
          + s.start() + "-" + s.end() + " depth " + s.depth());
    }
    return list;
  }
}
