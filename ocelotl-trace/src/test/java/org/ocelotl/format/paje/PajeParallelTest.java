package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

/**
 * The parallel read ({@link PajeParallel}) writes the store the sequential read writes, byte for
 * byte, or fails with its message: on every real Pajé trace of shared/traces, on seeded random
 * traces with what could tell the parts apart (containers and values defined late, references by
 * alias and by name, quoted values, comments and blank lines, stacks, variables, links ended before
 * they start, destroyed containers), and on bad input that only one part reads. Chunks of 64
 * records, so that every store has many. A time limit turns a lost hand-over between the threads
 * into a failure rather than a hung build.
 */
@Timeout(600)
class PajeParallelTest {
  private static final int CHUNK = 64;
  private static final StoreMetadata.Source SOURCE = new StoreMetadata.Source("t", 1, 2, "f", "paje");

  @TempDir Path tmp;

  static Stream<Path> realTraces() throws IOException {
    try (Stream<Path> files = Files.walk(SharedTraces.dir().resolve("paje"))) {
      List<Path> traces = files.filter(f -> f.toString().endsWith(".trace")).sorted().toList();
      assertTrue(traces.size() >= 20, traces.size() + " traces");
      return traces.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("realTraces")
  void realTracesGiveTheSequentialStore(Path trace) throws IOException {
    String sequential = importInto(trace, 0, "seq");
    for (int parts = 1; parts <= 3; parts++) {
      assertEquals(sequential, importInto(trace, parts, "par" + parts), trace + " in " + parts + " parts");
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void randomTracesGiveTheSequentialStore(long seed) throws IOException {
    Path trace = tmp.resolve("random-" + seed + ".trace");
    Files.writeString(trace, randomTrace(new Random(seed), 3000));
    String sequential = importInto(trace, 0, "seq");
    assertTrue(sequential.startsWith("store"), "seed " + seed + ": " + sequential);
    for (int parts = 1; parts <= 4; parts++) {
      assertEquals(sequential, importInto(trace, parts, "par" + parts), "seed " + seed + ", " + parts + " parts");
    }
  }

  /**
   * Pops on an empty stack, one in a container part 1 reads (c1, the body's 4th line) before one
   * part 0 reads (c2, its 6th): the first in the trace is reported, with its line, whatever part
   * reads it; then c2's first, the 5th, when c1's is gone.
   */
  @Test
  void theFirstBadLineIsReportedWhicheverPartReadsIt() throws IOException {
    String body = "4 1.0 S c1 busy\n4 2.0 S c2 busy\n5 3.0 S c1\n5 3.5 S c1\n5 4.0 S c2\n5 4.5 S c2\n";
    Path trace = tmp.resolve("bad.trace");
    Files.writeString(trace, HEADER + body);
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> PajeParallel.read(trace, StoreWriter.discarding(CHUNK), ReadOptions.STRICT, 2));
    assertEquals(trace + ":" + (BODY + 3) + ": pop on an empty stack: expected an open state of type 'State' in container 'c1'\n"
        + "  5 3.5 S c1", e.getMessage());
    assertEquals(e.getMessage(), importInto(trace, 0, "seq"));
    Files.writeString(trace, HEADER + body.replace("5 3.5 S c1\n", "5 3.5 S c2\n"));
    assertEquals(trace + ":" + (BODY + 4) + ": pop on an empty stack: expected an open state of type 'State' in container 'c2'\n"
        + "  5 4.0 S c2", importInto(trace, 2, "par"));
  }

  /** Link ends never started, in both parts: the earliest is reported, as the sequential read does. */
  @Test
  void theFirstUnmatchedLinkEndIsReported() throws IOException {
    StringBuilder body = new StringBuilder();
    for (int k = 9; k >= 0; k--) {
      body.append("7 ").append(k).append(".0 L 0 c1 k").append(k).append('\n');
    }
    Path trace = tmp.resolve("ends.trace");
    Files.writeString(trace, HEADER + body);
    String sequential = importInto(trace, 0, "seq");
    assertEquals(trace + ":" + BODY + ": link end without start: no PajeStartLink with the same type and key in the whole trace\n"
        + "  7 9.0 L 0 c1 k9", sequential);
    for (int parts = 1; parts <= 4; parts++) {
      assertEquals(sequential, importInto(trace, parts, "par" + parts));
    }
  }

  /** A limit of the store writer, refused in the merge, is reported at the line that sent it. */
  @Test
  void aRefusalOfTheStoreIsReportedAtItsLine() throws IOException {
    Path trace = tmp.resolve("backwards.trace");
    Files.writeString(trace, HEADER + "4 1.0 S c1 busy\n4 2.0 S c2 busy\n6 3.0 L 0 c2 k\n7 1.0 L 0 c1 k\n");
    String sequential = importInto(trace, 0, "seq");
    assertTrue(sequential.startsWith(trace + ":" + (BODY + 3) + ": a link of c2 (Link) ends before it starts"), sequential);
    assertEquals(sequential, importInto(trace, 2, "par"));
  }

  /** A trace's bytes or the failure's message (0 parts: the sequential read); the directory is left for the comparison. */
  private String importInto(Path trace, int parts, String name) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve(name + "-" + trace.getFileName() + "-" + System.nanoTime()));
    StoreWriter writer = new StoreWriter(dir, CHUNK);
    try {
      if (parts == 0) {
        PajeReader.readSequentially(trace, writer, ReadOptions.STRICT);
      } else {
        PajeParallel.read(trace, writer, ReadOptions.STRICT, parts);
      }
      writer.finish(SOURCE);
    } catch (TraceFormatException e) {
      writer.abort();
      return e.getMessage();
    }
    StringBuilder bytes = new StringBuilder("store");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        bytes.append('\n').append(f.getFileName()).append(' ').append(java.util.HexFormat.of().formatHex(
            java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
      }
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    return bytes.toString();
  }

  /** Ids 0–7; containers c1 and c2 (ids 1 and 2: parts 1 and 0 of 2) of type R; lines 1–15. */
  private static final String HEADER = """
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
      %EventDef PajeDefineLinkType 3
      % Alias string
      % Type string
      % StartContainerType string
      % EndContainerType string
      % Name string
      %EndEventDef
      %EventDef PajePushState 4
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      %EventDef PajePopState 5
      % Time date
      % Type string
      % Container string
      %EndEventDef
      %EventDef PajeStartLink 6
      % Time date
      % Type string
      % Container string
      % StartContainer string
      % Key string
      %EndEventDef
      %EventDef PajeEndLink 7
      % Time date
      % Type string
      % Container string
      % EndContainer string
      % Key string
      %EndEventDef
      0 R 0 Rank
      1 S R State
      3 L 0 R R Link
      2 0.0 c1 R 0 c1
      2 0.0 c2 R 0 c2
      """;
  /** The number of the body's first line. */
  private static final long BODY = HEADER.lines().count() + 1;

  // ---------------------------------------------------------------- random traces

  /**
   * A random trace of about {@code lines} lines that reads without error (the generator keeps the
   * stacks, variables and links it wrote) but mixes everything the parts could get wrong.
   */
  static String randomTrace(Random r, int lines) {
    StringBuilder t = new StringBuilder("""
        # a random trace
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
        %EventDef PajeDefineEventType 2
        % Alias string
        % Type string
        % Name string
        %EndEventDef
        %EventDef PajeDefineVariableType 3
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
        % Name string
        % Type string
        %EndEventDef
        %EventDef PajeSetState 8
        % Time date
        % Container string
        % Type string
        % Value string
        %EndEventDef
        %EventDef PajePushState 9
        % Time date
        % Type string
        % Container string
        % Value string
        %EndEventDef
        %EventDef PajePopState 10
        % Time date
        % Type string
        % Container string
        %EndEventDef
        %EventDef PajeResetState 11
        % Time date
        % Type string
        % Container string
        %EndEventDef
        %EventDef PajeNewEvent 12
        % Time date
        % Type string
        % Container string
        % Value string
        %EndEventDef
        %EventDef PajeSetVariable 13
        % Time date
        % Type string
        % Container string
        % Value double
        %EndEventDef
        %EventDef PajeAddVariable 14
        % Time date
        % Type string
        % Container string
        % Value double
        %EndEventDef
        %EventDef PajeSubVariable 15
        % Time date
        % Type string
        % Container string
        % Value double
        %EndEventDef
        %EventDef PajeStartLink 16
        % Time date
        % Type string
        % Container string
        % StartContainer string
        % Key string
        % Size double
        %EndEventDef
        %EventDef PajeEndLink 17
        % Time date
        % Type string
        % Container string
        % EndContainer string
        % Key string
        %EndEventDef
        0 N 0 Node
        0 R N Rank
        1 S R State
        2 E R Mark
        3 V R Load
        4 L N R R Message
        5 v0 S "state zero" "1 0 0"
        6 0.0 n0 N 0 "node 0"
        """);
    List<String> refs = new ArrayList<>(); // each rank by alias or by name, the way lines refer to it
    List<String> names = new ArrayList<>();
    List<Integer> depth = new ArrayList<>();
    List<Boolean> hasValue = new ArrayList<>();
    List<Boolean> alive = new ArrayList<>();
    List<String> pending = new ArrayList<>(); // link keys started or ended, not yet matched
    List<Boolean> pendingIsEnd = new ArrayList<>();
    List<String> pendingAt = new ArrayList<>(); // a link's start written after its end takes the end's date
    int values = 1;
    int keys = 0;
    double time = 0;
    for (int n = 0; n < lines; n++) {
      time += r.nextInt(3) * 0.25;
      String at = String.valueOf(time);
      int op = refs.isEmpty() ? 0 : r.nextInt(100);
      int c = refs.isEmpty() ? -1 : r.nextInt(refs.size());
      String ref = c < 0 ? null : r.nextBoolean() ? "r" + c : "\"" + names.get(c) + "\"";
      boolean live = c >= 0 && alive.get(c);
      if (op < 4 || (refs.size() < 3 && op < 30)) {
        int id = refs.size();
        names.add("rank " + id);
        refs.add("r" + id);
        depth.add(0);
        hasValue.add(false);
        alive.add(true);
        t.append("6 ").append(at).append(" r").append(id).append(" R n0 \"rank ").append(id).append("\"\n");
      } else if (op < 6) {
        t.append("5 v").append(values).append(" S \"value ").append(values).append("\" \"0 1 0\"\n");
        values++;
      } else if (op < 9) {
        t.append(r.nextBoolean() ? "# a comment, 6 0.0 x y\n" : r.nextBoolean() ? "\n" : "   \t\n");
      } else if (op < 11 && live && refs.size() > 3) {
        t.append("7 ").append(at).append(' ').append(ref).append(" R\n");
        alive.set(c, false);
      } else if (op < 12 && !live && c >= 0) {
        t.append("12 ").append(at).append(" E ").append(ref).append(" late\n"); // ignored, counted
      } else if (!live) {
        t.append("# nothing on a destroyed container\n");
      } else if (op < 30) {
        t.append("8 ").append(at).append(' ').append(ref).append(" S ").append(value(r, values)).append('\n');
        depth.set(c, 1);
      } else if (op < 45) {
        t.append("9 ").append(at).append(" S ").append(ref).append(' ').append(value(r, values)).append('\n');
        depth.set(c, depth.get(c) + 1);
      } else if (op < 58 && depth.get(c) > 0) {
        t.append("10 ").append(at).append(" S ").append(ref).append('\n');
        depth.set(c, depth.get(c) - 1);
      } else if (op < 60) {
        t.append("11 ").append(at).append(" S ").append(ref).append('\n');
        depth.set(c, 0);
      } else if (op < 70) {
        t.append("12 ").append(at).append(" E ").append(ref).append(r.nextBoolean() ? " tick\n" : " \"tock tock\"\n");
      } else if (op < 80) {
        boolean set = !hasValue.get(c) || r.nextInt(3) == 0;
        t.append(set ? "13 " : r.nextBoolean() ? "14 " : "15 ").append(at).append(" V ").append(ref).append(' ')
            .append(r.nextInt(1000) / 8.0).append('\n');
        hasValue.set(c, true);
      } else if (op < 90 || pending.isEmpty()) {
        boolean end = r.nextInt(4) == 0;
        String key = "k" + keys++;
        pending.add(key);
        pendingIsEnd.add(end);
        pendingAt.add(at);
        // Now and then from the node: a link type declared between ranks, warned about once.
        String container = r.nextInt(20) == 0 ? "n0" : ref;
        t.append(end ? "17 " : "16 ").append(at).append(" L n0 ").append(container).append(' ').append(key)
            .append(end ? "\n" : " " + r.nextInt(100) + "\n");
      } else {
        int k = r.nextInt(pending.size());
        boolean end = !pendingIsEnd.get(k);
        t.append(end ? "17 " : "16 ").append(end ? at : pendingAt.get(k)).append(" L n0 ").append(ref).append(' ').append(pending.get(k))
            .append(end ? "\n" : " 8\n");
        pending.remove(k);
        pendingIsEnd.remove(k);
        pendingAt.remove(k);
      }
    }
    // Link ends still waiting would fail the read: start them, late.
    for (int k = 0; k < pending.size(); k++) {
      if (pendingIsEnd.get(k)) {
        t.append("16 ").append(pendingAt.get(k)).append(" L n0 n0 ").append(pending.get(k)).append(" 1\n");
      }
    }
    return t.toString();
  }

  private static String value(Random r, int values) {
    return r.nextInt(5) == 0 ? "fresh" + r.nextInt(4) : "v" + r.nextInt(values);
  }
}
