package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * Every limit of {@link Limit}, set low through its system property: an input at the limit
 * imports, one just over it is refused with a message naming the file, the limit and how to
 * raise it (issue 14, item 2).
 */
class LimitsTest {
  @TempDir Path tmp;

  private static String pjDump(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  /** A pj_dump root (its first container) and containers p1 … pN under it, each with one state. */
  private static String producers(int n) {
    return "Container, 0, R, 0, 9, 9, root\n" + IntStream.rangeClosed(1, n).mapToObj(i -> "Container, root, P, 0, 9, 9, p"
        + i + "\nState, p" + i + ", S, 1.0, 2.0, 1, 0, run\n").collect(Collectors.joining());
  }

  @Test
  void producers() throws IOException {
    // The sixth producer, p5, is listed at line 10.
    check(Limit.PRODUCERS, 5, "ok.csv", producers(4), "many.csv", producers(5), "many.csv:10: ");
  }

  @Test
  void types() throws IOException {
    String three = pjDump("Container, 0, P, 0, 9, 9, p1", "State, p1, S, 1.0, 2.0, 1, 0, a",
        "State, p1, S, 2.0, 3.0, 1, 0, b", "State, p1, S, 3.0, 4.0, 1, 0, c");
    check(Limit.TYPES, 3, "ok.csv", three, "many.csv", three + "State, p1, S, 4.0, 5.0, 1, 0, d\n", "many.csv:5: ");
  }

  @Test
  void treeDepth() throws IOException {
    String two = pjDump("Container, 0, R, 0, 9, 9, root", "Container, root, P, 0, 9, 9, p1",
        "Container, p1, P, 0, 9, 9, p2", "State, p2, S, 1.0, 2.0, 1, 0, run");
    check(Limit.TREE_DEPTH, 2, "ok.csv", two, "deep.csv", two + "Container, p2, P, 0, 9, 9, p3\n",
        "deep.csv:5: producer p3: ");
  }

  @Test
  void lineLengthOfPjDump() throws IOException {
    String line = "State, p1, S, 1.0, 2.0, 1, 0, run";
    String fits = pjDump("Container, 0, P, 0, 9, 9, p1", line + " ".repeat(100 - line.length()));
    String over = pjDump("Container, 0, P, 0, 9, 9, p1", line + " ".repeat(101 - line.length()));
    check(Limit.LINE_BYTES, 100, "ok.csv", fits, "long.csv", over, "long.csv:2: ");
  }

  @Test
  void lineLengthOfPaje() throws IOException {
    String header = """
        %EventDef PajeDefineContainerType 0
        %       Alias string
        %       Type string
        %       Name string
        %EndEventDef
        %EventDef PajeCreateContainer 1
        %       Time date
        %       Alias string
        %       Type string
        %       Container string
        %       Name string
        %EndEventDef
        0 CT 0 "rank"
        """;
    String line = "1 0 c1 CT 0 \"rank-0\"";
    check(Limit.LINE_BYTES, 100, "ok.trace", header + line + " ".repeat(100 - line.length()) + "\n",
        "long.trace", header + line + " ".repeat(101 - line.length()) + "\n", "long.trace:14: ");
  }

  @Test
  void jsonNesting() throws IOException {
    // The document, traceEvents and the event are 3 levels; args adds 1, each [ one more.
    String event = "{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"args\":%s}]}";
    check(Limit.JSON_NESTING, 6, "ok.json", String.format(event, "{\"x\":[[1]]}"),
        "deep.json", String.format(event, "{\"x\":[[[1]]]}"), "deep.json:1: column ");
  }

  @Test
  void jsonStrings() throws IOException {
    String event = "[{\"name\":\"%s\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}]";
    check(Limit.JSON_STRING_BYTES, 10, "ok.json", String.format(event, "a".repeat(10)),
        "long.json", String.format(event, "a".repeat(11)), "long.json:1: column ");
  }

  @Test
  void typesOfChrome() throws IOException {
    String a = "[\n{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}";
    String b = "{\"name\":\"b\",\"ph\":\"X\",\"ts\":2,\"dur\":1,\"pid\":1,\"tid\":1}";
    // Refused at the closing brace of the event that brings the second type (line 3, column 52).
    check(Limit.TYPES, 1, "ok.json", a + "\n]", "many.json", a + ",\n" + b + "\n]", "many.json:3: column 52: ");
  }

  @Test
  void producersOfPaje() throws IOException {
    String header = """
        %EventDef PajeDefineContainerType 0
        %       Alias string
        %       Type string
        %       Name string
        %EndEventDef
        %EventDef PajeCreateContainer 1
        %       Time date
        %       Alias string
        %       Type string
        %       Container string
        %       Name string
        %EndEventDef
        0 CT 0 "rank"
        1 0 c1 CT 0 "rank-0"
        """;
    // The root and rank-0 fit a limit of 2; rank-1, at line 15, is the third producer.
    check(Limit.PRODUCERS, 2, "ok.trace", header, "many.trace", header + "1 0 c2 CT 0 \"rank-1\"\n", "many.trace:15: ");
  }

  /**
   * The shared LTTng trace, whose streams merge to lttng_ust_statedump:start, then procname, then
   * bin_info, the third type, at byte 187 of channel0_1 (babeltrace2 lists them so).
   */
  @Test
  void typesOfCtf() throws IOException {
    assertEquals(SharedTraces.file(CTF + "/channel0_1").toRealPath() + "@187: " + Limit.TYPES.exceeded(2),
        refusal(Limit.TYPES, 2, SharedTraces.file(CTF + "/metadata")));
  }

  /** channel0_0's one packet has 8,192 bytes, channel0_1's 200,704. */
  @Test
  void packetBytesOfCtf() throws IOException {
    assertEquals(SharedTraces.file(CTF + "/channel0_1").toRealPath() + "@0: " + Limit.PACKET_BYTES.exceeded(8192),
        refusal(Limit.PACKET_BYTES, 8192, SharedTraces.file(CTF + "/metadata")));
  }

  /**
   * ez_mpi4's location 0, read first, opens with THREAD_BEGIN (record kind 63 at byte 27: an event
   * type "THREAD_BEGIN", the first type), then ENTER (kind 12) of region 1, "Working", at byte 40:
   * the second type, over a limit of 1.
   */
  @Test
  void typesOfOtf2() throws IOException {
    Path events = SharedTraces.file("otf2/ez_mpi4/eztrace_log/0.evt");
    byte[] bytes = Files.readAllBytes(events);
    assertEquals("3f / 0c 01 01", String.format("%02x / %02x %02x %02x", bytes[27], bytes[40], bytes[41], bytes[42]));
    assertEquals(events.toRealPath() + "@40: " + Limit.TYPES.exceeded(1), // the import names files by their real path
        refusal(Limit.TYPES, 1, SharedTraces.file("otf2/ez_mpi4/eztrace_log.otf2")));
  }

  private static final String CTF = "ctf/ust-trace/ust/uid/0/64-bit";

  /** The first line of the refusal of {@code trace} with the limit set to {@code value}. */
  private String refusal(Limit limit, long value, Path trace) throws IOException {
    String old = System.getProperty(limit.property());
    System.setProperty(limit.property(), Long.toString(value));
    try {
      Workspace workspace = Workspace.open(tmp.resolve("ws"));
      TraceFormatException e = assertThrows(TraceFormatException.class,
          () -> workspace.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE));
      return e.getMessage().lines().findFirst().orElseThrow();
    } finally {
      restore(limit, old);
    }
  }

  private static void restore(Limit limit, String old) {
    if (old == null) {
      System.clearProperty(limit.property());
    } else {
      System.setProperty(limit.property(), old);
    }
  }

  /** With the limit set to {@code value}: {@code fits} imports, {@code over} is refused as said. */
  private void check(Limit limit, long value, String fitsName, String fits, String overName, String over,
      String place) throws IOException {
    String old = System.getProperty(limit.property());
    System.setProperty(limit.property(), Long.toString(value));
    try {
      Workspace workspace = Workspace.open(tmp.resolve("ws"));
      workspace.store(Files.writeString(tmp.resolve(fitsName), fits), ImportOptions.DEFAULT, ImportProgress.NONE);
      Path file = Files.writeString(tmp.resolve(overName), over);
      TraceFormatException e = assertThrows(TraceFormatException.class,
          () -> workspace.store(file, ImportOptions.DEFAULT, ImportProgress.NONE));
      String first = e.getMessage().lines().findFirst().orElseThrow();
      if (place.endsWith("column ")) { // JSON: the column follows, then the message
        assertEquals(true, first.startsWith(tmp.resolve(place).toString()) && first.endsWith(": " + limit.exceeded(value)),
            first);
      } else {
        assertEquals(tmp.resolve(place) + limit.exceeded(value), first);
      }
    } finally {
      restore(limit, old);
    }
  }
}
