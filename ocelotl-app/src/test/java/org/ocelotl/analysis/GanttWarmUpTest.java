package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.Gantt;

/**
 * The warm-up's charts take the paths a user's chart of states takes (decision 063): were a
 * threshold to move, the warm-up would warm code nobody runs, and say nothing. On a served trace
 * they are the page's own charts of that trace (decision 065), and leave its answers as they were.
 */
class GanttWarmUpTest {
  @TempDir Path dir;

  @Test
  void chartsTakeEveryPathOfTheStates() throws IOException {
    TraceStore store = GanttWarmUp.store(dir.resolve("store"));
    GanttSummary.write(store, GanttWarmUp.FINEST);
    List<Supplier<GanttView.Result>> charts = GanttWarmUp.charts(store);
    assertEquals(3, charts.size());
    GanttView.Result fromSummary = charts.get(0).get();
    assertNotNull(fromSummary.fromSummary(), "rows of several ranks from the summary");
    assertEquals(GanttWarmUp.FINEST, fromSummary.fromSummary().level());
    assertTrue(fromSummary.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    GanttView.Result fromKernel = charts.get(1).get();
    assertNull(fromKernel.fromSummary(), "the same rows from the scan kernel");
    assertTrue(fromKernel.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    assertEquals((long) GanttWarmUp.RANKS * GanttWarmUp.STATES_PER_RANK, fromKernel.records());
    GanttView.Result oneHost = charts.get(2).get();
    assertNull(oneHost.fromSummary());
    assertTrue(oneHost.gantt().shapes().stream().anyMatch(s -> s.kind() == Gantt.Kind.STATE),
        "rows of one rank: states drawn as themselves");
    assertTrue(oneHost.gantt().shapes().stream().anyMatch(s -> s.kind() == Gantt.Kind.SUMMARY),
        "and the narrow ones summed per pixel column");
  }

  @Test
  void runDrawsEveryChartAsSvgAndJson() throws IOException, InterruptedException {
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    GanttWarmUp.run(dir, () -> true, drawn::add);
    assertEquals(GanttWarmUp.ROUNDS * 3, drawn.size(), "three charts a round, each drawn");
    for (GanttView.Result chart : drawn) {
      org.ocelotl.export.GanttPicture.render(chart, org.ocelotl.export.Format.SVG, java.io.OutputStream.nullOutputStream());
    }
    assertTrue(Files.exists(dir.resolve("store").resolve(GanttSummary.FILE)));
  }

  @Test
  void servedWindowsAreTenthsInsideTheTrace() {
    double[][] windows = GanttWarmUp.servedWindows(0, 10);
    assertArrayEquals(new double[] {1, 2}, windows[0]);
    assertArrayEquals(new double[] {7, 8}, windows[1]);
    windows = GanttWarmUp.servedWindows(100, 300);
    assertArrayEquals(new double[] {120, 140}, windows[0]);
    assertArrayEquals(new double[] {240, 260}, windows[1]);
  }

  @Test
  void aServedTracesChartsAreThePagesOwnOfItsWindows() throws IOException, InterruptedException {
    TraceStore store = GanttWarmUp.store(dir.resolve("store"));
    StoreMetadata m = store.metadata();
    double[][] windows = GanttWarmUp.servedWindows(m.start(), m.windowEnd());
    List<String> kinds = List.of("state", "event", "link");
    // A user's window, answered before the warm-up and after it: the warm-up keeps nothing.
    byte[] before = new GanttView(store, 3, 4, List.of(), List.of(), kinds, 1000, 420).answer().json();
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    GanttWarmUp.draw(GanttWarmUp.servedCharts(store), () -> true, drawn::add);
    assertEquals(GanttWarmUp.SERVED_ROUNDS, drawn.size(), "each chart drawn");
    for (int k = 0; k < drawn.size(); k++) {
      GanttView request = drawn.get(k).request();
      assertSame(store, request.store(), "the served trace's, not a synthetic one's");
      double[] window = windows[k % 2];
      assertEquals(new GanttView(store, window[0], window[1], List.of(), List.of(), kinds, 1000, 420), request,
          "the page's chart (every producer, its kinds, its size when it cannot measure its box), windows alternated");
    }
    assertEquals(3, drawn.stream().filter(r -> r.request().from() == windows[0][0]).count());
    assertArrayEquals(before, new GanttView(store, 3, 4, List.of(), List.of(), kinds, 1000, 420).answer().json());
  }

  @Test
  void aChartWaitsForTheServerToBeIdle() throws IOException, InterruptedException {
    TraceStore store = GanttWarmUp.store(dir.resolve("store"));
    int[] polls = {0};
    List<Integer> pollsAtChart = new java.util.ArrayList<>();
    // Busy at every other poll: each chart waits for the next idle one.
    GanttWarmUp.draw(GanttWarmUp.servedCharts(store), () -> ++polls[0] % 2 == 0, r -> pollsAtChart.add(polls[0]));
    assertEquals(java.util.stream.IntStream.rangeClosed(1, GanttWarmUp.SERVED_ROUNDS).map(k -> 2 * k).boxed().toList(),
        pollsAtChart);
  }

  @Test
  void theSyntheticChartsComeFirstThenTheServedTracesOwn() throws IOException, InterruptedException {
    TraceStore served = GanttWarmUp.store(dir.resolve("served"));
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    GanttWarmUp.warmUp(() -> true, drawn::add, served);
    int synthetic = GanttWarmUp.ROUNDS * 3;
    assertEquals(synthetic + GanttWarmUp.SERVED_ROUNDS, drawn.size());
    for (int k = 0; k < drawn.size(); k++) {
      assertEquals(k >= synthetic, drawn.get(k).request().store() == served, "chart " + k);
    }
    drawn.clear();
    GanttWarmUp.warmUp(() -> true, drawn::add, null);
    assertEquals(synthetic, drawn.size(), "no trace served (ocelotl serve): the synthetic charts alone");
  }
}
