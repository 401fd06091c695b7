package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.Gantt;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The Gantt chart drawn from the store's summary against the one drawn from the records (the scan
 * kernel's sums), on a seeded Pajé trace of 16 ranks (2 sites › 2 cabinets › 2 hosts › 2 ranks,
 * about 1,000 states each over [0, 10) s, three types, states shorter and longer than a bucket)
 * with a summary of 2⁹ buckets: at windows whose pixel edges are bucket edges of the level the
 * chart reads, the same marks, counts and times (shares to rounding); at a window finer than the
 * finest buckets, the records' chart, said so. A third of the charts keep one site, a third two
 * types.
 */
class GanttSummaryTest {
  static final long SEED = 20261129;
  static final int FINEST = 9;
  @TempDir static Path dir;
  static TraceStore store;
  static GanttSummary summary;

  @BeforeAll
  static void importAndSummarise() throws IOException {
    Path trace = dir.resolve("ganttsummary.paje");
    Files.writeString(trace, trace(new SplittableRandom(SEED)), StandardCharsets.UTF_8);
    store = Workspace.open(dir.resolve("ws")).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    GanttSummary.write(store, FINEST);
    summary = GanttSummary.open(store).orElseThrow();
  }

  /** The trace: each rank's states one after the other (SetState), gaps of 0 to 20 ms, random types. */
  static String trace(SplittableRandom random) {
    StringBuilder b = new StringBuilder();
    String[][] defs = {{"PajeDefineContainerType 0", "Alias string", "Type string", "Name string"},
        {"PajeDefineStateType 1", "Alias string", "Type string", "Name string"},
        {"PajeDefineEntityValue 2", "Alias string", "Type string", "Name string", "Color color"},
        {"PajeCreateContainer 3", "Time date", "Alias string", "Type string", "Container string", "Name string"},
        {"PajeSetState 4", "Time date", "Container string", "Type string", "Value string"},
        {"PajeDestroyContainer 5", "Time date", "Type string", "Name string"}};
    for (String[] def : defs) {
      b.append("%EventDef ").append(def[0]).append('\n');
      for (int k = 1; k < def.length; k++) {
        b.append("%       ").append(def[k]).append('\n');
      }
      b.append("%EndEventDef\n");
    }
    b.append("0 TS 0 Site\n0 TC TS Cabinet\n0 TH TC Host\n0 TR TH Rank\n1 S TR State\n");
    b.append("2 c S compute \"0.0 0.7 0.9\"\n2 w S wait \"0.9 0.6 0.1\"\n2 a S collective \"0.8 0.1 0.6\"\n");
    for (int s = 0; s < 2; s++) {
      b.append("3 0 s").append(s).append(" TS 0 site-").append(s).append('\n');
      for (int c = 0; c < 2; c++) {
        int cab = s * 2 + c;
        b.append("3 0 c").append(cab).append(" TC s").append(s).append(" cab-").append(cab).append('\n');
        for (int h = 0; h < 2; h++) {
          int host = cab * 2 + h;
          b.append("3 0 h").append(host).append(" TH c").append(cab).append(" host-").append(host).append('\n');
          for (int r = 0; r < 2; r++) {
            int rank = host * 2 + r;
            b.append("3 0 r").append(rank).append(" TR h").append(host).append(" rank-").append(rank).append('\n');
          }
        }
      }
    }
    String[] types = {"c", "w", "a"};
    for (int rank = 0; rank < 16; rank++) {
      // Some ranks with long states (up to 200 ms, several buckets), the others short ones.
      double gap = rank % 3 == 0 ? 0.2 : 0.02;
      for (double t = random.nextDouble() * gap; t < 10; t += random.nextDouble() * gap) {
        b.append(String.format(Locale.ROOT, "4 %.9f r%d S %s%n", t, rank, types[random.nextInt(3)]));
      }
    }
    for (int rank = 0; rank < 16; rank++) {
      b.append("5 10 TR r").append(rank).append('\n');
    }
    return b.toString();
  }

  @Test
  void alignedWindowsDrawWhatTheRecordsDraw() {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    int[] heights = {10, 24, 40};
    for (int k = 0; k < 60; k++) {
      int level = 7 + random.nextInt(FINEST - 6);
      // Buckets per column: 4 to 7 make this level the coarsest with 4 in a column; at the finest, 1 to 7.
      int perColumn = level == FINEST ? 1 + random.nextInt(7) : 4 + random.nextInt(4);
      long buckets = 1L << level;
      int columns = 10 + random.nextInt((int) (buckets / perColumn) - 9);
      long first = random.nextLong(buckets - (long) columns * perColumn + 1);
      double from = summary.edge(level, first);
      double to = summary.edge(level, first + (long) columns * perColumn);
      // A third of the charts of one site's producers (10 px high: rows of several ranks, the
      // summary's), a third of two types.
      int filter = random.nextInt(3);
      int height = filter == 1 ? 10 : heights[random.nextInt(heights.length)];
      List<String> producers = filter == 1 ? List.of("site-" + random.nextInt(2)) : List.of();
      List<String> types = filter == 2 ? List.of("compute", random.nextBoolean() ? "wait" : "collective") : List.of();
      String what = "seed " + SEED + ", case " + k + ": level " + level + ", " + perColumn + " buckets a column, "
          + columns + " columns over [" + from + ", " + to + "), height " + height + ", producers " + producers
          + ", types " + types;
      GanttView request = new GanttView(store, from, to, producers, types, List.of(), columns, height);
      assertEquals(level, summary.levelFor(from, to, columns), what);
      GanttView.Result fromSummary = request.answer(true, GanttView.SummaryUse.WHEN_FINE_ENOUGH);
      assertNotNull(fromSummary.fromSummary(), what);
      assertEquals(level, fromSummary.fromSummary().level(), what);
      assertSameChart(request.answer(true, GanttView.SummaryUse.NEVER), fromSummary, what);
    }
  }

  @Test
  void aWindowFinerThanTheBucketsReadsTheRecords() {
    double bucket = summary.bucketWidth(FINEST);
    GanttView request = new GanttView(store, 5, 5 + bucket * 50, List.of(), List.of(), List.of(), 100, 10);
    GanttView.Result r = request.answer(true, GanttView.SummaryUse.WHEN_FINE_ENOUGH);
    assertNull(r.fromSummary(), "buckets wider than a pixel column");
    assertSameChart(request.answer(true, GanttView.SummaryUse.NEVER), r, "a small window");
    assertTrue(!new String(r.json(), StandardCharsets.UTF_8).contains("fromSummary"));
  }

  @Test
  void aWindowCuttingBucketsSaysSoAndKeepsTheTotals() {
    GanttView request = new GanttView(store, 1.2345, 7.891, List.of(), List.of(), List.of(), 300, 10);
    GanttView.Result r = request.answer(true, GanttView.SummaryUse.WHEN_FINE_ENOUGH);
    assertNotNull(r.fromSummary());
    String json = new String(r.json(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"fromSummary\":{\"level\":" + r.fromSummary().level()), json.substring(0, 400));
    assertTrue(r.fromSummary().caption().startsWith("SUMMARISED from the Gantt summary ("
        + r.fromSummary().buckets() + " buckets of "), r.fromSummary().caption());
    // The records' chart counts within a bucket of each edge of the window more or fewer states.
    long exact = request.answer(true, GanttView.SummaryUse.NEVER).records();
    assertTrue(Math.abs(r.records() - exact) < 0.02 * exact, r.records() + " vs " + exact);
  }

  /** A trace this small has fewer states in any window than the summary has cells: the chart reads the records. */
  @Test
  void theRecordsWhenTheyAreFewerThanTheCells() {
    GanttView request = new GanttView(store, 0, 10, List.of(), List.of(), List.of(), 160, 10);
    assertNull(request.answer().fromSummary());
    assertNotNull(request.answer(true, GanttView.SummaryUse.WHEN_FINE_ENOUGH).fromSummary());
  }

  static void assertSameChart(GanttView.Result expected, GanttView.Result actual, String what) {
    List<Gantt.Shape> a = actual.gantt().shapes();
    List<Gantt.Shape> b = expected.gantt().shapes();
    assertEquals(expected.records(), actual.records(), what + ": records");
    assertEquals(b.size(), a.size(), what + ": shapes");
    assertTrue(a.stream().anyMatch(s -> s.kind() == Gantt.Kind.SUMMARY), what + ": summary marks drawn");
    for (int i = 0; i < a.size(); i++) {
      Gantt.Shape x = a.get(i);
      Gantt.Shape y = b.get(i);
      String shape = what + ", shape " + i + ": " + y;
      assertEquals(y.kind(), x.kind(), shape);
      assertEquals(y.producer(), x.producer(), shape);
      assertEquals(y.type(), x.type(), shape);
      assertEquals(y.records(), x.records(), shape);
      assertEquals(y.x0(), x.x0(), 0, shape);
      assertEquals(y.x1(), x.x1(), 0, shape);
      assertEquals(y.y0(), x.y0(), 0, shape);
      assertEquals(y.opacity(), x.opacity(), 1e-9, shape);
      assertEquals(y.start(), x.start(), 0, shape);
      assertEquals(y.end(), x.end(), 0, shape);
    }
  }
}
