package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
 * they are the page's own charts of that trace (decision 065), then its event tables, statistics
 * and zoom (decision 070), and its charts again once the process is quiet (decision 074), each of
 * which runs (a failure would be silent), waits for the server to be idle, stops when a request
 * arrives, and leaves the trace's answers and files as they were.
 */
class WarmUpTest {
  @TempDir Path dir;

  @Test
  void chartsTakeEveryPathOfTheStates() throws IOException {
    TraceStore store = WarmUp.store(dir.resolve("store"));
    GanttSummary.write(store, WarmUp.FINEST);
    List<Supplier<GanttView.Result>> charts = WarmUp.charts(store);
    assertEquals(3, charts.size());
    GanttView.Result fromSummary = charts.get(0).get();
    assertNotNull(fromSummary.fromSummary(), "rows of several ranks from the summary");
    assertEquals(WarmUp.FINEST, fromSummary.fromSummary().level());
    assertTrue(fromSummary.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    GanttView.Result fromKernel = charts.get(1).get();
    assertNull(fromKernel.fromSummary(), "the same rows from the scan kernel");
    assertTrue(fromKernel.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    assertEquals((long) WarmUp.RANKS * WarmUp.STATES_PER_RANK, fromKernel.records());
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
    WarmUp.run(dir, () -> true, drawn::add);
    assertEquals(WarmUp.ROUNDS * 3, drawn.size(), "three charts a round, each drawn");
    for (GanttView.Result chart : drawn) {
      org.ocelotl.export.GanttPicture.render(chart, org.ocelotl.export.Format.SVG, java.io.OutputStream.nullOutputStream());
    }
    assertTrue(Files.exists(dir.resolve("store").resolve(GanttSummary.FILE)));
  }

  @Test
  void servedWindowsAreTenthsInsideTheTrace() {
    double[][] windows = WarmUp.servedWindows(0, 10);
    assertArrayEquals(new double[] {1, 2}, windows[0]);
    assertArrayEquals(new double[] {7, 8}, windows[1]);
    windows = WarmUp.servedWindows(0, 100, WarmUp.TABLE_SPAN);
    assertArrayEquals(new double[] {10, 11}, windows[0]);
    assertArrayEquals(new double[] {70, 71}, windows[1]);
    windows = WarmUp.servedWindows(100, 300);
    assertArrayEquals(new double[] {120, 140}, windows[0]);
    assertArrayEquals(new double[] {240, 260}, windows[1]);
  }

  @Test
  void aServedTracesChartsAreThePagesOwnOfItsWindows() throws IOException, InterruptedException {
    TraceStore store = WarmUp.store(dir.resolve("store"));
    StoreMetadata m = store.metadata();
    double[][] windows = WarmUp.servedWindows(m.start(), m.windowEnd());
    List<String> kinds = List.of("state", "event", "link");
    // A user's window, answered before the warm-up and after it: the warm-up keeps nothing.
    byte[] before = new GanttView(store, 3, 4, List.of(), List.of(), kinds, 1000, 420).answer().json();
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    WarmUp.draw(WarmUp.servedCharts(store), () -> true, drawn::add);
    assertEquals(WarmUp.SERVED_ROUNDS, drawn.size(), "each chart drawn");
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
    TraceStore store = WarmUp.store(dir.resolve("store"));
    int[] polls = {0};
    List<Integer> pollsAtChart = new java.util.ArrayList<>();
    // Busy at every other poll: each chart waits for the next idle one.
    WarmUp.draw(WarmUp.servedCharts(store), () -> ++polls[0] % 2 == 0, r -> pollsAtChart.add(polls[0]));
    assertEquals(java.util.stream.IntStream.rangeClosed(1, WarmUp.SERVED_ROUNDS).map(k -> 2 * k).boxed().toList(),
        pollsAtChart);
  }

  @Test
  void theSyntheticChartsComeFirstThenTheServedTracesOwn() throws IOException, InterruptedException {
    TraceStore served = WarmUp.store(dir.resolve("served"));
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    WarmUp.warmUp(() -> true, drawn::add, served, () -> -1);
    int synthetic = WarmUp.ROUNDS * 3;
    assertEquals(synthetic + WarmUp.SERVED_ROUNDS + WarmUp.LAST_CHARTS, drawn.size());
    for (int k = 0; k < drawn.size(); k++) {
      assertEquals(k >= synthetic, drawn.get(k).request().store() == served, "chart " + k);
    }
    // The last ones, after the tables and the zoom: the page's chart of each window once more.
    StoreMetadata m = served.metadata();
    double[][] windows = WarmUp.servedWindows(m.start(), m.windowEnd());
    for (int k = 0; k < WarmUp.LAST_CHARTS; k++) {
      assertEquals(new GanttView(served, windows[k][0], windows[k][1], List.of(), List.of(), WarmUp.PAGE_KINDS,
          WarmUp.PAGE_WIDTH, WarmUp.PAGE_HEIGHT), drawn.get(synthetic + WarmUp.SERVED_ROUNDS + k).request());
    }
    drawn.clear();
    WarmUp.warmUp(() -> true, drawn::add, null, () -> -1);
    assertEquals(synthetic, drawn.size(), "no trace served (ocelotl serve): the synthetic charts alone");
  }

  @Test
  void theTablesAndTheZoomRunAsThePageAsksThem() throws IOException {
    TraceStore store = WarmUp.store(dir.resolve("store"));
    List<WarmUp.Step> tables = WarmUp.servedTables(store);
    assertEquals(4, tables.size(), "the event table's first page and the statistics, in two places");
    for (WarmUp.Step step : tables) {
      assertTrue(((byte[]) step.run()).length > 0);
    }
    List<WarmUp.Step> zooms = WarmUp.servedZooms(store, () -> true);
    assertEquals(2, zooms.size(), "at the window's default p, then at that p");
    String atDefault = new String((byte[]) zooms.get(0).run(), java.nio.charset.StandardCharsets.UTF_8);
    String atP = new String((byte[]) zooms.get(1).run(), java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(atDefault.contains("\"provisional\":true"), atDefault.substring(0, Math.min(200, atDefault.length())));
    assertTrue(atP.contains("\"provisional\":true"));
    assertFalse(Files.exists(dir.resolve("store").resolve(org.ocelotl.scan.ModelCache.DIRECTORY)),
        "the zooms' models are not cached in the user's store");
  }

  @Test
  void aWarmedTraceAnswersAsAnUnwarmedOne() throws IOException, InterruptedException {
    Path directory = dir.resolve("store");
    TraceStore store = WarmUp.store(directory);
    List<String> files = files(directory);
    double[][] windows = {{3, 4}, WarmUp.servedWindows(0, 10, WarmUp.TABLE_SPAN)[0]};
    List<byte[]> cold = new java.util.ArrayList<>();
    for (double[] w : windows) {
      cold.add(answers(store, w));
    }
    // The user's zooms cached their models: gone, so that the warmed answers are computed too.
    delete(directory.resolve(org.ocelotl.scan.ModelCache.DIRECTORY));
    assertEquals(files, files(directory));
    WarmUp.warmUp(() -> true, r -> {}, store, () -> -1);
    assertEquals(files, files(directory), "the warm-up writes nothing next to the store");
    for (int k = 0; k < windows.length; k++) {
      assertArrayEquals(cold.get(k), answers(store, windows[k]), "[" + windows[k][0] + ", " + windows[k][1] + ")");
    }
  }

  private static void delete(Path directory) throws IOException {
    try (java.util.stream.Stream<Path> paths = Files.walk(directory)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The page's chart, event table, statistics and zoom (at its default p, then at that p) of a window, in one array. */
  private static byte[] answers(TraceStore store, double[] w) throws IOException {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    all.writeBytes(new GanttView(store, w[0], w[1], List.of(), List.of(), WarmUp.PAGE_KINDS, 1200, 420).answer().json());
    Map<String, String> window = Map.of("from", Double.toString(w[0]), "to", Double.toString(w[1]));
    RequestValues events = WarmUp.values(RequestSpec.EVENTS, merged(window, WarmUp.PAGE_EVENTS));
    all.writeBytes(RecordTable.answer(events, store, Requests.window(events, store, null)).json());
    RequestValues stats = WarmUp.values(RequestSpec.STATS, merged(window, WarmUp.PAGE_STATS));
    all.writeBytes(Statistics.of(stats, store, Requests.window(stats, store, null)).answer().json());
    AnalysisService service = AnalysisService.standard();
    Map<String, String> zoom = merged(window, WarmUp.PAGE_ZOOM);
    ProvisionalResult first = provisional(service, store, zoom);
    all.writeBytes(first.json());
    all.writeBytes(provisional(service, store, merged(zoom, Map.of("p", Double.toString(first.p())))).json());
    return all.toByteArray();
  }

  private static ProvisionalResult provisional(AnalysisService service, TraceStore store, Map<String, String> q)
      throws IOException {
    RequestValues v = WarmUp.values(RequestSpec.OVERVIEW, q);
    return service.provisional(Requests.overview(v, new ModelInput.FromTrace(store, Requests.model(v, store, null))),
        Progress.NONE).orElseThrow();
  }

  private static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
    Map<String, String> m = new java.util.HashMap<>(a);
    m.putAll(b);
    return m;
  }

  private static List<String> files(Path store) throws IOException {
    try (java.util.stream.Stream<Path> paths = Files.walk(store)) {
      return paths.map(p -> store.relativize(p) + " " + p.toFile().length()).sorted().toList();
    }
  }

  @Test
  void theLastChartsWaitForTheProcessToBeQuiet() throws InterruptedException {
    // 10 ms steps; the process's CPU (ns) over them: 10, 8, 6 ms busy, then 0.4 ms (4 %): quiet.
    long[] cpu = {0, 10_000_000, 18_000_000, 24_000_000, 24_400_000, 90_000_000};
    int[] read = {0};
    assertEquals(4, WarmUp.waitForQuiet(() -> cpu[read[0]++], 10, 1_000));
    assertEquals(5, read[0], "no reading after the quiet step");
    // Never quiet: given up after the bound.
    long[] busy = {0};
    assertEquals(5, WarmUp.waitForQuiet(() -> busy[0] += 10_000_000, 10, 50));
    assertEquals(0, WarmUp.waitForQuiet(() -> -1, 10, 1_000), "no reading of the CPU: no wait");
  }

  @Test
  void aZoomStopsWhenARequestArrives() throws IOException {
    TraceStore store = WarmUp.store(dir.resolve("store"));
    assertThrows(WarmUp.Stopped.class, () -> WarmUp.servedZooms(store, () -> false).get(0).run());
  }

  @Test
  void aStoppedStepRunsAgainWhenTheServerIsIdleAgain() throws InterruptedException {
    int[] polls = {0};
    List<Integer> runs = new java.util.ArrayList<>();
    WarmUp.Step stoppedOnce = () -> {
      runs.add(polls[0]);
      if (runs.size() == 1) {
        throw new WarmUp.Stopped();
      }
      return null;
    };
    WarmUp.Step failing = () -> {
      runs.add(-polls[0]);
      throw new IOException("a full disk");
    };
    // Busy at every other poll: each run waits for an idle one.
    WarmUp.run(List.of(stoppedOnce, failing, stoppedOnce), () -> ++polls[0] % 2 == 0);
    assertEquals(List.of(2, 4, -6, 8), runs, "stopped: run again; failed: skipped");
  }
}
