package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.testing.SharedTraces;

/** The commands import, list, rm and info as a user runs them: exit status, stdout, stderr. */
public class CliTest {

  /** A valid Pajé trace: one process p1 with the states run [1,2), wait [2,4), run [4,4]. */
  static final String PAJE = String.join("\n",
      "%EventDef PajeDefineContainerType 0", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
      "%EventDef PajeCreateContainer 1", "% Time date", "% Alias string", "% Type string", "% Container string",
      "% Name string", "%EndEventDef",
      "%EventDef PajeDefineStateType 2", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
      "%EventDef PajeSetState 3", "% Time date", "% Type string", "% Container string", "% Value string",
      "%EndEventDef",
      "0 P 0 \"Process\"", "2 S P \"State\"", "1 0.0 p1 P 0 \"p1\"",
      "3 1.0 S p1 run", "3 2.0 S p1 wait", "3 4.0 S p1 run", "");
  static final int WAIT_LINE = 28;

  @TempDir Path tmp;
  Path workspace;

  public record Result(int status, String out, String err) {}

  @BeforeEach
  void setUp() {
    workspace = tmp.resolve("ws");
  }

  /**
   * What Jazzer's agent writes to System.err when it instruments a class loaded during a command:
   * once ApiFuzzTest has run in this JVM, a command loading a class for the first time would
   * otherwise find the agent's line in the error output it is checked by.
   */
  private static final java.util.regex.Pattern FUZZER_AGENT_LINE =
      java.util.regex.Pattern.compile("(?m)^INFO: Instrumented [^\\n]* \\(took [^\\n]*\\)\\R");

  /** A command line run in this JVM, its standard output and error captured. */
  public static Result run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      int status = Main.run(args);
      return new Result(status, outBytes.toString(StandardCharsets.UTF_8),
          FUZZER_AGENT_LINE.matcher(errBytes.toString(StandardCharsets.UTF_8)).replaceAll(""));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  private Result ocelotl(String command, Object... args) {
    String[] all = new String[args.length + 3];
    all[0] = command;
    all[1] = "--workspace";
    all[2] = workspace.toString();
    for (int i = 0; i < args.length; i++) {
      all[i + 3] = args[i].toString();
    }
    return run(all);
  }

  private List<String> storeEntries() throws IOException {
    Path traces = workspace.resolve("traces");
    if (!Files.isDirectory(traces)) {
      return List.of();
    }
    try (Stream<Path> list = Files.list(traces)) {
      return list.map(p -> p.getFileName().toString()).toList();
    }
  }

  private Path write(String name, String text) throws IOException {
    Path file = tmp.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> infoJson(Object... args) {
    Object[] all = new Object[args.length + 1];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--json";
    Result result = ocelotl("info", all);
    assertEquals(0, result.status(), result.err());
    return (Map<String, Object>) PlainJson.parse(result.out());
  }

  @Test
  void infoJsonHoldsTheContract() throws IOException {
    Path trace = write("ok.trace", PAJE);
    Map<String, Object> info = infoJson(trace);
    assertEquals(List.of("id", "name", "path", "format", "size", "start", "origin", "end", "unit", "states",
        "events", "variables", "links", "producers", "leaves", "depth", "producerKinds", "metrics", "types", "warnings"),
        List.copyOf(info.keySet()));
    assertEquals("ok.trace", info.get("name"));
    assertEquals(trace.toRealPath().toString(), info.get("path"));
    assertEquals("paje", info.get("format"));
    assertEquals(0.0, info.get("start"));
    assertEquals(0.0, info.get("origin"));
    assertEquals(4.0, info.get("end"));
    assertEquals("s", info.get("unit"));
    assertEquals(List.of(3L, 0L, 0L, 0L), List.of(info.get("states"), info.get("events"), info.get("variables"), info.get("links")));
    assertEquals(List.of(2L, 1L, 1L), List.of(info.get("producers"), info.get("leaves"), info.get("depth")));
    assertEquals(List.of(
        Map.of("name", "run", "category", "state", "count", 2L, "group", "State"),
        Map.of("name", "wait", "category", "state", "count", 1L, "group", "State")),
        ((List<?>) info.get("types")).stream().map(t -> {
          Map<?, ?> m = (Map<?, ?>) t;
          return Map.of("name", m.get("name"), "category", m.get("category"), "count", m.get("count"), "group", m.get("group"));
        }).toList());
    assertEquals(List.of(), info.get("warnings"));
  }

  /** "-" is standard output, which then carries the JSON alone: the summary line goes to stderr. */
  @Test
  void jsonToStandardOutput() throws IOException {
    Path trace = write("ok.trace", PAJE);
    Path picture = tmp.resolve("o.svg");
    Result result = ocelotl("overview", trace, "--mode", "temporal", "--slices", "4", "--out", picture, "--json", "-");
    assertEquals(0, result.status(), result.err());
    Map<?, ?> json = (Map<?, ?>) PlainJson.parse(result.out());
    assertEquals(4L, json.get("slices"));
    assertTrue(result.err().contains("ok.trace: p = "), result.err());
    assertTrue(Files.isRegularFile(picture));
    assertTrue(Files.notExists(Path.of("-")), "no file named -");
  }

  @Test
  void helpNamesACommandAndEveryCommandHasTheVersion() {
    Result help = run("help", "info");
    assertEquals(0, help.status(), help.err());
    assertTrue(help.out().startsWith("Usage: ocelotl info"), help.out());
    for (String command : List.of("info", "overview", "export")) {
      Result version = run(command, "--version");
      assertEquals(0, version.status(), version.err());
      assertEquals(Main.VERSION, version.out().strip(), command);
    }
  }

  @Test
  void infoTextIsReadable() throws IOException {
    Result result = ocelotl("info", write("ok.trace", PAJE));
    assertEquals(0, result.status());
    assertTrue(result.out().contains("records    3 states, 0 events, 0 variable changes, 0 links"), result.out());
    assertTrue(result.out().contains("  state     State / run"), result.out());
    assertTrue(result.out().contains("warnings   none"), result.out());
    assertEquals("", result.err());
  }

  /** Bounds as plain decimals, however large (nanosecond traces): not 1.2345678905E9. */
  @Test
  void infoTextWritesTimesWithoutExponent() throws IOException {
    Result result = ocelotl("info", write("late.trace", PAJE.replace("3 4.0 S p1 run", "3 1234567890.5 S p1 run")));
    assertEquals(0, result.status(), result.err());
    assertTrue(result.out().contains("\ntime       0.0 to 1234567890.5 s\n"), result.out());
  }

  /** Each malformed line: exit 1, "ocelotl: FILE:LINE: what was expected" then the line, no store. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "3 3.0 S p1            | PajeSetState (id 3) expects 4 fields after the id (Time Type Container Value), found 3",
      "9 3.0 S p1 run        | unknown event id '9': expected an id defined by %EventDef",
      "3 abc S p1 run        | Time: expected a finite number, found 'abc'",
      "3 3.0 S nobody run    | unknown container 'nobody' in field Container: expected the name or alias of a created container",
  })
  void badLinesFailWithFileLineAndExpectation(String line, String expected) throws IOException {
    Path trace = write("bad.trace", PAJE.replace("3 2.0 S p1 wait", line.strip()));
    for (String command : List.of("import", "info")) {
      Result result = ocelotl(command, trace);
      assertEquals(1, result.status(), command);
      assertEquals("ocelotl: " + trace.toRealPath() + ":" + WAIT_LINE + ": " + expected + "\n  " + line.strip() + "\n",
          result.err(), command);
      assertEquals("", result.out(), command);
      assertEquals(List.of(), storeEntries(), command + ": no store may be left behind");
    }
  }

  @Test
  void lenientImportSkipsCountsAndReports() throws IOException {
    Path trace = write("bad.trace", PAJE.replace("3 2.0 S p1 wait", "3 abc S p1 run").replace("3 4.0 S p1 run", "9 5"));
    Map<String, Object> info = infoJson(trace, "--lenient");
    assertEquals(1L, info.get("states"));
    List<?> warnings = (List<?>) info.get("warnings");
    assertEquals(2, warnings.size(), warnings.toString());
    Result text = ocelotl("info", trace);
    assertEquals(0, text.status(), "the lenient store is reused");
    assertTrue(text.out().contains("warnings\n  " + warnings.get(0)), text.out());
  }

  @Test
  void notATraceMissingFileAndUnknownFormat() throws IOException {
    Path text = write("notes.txt", "hello\n");
    Result notTrace = ocelotl("info", text);
    assertEquals(new Result(1, "", "ocelotl: " + text.toRealPath()
        + ": not a trace format Ocelotl recognises (paje, otf2, ctf, chrome, jfr, pjdump, parquet, perfetto); name the format with --format\n"), notTrace);
    Path missing = tmp.resolve("missing.trace");
    assertEquals(new Result(1, "", "ocelotl: " + missing + ": no such file\n"), ocelotl("import", missing));
    Result unknown = ocelotl("info", text, "--format", "xyz");
    assertEquals(new Result(1, "", "ocelotl: unknown format 'xyz'; known formats: paje, otf2, ctf, chrome, jfr, pjdump, parquet, perfetto\n"), unknown);
    assertEquals(List.of(), storeEntries());
  }

  @Test
  void truncatedGzipIsBadInput() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(PAJE.repeat(1).getBytes(StandardCharsets.US_ASCII));
    }
    byte[] all = bytes.toByteArray();
    Path trace = tmp.resolve("cut.trace.gz");
    Files.write(trace, java.util.Arrays.copyOf(all, all.length - 12));
    Result result = ocelotl("import", trace);
    assertEquals(1, result.status());
    assertTrue(result.err().startsWith("ocelotl: " + trace.toRealPath() + ": truncated gzip data"), result.err());
    assertEquals(1, result.err().lines().count());
    assertEquals(List.of(), storeEntries());
  }

  @Test
  void usageErrorsExitWith2() {
    assertEquals(2, run("info").status());
    assertEquals(2, run("import", "--no-such-option", "x").status());
  }

  @Test
  void importListRemove() throws IOException {
    Path trace = write("ok.trace", PAJE);
    Result imported = ocelotl("import", trace);
    assertEquals(0, imported.status(), imported.err());
    assertTrue(imported.out().startsWith("imported ok.trace: 3 records in "), imported.out());
    Result list = ocelotl("list");
    assertTrue(list.out().lines().anyMatch(l -> l.startsWith("ok.trace") && l.contains("current")), list.out());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> rows = (List<Map<String, Object>>) PlainJson.parse(ocelotl("list", "--json").out());
    assertEquals(1, rows.size());
    assertEquals(trace.toRealPath().toString(), rows.get(0).get("path"));
    assertEquals(3L, rows.get(0).get("records"));
    Files.writeString(trace, PAJE + "3 5.0 S p1 wait\n");
    assertTrue(ocelotl("list").out().contains("changed"));
    assertEquals(4L, infoJson(trace).get("states"), "a modified trace is imported again");
    assertEquals(new Result(0, "removed " + trace + "\n", ""), ocelotl("rm", trace));
    assertEquals(List.of(), storeEntries());
    assertEquals(new Result(1, "", "ocelotl: " + trace + ": not imported in " + workspace.toAbsolutePath() + "\n"),
        ocelotl("rm", trace));
    assertTrue(ocelotl("list").out().startsWith("no imported traces"));
  }

  /** Counts against pj_dump's own output for the same trace (reference CSV beside it). */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"smpi_small_flat", "s4u_mw_small"})
  void countsMatchPjDump(String name) throws IOException {
    Path dir = SharedTraces.file("paje/simgrid");
    Map<String, Long> reference;
    try (Stream<String> lines = Files.lines(dir.resolve(name + ".pjdump.csv"))) {
      reference = lines.map(l -> l.substring(0, l.indexOf(','))).collect(Collectors.groupingBy(k -> k, Collectors.counting()));
    }
    Map<String, Object> info = infoJson(dir.resolve(name + ".trace"));
    assertEquals(reference.getOrDefault("State", 0L), info.get("states"));
    assertEquals(reference.getOrDefault("Event", 0L), info.get("events"));
    assertEquals(reference.getOrDefault("Variable", 0L), info.get("variables"));
    assertEquals(reference.getOrDefault("Link", 0L), info.get("links"));
    assertEquals(reference.get("Container"), info.get("producers"));
    long typeTotal = ((List<?>) info.get("types")).stream().mapToLong(t -> (Long) ((Map<?, ?>) t).get("count")).sum();
    assertEquals(reference.getOrDefault("State", 0L) + reference.getOrDefault("Event", 0L)
        + reference.getOrDefault("Variable", 0L) + reference.getOrDefault("Link", 0L), typeTotal);
    assertFalse(((List<?>) info.get("types")).isEmpty());
  }

  /**
   * An LTTng session directory stands for the one CTF trace in it; counts as babeltrace2 gives
   * them (CtfReaderTest checks every event): 2 × 1,205 function entries/exits → states, the
   * other 1,427 events punctual, the trace › process › 6 threads.
   */
  @Test
  void infoOnAnLttngSessionDirectory() throws IOException {
    Map<String, Object> info = infoJson(SharedTraces.file("ctf/ust-trace"));
    assertEquals("ustdemo", info.get("name")); // the metadata's trace_name, not the file's name "metadata"
    assertEquals(1205L, info.get("states"));
    assertEquals(1427L, info.get("events"));
    assertEquals(8L, info.get("producers"));
    Result notATrace = ocelotl("info", tmp);
    assertEquals(new Result(1, "", "ocelotl: " + tmp.toRealPath() + ": a directory with no CTF trace (no metadata file) nor"
        + " Parquet dataset (no dataset.json) in it; give the trace file itself\n"), notATrace);
  }

  /**
   * --states replaces the default entry/exit rules (CtfReaderTest checks the states against
   * babeltrace2): a mutex held from lock_acq to unlock: 465 acquisitions, each released (4 releases
   * come without theirs, the trace starting while the mutex was held); function entries and exits become punctual events. The reading gets its
   * own store beside the default one, a second run with the same rules reuses it, and rm forgets both.
   */
  @Test
  void userStateRulesGiveAnotherReadingOfACtfTrace() throws IOException {
    Path trace = SharedTraces.file("ctf/ust-trace");
    Object[] rules = {"--states", "(lttng_ust_pthread:pthread_mutex)_lock_acq", "(lttng_ust_pthread:pthread_mutex)_unlock"};
    Map<String, Object> byDefault = infoJson(trace);
    Map<String, Object> mutexes = infoJson(trace, rules[0], rules[1], rules[2]);
    assertEquals(1205L, byDefault.get("states"));
    assertEquals(465L, mutexes.get("states"));
    assertEquals(3837L - 2 * 465 - 4, mutexes.get("events")); // the 4 lone releases are counted, not kept
    assertEquals(2, storeEntries().size());
    assertEquals(mutexes, infoJson(trace, rules[0], rules[1], rules[2]));
    assertEquals(2, storeEntries().size());
    // rm of the trace's directory forgets both readings
    assertEquals(new Result(0, "removed " + trace + "\n", ""), ocelotl("rm", trace));
    assertEquals(List.of(), storeEntries());

    Result noGroup = ocelotl("info", trace, "--states", "open", "(close)");
    assertEquals(new Result(1, "", "ocelotl: state rule entry \"open\": expected a capturing group naming the state,"
        + " as in (.*)_entry\n"), noGroup);
    Path paje = write("ok.trace", PAJE);
    Result notCtf = ocelotl("info", paje, "--states", "(.*)_begin", "(.*)_end");
    assertEquals(new Result(1, "", "ocelotl: " + paje.toRealPath() + ": state rules apply to CTF traces, whose states"
        + " are pairs of events; this trace is paje, whose states the format itself defines\n"), notCtf);
  }

  /**
   * A Perfetto trace recognised from its content: PerfettoReaderTest's drawn example (kept with
   * its tests), 15 states (slices and scheduling), 3 instants, 4 counter values, 14 producers.
   */
  @Test
  void infoOnAPerfettoTrace() throws IOException {
    Path trace = Files.copy(Path.of("../ocelotl-trace/src/test/resources/org/ocelotl/format/perfetto/example.pftrace"),
        tmp.resolve("example.pftrace"));
    Map<String, Object> info = infoJson(trace);
    assertEquals("perfetto", info.get("format"));
    assertEquals(15L, info.get("states"));
    assertEquals(3L, info.get("events"));
    assertEquals(14L, info.get("producers"));
  }
}
