package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.testing.SharedTraces;

/**
 * The command line's conventions of issue 33: times with a unit mean time since the trace's start
 * (item 9), one rule for exit codes (item 16), names that {@code list} shows are the names {@code
 * rm} takes, and an archive's size is all its files' (item 18).
 */
class CliConventionsTest {
  @TempDir Path tmp;

  private CliTest.Result ocelotl(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    if (!args[0].equals("aggregate")) { // which reads model files, no workspace
      all.addAll(List.of("--workspace", tmp.resolve("ws").toString()));
    }
    return CliTest.run(all.toArray(String[]::new));
  }

  /** The LTTng trace starts at 933 152 422 999 ns; its axis reads 0 to 347 ms. */
  @Test
  void aTimeWithAUnitIsSinceTheTracesStart() {
    String ctf = SharedTraces.file("ctf/ust-trace").toString();
    CliTest.Result stats = ocelotl("stats", ctf, "--from", "150ms", "--to", "0.2s", "--json");
    assertEquals(0, stats.status(), stats.err());
    Map<?, ?> json = (Map<?, ?>) PlainJson.parse(stats.out());
    assertEquals(933_302_422_999.0, json.get("from"));
    assertEquals(933_352_422_999.0, json.get("to"));
    // A bare number keeps the trace's own unit: the same window, absolute.
    CliTest.Result bare = ocelotl("stats", ctf, "--from", "933302422999", "--to", "933352422999", "--json");
    assertEquals(stats.out(), bare.out());
    CliTest.Result overview = ocelotl("overview", ctf, "--from", "150ms", "--out", tmp.resolve("o.svg").toString());
    assertEquals(0, overview.status(), overview.err());
    CliTest.Result bad = ocelotl("stats", ctf, "--from", "150xs");
    assertEquals(1, bad.status());
    assertEquals("ocelotl: --from: unknown time unit 'xs' in '150xs': expected a bare number (the trace's unit) or "
        + "a number with ns, us, ms, s, min or h (time since the trace's start)\n", bad.err());
    CliTest.Result longer = ocelotl("events", ctf, "--min-duration", "300ms", "--json");
    CliTest.Result longerBare = ocelotl("events", ctf, "--min-duration", "300000000", "--json");
    assertEquals(0, longer.status(), longer.err());
    assertEquals(longerBare.out(), longer.out());
  }

  /** A saved selection takes the same times, on the command line and in a file it imports. */
  @Test
  void selectionsTakeTimesWithAUnit() throws IOException {
    String ctf = SharedTraces.file("ctf/ust-trace").toString();
    CliTest.Result saved = ocelotl("selection", "save", "mid", ctf, "--from", "150ms", "--to", "200ms");
    assertEquals(0, saved.status(), saved.err());
    assertTrue(saved.out().contains("[9.33302422999E11, 9.33352422999E11)"), saved.out());
    Path file = Files.writeString(tmp.resolve("s.json"), "{\"format\": \"ocelotl-selections\", \"version\": 1, "
        + "\"selections\": [{\"name\": \"late\", \"from\": \"300ms\", \"to\": \"0.34s\"}]}");
    CliTest.Result imported = ocelotl("selection", "import", ctf, file.toString());
    assertEquals(0, imported.status(), imported.err());
    CliTest.Result shown = ocelotl("selection", "show", "late", ctf);
    assertTrue(shown.out().contains("9.33452422999E11"), shown.out());
  }

  /**
   * 1 for bad input (a file that is not there), 2 for usage (an option no command has), in every
   * command that reads a file; {@code stats} refuses a window outside the trace as {@code
   * overview} does.
   */
  @Test
  void oneRuleForExitCodes() {
    String none = tmp.resolve("none.trace").toString();
    String out = tmp.resolve("out.svg").toString();
    List<List<String>> commands = List.of(List.of("import", none), List.of("info", none),
        List.of("overview", none, "--out", out), List.of("outliers", none), List.of("treemap", none, "--out", out),
        List.of("topology", none, "--out", out), List.of("model", none, "--slices", "10", "--out", tmp.resolve("m.csv").toString()),
        List.of("events", none), List.of("gantt", none, "--out", out), List.of("stats", none),
        List.of("selection", "save", "s", none), List.of("selection", "list", none), List.of("export", none, "--out", tmp.resolve("e.trace").toString()),
        List.of("aggregate", "--model", none, "--mode", "temporal"), List.of("rm", none));
    for (List<String> command : commands) {
      CliTest.Result bad = ocelotl(command.toArray(String[]::new));
      assertEquals(1, bad.status(), command + ": " + bad.err());
      assertTrue(bad.err().startsWith("ocelotl: " + none + ": "), command + ": " + bad.err());
      List<String> misspelt = new ArrayList<>(command);
      misspelt.add("--no-such-option");
      assertEquals(2, ocelotl(misspelt.toArray(String[]::new)).status(), misspelt.toString());
    }
    String ctf = SharedTraces.file("ctf/ust-trace").toString();
    CliTest.Result overview = ocelotl("overview", ctf, "--from", "1", "--to", "2", "--out", out);
    CliTest.Result stats = ocelotl("stats", ctf, "--from", "1", "--to", "2");
    assertEquals(1, stats.status());
    assertEquals("ocelotl: the window [1, 2) ns lies outside the trace, which spans [933152422999, 933499035006] ns\n",
        stats.err());
    assertEquals(overview.err(), stats.err());
  }

  /**
   * A value refused for an option is bad input, status 1, in every command, whether the request
   * spec refuses it or picocli (an option typed int or double: aggregate, selection, view, serve);
   * an option left without its value is usage, status 2 (decision 049).
   */
  @Test
  void aRefusedValueIsBadInputInEveryCommand() {
    String t = SharedTraces.file("paje/simgrid/smpi_small_grouped.trace").toString();
    String svg = tmp.resolve("r.svg").toString();
    String model = tmp.resolve("none.csv").toString();
    String[][] table = {
        {"overview " + t + " --out " + svg + " --slices abc", "--slices: expected an integer, found 'abc'"},
        {"outliers " + t + " --p abc", "--p: expected a number in [0, 1] or auto, found 'abc'"},
        {"treemap " + t + " --out " + svg + " --slices 1", "--slices: expected 2 to 10000, found 1"},
        {"topology " + t + " --out " + svg + " --cut x", "--cut: expected an integer or p, found 'x'"},
        {"model " + t + " --out " + model + " --slices 10 --depth x", "--depth: expected an integer or auto, found 'x'"},
        {"events " + t + " --limit abc", "--limit: expected an integer, found 'abc'"},
        {"gantt " + t + " --out " + svg + " --width abc", "--width: expected an integer, found 'abc'"},
        {"stats " + t + " --buckets abc", "--buckets: expected an integer, found 'abc'"},
        {"export " + t + " --out " + tmp.resolve("e.trace") + " --from 1xs", "--from: unknown time unit 'xs' in "
            + "'1xs': expected a bare number (the trace's unit) or a number with ns, us, ms, s, min or h (time since "
            + "the trace's start)"},
        {"compare " + t + " " + t + " --align x", "--align: expected one of start, stretch, found 'x'"},
        {"aggregate --model " + model + " --mode temporal --slices abc", "--slices: expected an integer, found 'abc'"},
        {"aggregate --model " + model + " --mode temporal --p x", "--p: expected a number, found 'x'"},
        {"selection save s " + t + " --above abc", "--above: expected a number, found 'abc'"},
        {"view " + t + " --slices abc", "--slices: expected an integer, found 'abc'"},
        {"serve --port abc", "--port: expected an integer, found 'abc'"}};
    for (String[] row : table) {
      CliTest.Result bad = ocelotl(row[0].split(" "));
      assertEquals(1, bad.status(), row[0] + ": " + bad.err());
      assertEquals("ocelotl: " + row[1] + "\n", bad.err(), row[0]);
      // The same option without its value: the command line's shape is wrong, status 2.
      String option = row[1].substring(0, row[1].indexOf(':'));
      String[] words = row[0].split(" ");
      List<String> missing = new ArrayList<>(List.of(words).subList(0, words.length - 2));
      missing.add(option);
      assertEquals(2, ocelotl(missing.toArray(String[]::new)).status(), missing.toString());
    }
  }

  /**
   * EZTrace names every archive eztrace_log.otf2: two get names of their own in {@code list},
   * which {@code rm} takes; the size is the archive's, all its files.
   */
  @Test
  void listNamesEachArchiveAndRmTakesTheName() throws IOException {
    Path mpi = SharedTraces.file("otf2/ez_mpi4/eztrace_log.otf2");
    Path hybrid = SharedTraces.file("otf2/ez_hybrid/eztrace_log.otf2");
    assertEquals(0, ocelotl("import", mpi.toString()).status());
    assertEquals(0, ocelotl("import", hybrid.toString()).status());
    CliTest.Result list = ocelotl("list", "--json");
    List<?> rows = (List<?>) PlainJson.parse(list.out());
    assertEquals(List.of("ez_hybrid/eztrace_log.otf2", "ez_mpi4/eztrace_log.otf2"),
        rows.stream().map(r -> ((Map<?, ?>) r).get("name")).toList());
    // The anchor, the global definitions and the event files; not the text dumps beside them.
    long size = Files.size(mpi) + Files.size(mpi.resolveSibling("eztrace_log.def"));
    try (Stream<Path> files = Files.walk(mpi.resolveSibling("eztrace_log"))) {
      size += files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
    assertEquals(size, ((Number) ((Map<?, ?>) rows.get(1)).get("size")).longValue());
    CliTest.Result rm = ocelotl("rm", "ez_mpi4/eztrace_log.otf2");
    assertEquals(0, rm.status(), rm.err());
    List<?> left = (List<?>) PlainJson.parse(ocelotl("list", "--json").out());
    assertEquals(List.of("eztrace_log.otf2"), left.stream().map(r -> ((Map<?, ?>) r).get("name")).toList());
    assertEquals(0, ocelotl("rm", "eztrace_log.otf2").status());
    assertEquals(List.of(), PlainJson.parse(ocelotl("list", "--json").out()));
  }
}
