package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.InstalledTools;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * {@code ocelotl export} against pj_dump (PajeNG, installed by scripts/install-test-deps): the
 * exported Pajé trace of a window, read by pj_dump, gives the rows of pj_dump on the original
 * trace clipped to that window — computed here from pj_dump's rows alone, independently of
 * Ocelotl — and the CSV export gives those same rows. Ocelotl re-imports both with the records
 * of the selection, type by type.
 *
 * <p>What the comparison leaves out, and why: the root container's row (pj_dump dates the root
 * from 0 to the last date of the file); a link's value and key (the store keeps neither); pj_dump
 * keeps variable values as floats, so its sums of PajeAddVariable/PajeSubVariable differ from the
 * exact ones by its rounding (compared within 1e-6 relative, as PajeReferenceTest does).
 */
class ExportCommandTest {
  static final Path SMALL = SharedTraces.file("paje/simgrid/smpi_small_flat.trace");
  /** Nested states, zero-length states at the ends of their parents, an event, a variable: drawn in docs. */
  static final String NESTED = """
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
      %EventDef PajeCreateContainer 4
      % Time date
      % Alias string
      % Type string
      % Container string
      % Name string
      %EndEventDef
      %EventDef PajePushState 5
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      %EventDef PajePopState 6
      % Time date
      % Type string
      % Container string
      %EndEventDef
      %EventDef PajeNewEvent 7
      % Time date
      % Type string
      % Container string
      % Value string
      %EndEventDef
      %EventDef PajeSetVariable 8
      % Time date
      % Type string
      % Container string
      % Value double
      %EndEventDef
      0 N 0 "node"
      0 T N "thread"
      1 S T "THREAD_STATE"
      2 E T "MARK"
      3 V N "load"
      4 0 n1 N 0 "n1"
      4 0 t1 T n1 "t1"
      4 0 t2 T n1 "t2"
      8 0 V n1 1
      5 1 S t1 "run"
      5 2 S t1 "lock"
      5 2 S t2 "run"
      5 3 S t1 "io"
      6 3 S t1
      5 3 S t1 "io"
      6 3 S t1
      6 3 S t1
      7 3.5 E t2 "tick"
      8 4 V n1 2
      8 4 V n1 3
      6 5 S t1
      5 5 S t1 "idle"
      6 5 S t1
      5 5 S t1 "run"
      5 5 S t1 "io"
      6 6 S t1
      6 7 S t1
      6 8 S t2
      8 9 V n1 0
      """;

  @TempDir Path tmp;

  @ParameterizedTest(name = "[{0}, {1})")
  @CsvSource({"0.2, 0.3", "0.0, 0.654303", "0.1, 0.45", "0.3356, 0.5", "0.008866, 0.009339"})
  void aWindowOfSmpiSmallFlatReadsBackAsPjDumpClipsIt(double from, double to) throws Exception {
    Path paje = export(SMALL, "paje", "--from", String.valueOf(from), "--to", String.valueOf(to));
    List<List<String>> expected = clipped(pjDump(SMALL), from, to);
    assertRows(expected, comparable(pjDump(paje)));
    Path csv = export(SMALL, "csv", "--from", String.valueOf(from), "--to", String.valueOf(to));
    assertRows(expected, comparable(printedAsPjDump(csv)));
    assertSameRecords(SMALL, from, to, paje);
    assertSameRecords(SMALL, from, to, csv);
  }

  @ParameterizedTest(name = "[{0}, {1})")
  @CsvSource({"0, 10", "2, 5", "2.5, 5", "4.5, 6.5", "5, 7", "1, 5", "5, 6", "3.5, 4"})
  void nestedStatesKeepTheirDepths(double from, double to) throws Exception {
    Path trace = tmp.resolve("nested.trace");
    Files.writeString(trace, NESTED);
    Path paje = export(trace, "paje", "--from", String.valueOf(from), "--to", String.valueOf(to));
    assertRows(clipped(pjDump(trace), from, to), comparable(pjDump(paje)));
    assertSameRecords(trace, from, to, paje);
  }

  /**
   * The one thing a clipped Pajé trace cannot say: at [3, 5), lock (depth 1, [2, 3]) ends at the
   * window's start and is not in it, but the two zero-length io states at 3 that were nested in it
   * (depth 2) are. Without their parent they are written at depth 1; every other row is pj_dump's.
   */
  @Test
  void aZeroLengthStateWhoseParentEndsAtTheWindowStartLosesThatLevel() throws Exception {
    Path trace = tmp.resolve("nested.trace");
    Files.writeString(trace, NESTED);
    List<List<String>> expected = clipped(pjDump(trace), 3, 5);
    List<String> io = List.of("State", "t1", "THREAD_STATE", "3.000000000", "3.000000000", "0.000000000");
    for (List<String> row : expected) {
      if (row.size() == 8 && row.subList(0, 6).equals(io)) {
        assertEquals("2.000000000", row.get(6));
        row.set(6, "1.000000000");
      }
    }
    expected.sort((a, b) -> String.join(", ", a).compareTo(String.join(", ", b)));
    assertRows(expected, comparable(pjDump(export(trace, "paje", "--from", "3", "--to", "5"))));
  }

  @Test
  void producersAndTypesNarrowTheExport() throws Exception {
    Path paje = export(SMALL, "paje", "--from", "0.2", "--to", "0.4", "--producers", "rank-3,rank-4", "--types",
        "PMPI_Waitall,MPI_LINK");
    List<List<String>> expected = new ArrayList<>();
    for (List<String> row : clipped(pjDump(SMALL), 0.2, 0.4)) {
      boolean waitall = row.get(0).equals("State") && List.of("rank-3", "rank-4").contains(row.get(1))
          && row.get(7).equals("PMPI_Waitall");
      boolean link = row.get(0).equals("Link") && (List.of("rank-3", "rank-4").contains(row.get(6))
          || List.of("rank-3", "rank-4").contains(row.get(7)));
      if (waitall || link) {
        expected.add(row);
      }
    }
    List<List<String>> got = comparable(pjDump(paje)).stream().filter(r -> !r.get(0).equals("Container")).toList();
    assertTrue(expected.size() > 20, "a real selection: " + expected.size() + " rows");
    assertRows(expected, got);
  }

  /** The whole trace loses no record: the zero-length states and variable changes at its end are in. */
  @Test
  void aWholeTraceExportKeepsEveryRecord() throws Exception {
    Workspace ws = Workspace.open(tmp.resolve("ws"));
    long[] original = ws.store(SMALL, ImportOptions.DEFAULT, ImportProgress.NONE).metadata().counts();
    assertEquals(2000, original[EventCategory.STATE.ordinal()]);
    assertEquals(2691, original[EventCategory.VARIABLE.ordinal()]);
    Path paje = export(SMALL, "paje");
    assertArrayEquals(original, ws.store(paje, ImportOptions.DEFAULT, ImportProgress.NONE).metadata().counts());
    Path csv = export(SMALL, "csv");
    long states = Files.readAllLines(csv).stream().filter(l -> l.startsWith("State,")).count();
    assertEquals(2000, states);
  }

  @Test
  void anExistingFileIsReplacedOnlyWithForce() throws IOException {
    Path out = tmp.resolve("x.trace");
    Files.writeString(out, "keep me");
    CliTest.Result refused = CliTest.run("export", SMALL.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--out", out.toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + out + ": exists; give --force to replace it\n"), refused);
    assertEquals("keep me", Files.readString(out));
    CliTest.Result forced = CliTest.run("export", SMALL.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--from", "0.2", "--to", "0.3", "--out", out.toString(), "--force");
    assertEquals(0, forced.status(), forced.err());
    assertTrue(Files.readString(out).contains("%EventDef PajePushState"));
    CliTest.Result badFormat = CliTest.run("export", SMALL.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--format", "otf2", "--out", tmp.resolve("y").toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: --format: expected paje, csv, chrome or parquet, got 'otf2'\n"), badFormat);
    CliTest.Result badType = CliTest.run("export", SMALL.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--types", "nope", "--out", tmp.resolve("y").toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: unknown type 'nope'\n"), badType);
    assertTrue(Files.notExists(tmp.resolve("y")));
  }

  // ---- helpers ------------------------------------------------------------------------------

  private Path export(Path trace, String format, String... selection) {
    Path out = tmp.resolve("export-" + System.nanoTime() + (format.equals("csv") ? ".csv" : ".trace"));
    List<String> args = new ArrayList<>(List.of("export", trace.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--format", format, "--out", out.toString()));
    args.addAll(List.of(selection));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    return out;
  }

  /** pj_dump's rows of a trace, its dates with 9 decimals. */
  static List<List<String>> pjDump(Path trace) throws Exception {
    Path pjDump = InstalledTools.executable("/usr/bin/pj_dump", "pajeng");
    Path out = Files.createTempFile("pjdump", ".csv");
    try {
      Process p = new ProcessBuilder(pjDump.toString(), "-l", "9", trace.toString()).redirectOutput(out.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), "pj_dump " + trace);
      return rows(Files.readAllLines(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static List<List<String>> rows(List<String> lines) {
    List<List<String>> rows = new ArrayList<>();
    for (String line : lines) {
      if (!line.isBlank()) {
        rows.add(new ArrayList<>(List.of(line.split(", ", -1))));
      }
    }
    return rows;
  }

  /** Our CSV's exact numbers printed as pj_dump -l 9 prints them, containers as pj_dump prints those. */
  private static List<List<String>> printedAsPjDump(Path csv) throws IOException {
    List<List<String>> rows = rows(Files.readAllLines(csv, StandardCharsets.UTF_8));
    for (List<String> row : rows) {
      int[] numbers = switch (row.get(0)) {
        case "State" -> new int[] {3, 4, 5, 6};
        case "Event" -> new int[] {3};
        case "Variable" -> new int[] {3, 4, 5, 6};
        case "Link" -> new int[] {3, 4, 5};
        default -> new int[0];
      };
      for (int i : numbers) {
        row.set(i, String.format(Locale.ROOT, "%.9f", Double.parseDouble(row.get(i))));
      }
    }
    return rows;
  }

  /**
   * pj_dump's rows of the original cut to [from, to): the records overlapping it (a zero-length
   * one when it lies in it; an event when from ≤ t &lt; to) with their dates clipped; the
   * containers living in it with their lifetimes clipped. A window that reaches the trace's last
   * date is closed there: the zero-length records and events at that date are in it.
   */
  static List<List<String>> clipped(List<List<String>> dump, double from, double to) {
    double last = dump.stream().mapToDouble(r -> Double.parseDouble(r.get(r.get(0).equals("Event") ? 3 : 4)))
        .max().orElse(0);
    boolean closed = to >= last;
    List<List<String>> kept = new ArrayList<>();
    for (List<String> row : dump) {
      String kind = row.get(0);
      if (kind.equals("Event")) {
        double t = Double.parseDouble(row.get(3));
        if (from <= t && (t < to || closed && t == to)) {
          kept.add(row);
        }
        continue;
      }
      double start = Double.parseDouble(row.get(3));
      double end = Double.parseDouble(row.get(4));
      boolean meets = kind.equals("Container") ? start <= to && end >= from
          : start < to && (end > from || end == start && start >= from) || closed && start == to && end == to;
      if (!meets) {
        continue;
      }
      List<String> cut = new ArrayList<>(row);
      double s = Math.max(start, from);
      double e = Math.min(end, to);
      if (kind.equals("Container")) {
        cut.set(3, String.valueOf(s));
        cut.set(4, String.valueOf(e));
        cut.set(5, String.valueOf(e - s));
      } else {
        cut.set(3, String.format(Locale.ROOT, "%.9f", s));
        cut.set(4, String.format(Locale.ROOT, "%.9f", e));
        cut.set(5, String.format(Locale.ROOT, "%.9f", e - s));
      }
      kept.add(cut);
    }
    return comparable(kept);
  }

  /**
   * Rows as compared: without the root container; a container's dates at pj_dump's six
   * significant digits and without its duration; a link without its value and key.
   */
  static List<List<String>> comparable(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> row : rows) {
      List<String> r = new ArrayList<>(row);
      switch (r.get(0)) {
        case "Container" -> {
          if (r.get(6).equals("0")) {
            continue;
          }
          r = List.of(r.get(0), r.get(1), r.get(2), String.format(Locale.ROOT, "%.6g", Double.parseDouble(r.get(3))),
              String.format(Locale.ROOT, "%.6g", Double.parseDouble(r.get(4))), r.get(6));
        }
        case "Link" -> r = List.of(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(7), r.get(8));
        default -> { }
      }
      out.add(r);
    }
    out.sort((a, b) -> String.join(", ", a).compareTo(String.join(", ", b)));
    return out;
  }

  /** Equal rows; a variable's value within pj_dump's float rounding. */
  static void assertRows(List<List<String>> expected, List<List<String>> actual) {
    assertEquals(expected.size(), actual.size(), "rows");
    for (int i = 0; i < expected.size(); i++) {
      List<String> e = expected.get(i);
      List<String> a = actual.get(i);
      if (e.get(0).equals("Variable") && a.get(0).equals("Variable")) {
        assertEquals(e.subList(0, 6), a.subList(0, 6), "row " + i);
        double ev = Double.parseDouble(e.get(6));
        assertEquals(ev, Double.parseDouble(a.get(6)), 1e-6 * Math.abs(ev) + 1e-6, "row " + i + ": " + e);
      } else {
        assertEquals(e, a, "row " + i);
      }
    }
  }

  /**
   * Ocelotl reads the exported file back with the selection's records: per type, the same count
   * and the same total (clipped) duration.
   */
  private void assertSameRecords(Path original, double from, double to, Path exported) throws IOException {
    Workspace ws = Workspace.open(tmp.resolve("ws"));
    TraceStore source = ws.store(original, ImportOptions.DEFAULT, ImportProgress.NONE);
    TraceStore back = ws.store(exported, ImportOptions.DEFAULT, ImportProgress.NONE);
    // The whole exported file: up to and including its last date.
    assertEquals(totals(source, from, to), totals(back, back.metadata().start(), Math.nextUp(back.metadata().end())),
        "records per type of the selection and of the exported file");
    assertTrue(back.metadata().warnings().isEmpty(), back.metadata().warnings().toString());
  }

  /** "category type" → [count, total clipped duration rounded to 1e-9]. */
  private static Map<String, List<Double>> totals(TraceStore store, double start, double end) {
    Map<String, double[]> sums = new TreeMap<>();
    RecordQuery.Selection all = new RecordQuery.Selection(start, end, null, null, EnumSet.allOf(EventCategory.class),
        null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0);
    RecordQuery.forEach(store, all, r -> {
      double[] s = sums.computeIfAbsent(r.kind() + " " + store.metadata().types().get(r.type()).name(),
          k -> new double[2]);
      s[0]++;
      s[1] += Math.min(r.end(), end) - Math.max(r.start(), start);
    });
    Map<String, List<Double>> rounded = new TreeMap<>();
    sums.forEach((k, s) -> rounded.put(k, List.of(s[0], Math.round(s[1] * 1e9) / 1e9)));
    return rounded;
  }
}
