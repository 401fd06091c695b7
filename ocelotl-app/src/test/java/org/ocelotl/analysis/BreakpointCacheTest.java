package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.BreakpointCache;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.Workspace;

/**
 * Breakpoints of past analyses come back from the store's breakpoint cache: a service that forgot
 * them (six other analyses since) or a new one (a restart) answers the same bytes without running
 * the search — counted by {@link AnalysisService#searches()}, never timed.
 */
class BreakpointCacheTest {
  static final Path BUNDLED = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz")
      .normalize();

  @TempDir static Path tmp;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(tmp.resolve("ws")).store(BUNDLED, ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  private static AnalysisRequest request(int slices, Aggregation aggregation, ViewKind view, double p) {
    return new AnalysisRequest(new ModelInput.FromTrace(store, ModelRequest.of(Metric.STATE_DURATION, slices)),
        aggregation, view, p, AnalysisRequest.DEFAULT_HEIGHT);
  }

  @Test
  void aRestartedServiceAnswersTheSameBytesWithoutSearching() throws IOException {
    AnalysisRequest request = request(24, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    AnalysisService first = AnalysisService.standard();
    AnalysisResult searched = first.answer(request, Progress.NONE);
    assertEquals(1, first.searches());

    AnalysisService restarted = AnalysisService.standard();
    assertTrue(restarted.provisional(request, Progress.NONE).isEmpty(), "no provisional answer: the full one is kept");
    AnalysisResult kept = restarted.answer(request, Progress.NONE);
    assertEquals(0, restarted.searches());
    assertArrayEquals(searched.json(), kept.json());
    assertSameBreakpoints(searched.analysis().breakpoints(), kept.analysis().breakpoints());
  }

  @Test
  void aRevisitAfterSixOtherAnalysesDoesNotSearch() throws IOException {
    AnalysisService service = AnalysisService.standard();
    AnalysisRequest revisited = request(31, Aggregation.TEMPORAL, ViewKind.TEMPORAL_STACKED, Double.NaN);
    byte[] before = service.answer(revisited, Progress.NONE).json();
    for (int n = 0; n < AnalysisService.KEPT; n++) {
      service.answer(request(32 + n, Aggregation.TEMPORAL, ViewKind.TEMPORAL_STACKED, Double.NaN), Progress.NONE);
    }
    long searches = service.searches();
    assertEquals(1 + AnalysisService.KEPT, searches);
    assertArrayEquals(before, service.answer(revisited, Progress.NONE).json());
    assertEquals(searches, service.searches(), "the revisit read the breakpoints kept on disk");
  }

  @Test
  void aPartitionDrawnAtAnotherPIsKeptWithItsParts() throws IOException {
    AnalysisService first = AnalysisService.standard();
    List<Breakpoint> breakpoints = first.answer(request(18, Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_PARTITION, Double.NaN), Progress.NONE).analysis().breakpoints();
    double p = breakpoints.get(1).p(); // not the default's (which lies higher on this trace)
    AnalysisRequest request = request(18, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_PARTITION, p);
    byte[] drawn = first.answer(request, Progress.NONE).json();

    AnalysisService restarted = AnalysisService.standard();
    AnalysisResult kept = restarted.answer(request, Progress.NONE);
    assertEquals(0, restarted.searches());
    assertArrayEquals(drawn, kept.json());
    assertTrue(kept.partition().partsBuilt(), "read with its parts, no qualities computed");
  }

  @Test
  void theNeighboursOfTheShownPartitionAreBuiltAheadAndKept() throws Exception {
    AnalysisService first = AnalysisService.standard();
    AnalysisRequest request = request(22, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    AnalysisResult shown = first.answer(request, Progress.NONE);
    List<Breakpoint> breakpoints = shown.analysis().breakpoints();
    int at = Breakpoint.indexAt(breakpoints, shown.p());
    assertTrue(at - AnalysisService.NEIGHBOURS - 1 >= 0 && at + AnalysisService.NEIGHBOURS + 1 < breakpoints.size(),
        "the test needs breakpoints beyond the neighbours on both sides: " + at + " of " + breakpoints.size());
    first.buildNeighbours(request, shown).get();
    for (int k = at - AnalysisService.NEIGHBOURS - 1; k <= at + AnalysisService.NEIGHBOURS + 1; k++) {
      boolean neighbour = Math.abs(k - at) <= AnalysisService.NEIGHBOURS;
      assertEquals(neighbour, breakpoints.get(k).partition().partsBuilt(), "parts of breakpoint " + k + ", shown " + at);
    }

    AnalysisService restarted = AnalysisService.standard();
    for (int k = at - AnalysisService.NEIGHBOURS; k <= at + AnalysisService.NEIGHBOURS; k++) {
      AnalysisResult kept = restarted.answer(request(22, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE,
          breakpoints.get(k).p()), Progress.NONE);
      assertTrue(kept.partition().partsBuilt(), "breakpoint " + k + " read with its parts");
      assertEquals(breakpoints.get(k).partition().parts(), kept.partition().parts(), "parts of breakpoint " + k);
    }
    assertEquals(0, restarted.searches());
  }

  /**
   * Once the batch has ended, the breakpoint farthest from the one shown is looked up in the chain
   * (decision 072), not kept whole, and answers the bytes a restarted service's programme gives.
   */
  @Test
  void aFarBreakpointIsLookedUpOnceTheBatchHasEnded() throws Exception {
    AnalysisService first = AnalysisService.standard();
    AnalysisRequest request = request(21, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    AnalysisResult shown = first.answerBeforeNeighbours(request, Progress.NONE);
    List<Breakpoint> breakpoints = shown.analysis().breakpoints();
    int at = Breakpoint.indexAt(breakpoints, shown.p());
    first.buildNeighbours(request, shown).get();
    int far = at < breakpoints.size() / 2 ? breakpoints.size() - 1 : 0;
    assertTrue(Math.abs(far - at) > AnalysisService.NEIGHBOURS, "a breakpoint beyond the neighbours: " + far);
    assertFalse(breakpoints.get(far).partition().partsBuilt(), "in the chain, not kept whole");
    AnalysisRequest farRequest = request(21, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE,
        breakpoints.get(far).p());
    byte[] lookedUp = first.answerBeforeNeighbours(farRequest, Progress.NONE).json();

    AnalysisService restarted = AnalysisService.standard();
    AnalysisResult programme = restarted.answer(farRequest, Progress.NONE);
    assertEquals(0, restarted.searches());
    assertArrayEquals(programme.json(), lookedUp);
  }

  /**
   * The chain takes its programmes only while the server is idle: a batch waits after the
   * neighbours while a request of another kind is answered, ends once idle, and stops at the next
   * overview even while waiting.
   */
  @Test
  void theChainWaitsWhileTheServerIsBusy() throws Exception {
    AnalysisService service = AnalysisService.standard();
    java.util.concurrent.atomic.AtomicBoolean idle = new java.util.concurrent.atomic.AtomicBoolean(false);
    service.buildAheadOnlyWhile(idle::get);
    AnalysisRequest request = request(21, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    AnalysisResult shown = service.answerBeforeNeighbours(request, Progress.NONE);
    var batch = service.buildNeighbours(request, shown);
    Thread.sleep(500);
    assertFalse(batch.isDone(), "waits while the server is busy");
    idle.set(true);
    batch.get(30, java.util.concurrent.TimeUnit.SECONDS); // every breakpoint's parts built

    idle.set(false);
    AnalysisRequest other = request(22, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    var waiting = service.buildNeighbours(other, service.answerBeforeNeighbours(other, Progress.NONE));
    Thread.sleep(500);
    assertFalse(waiting.isDone(), "waits while the server is busy");
    service.newRequest();
    waiting.get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  /**
   * The chain's programmes run on every core and ask the gate before each node (decision 078): a
   * request that arrives during one (here the gate closed by its third node's asking) stops it,
   * the batch then waits, and once idle it runs that programme again and ends; the far breakpoint
   * then answers the bytes a restarted service's programme gives. Fails without the gate in the
   * programme: nothing asks it from the chain's pool, so it never closes.
   */
  @Test
  void aRequestStopsTheChainsProgrammeWhichRunsAgainOnceIdle() throws Exception {
    AnalysisService service = AnalysisService.standard();
    java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.AtomicInteger fromThePool = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
    service.buildAheadOnlyWhile(() -> {
      if (Thread.currentThread().getName().startsWith("ocelotl-chain") && fromThePool.incrementAndGet() == 3) {
        open.set(false); // a request arrives while the programme runs
        closed.countDown();
      }
      return open.get();
    });
    AnalysisRequest request = request(20, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN);
    AnalysisResult shown = service.answerBeforeNeighbours(request, Progress.NONE);
    List<Breakpoint> breakpoints = shown.analysis().breakpoints();
    int at = Breakpoint.indexAt(breakpoints, shown.p());
    var batch = service.buildNeighbours(request, shown);
    assertTrue(closed.await(30, java.util.concurrent.TimeUnit.SECONDS), "the programme asked the gate");
    Thread.sleep(300);
    assertFalse(batch.isDone(), "waits while the server is busy");
    int far = at < breakpoints.size() / 2 ? breakpoints.size() - 1 : 0;
    open.set(true);
    batch.get(30, java.util.concurrent.TimeUnit.SECONDS); // every breakpoint's parts built
    assertFalse(breakpoints.get(far).partition().partsBuilt(), "in the chain, not kept whole");
    AnalysisRequest farRequest = request(20, Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE,
        breakpoints.get(far).p());
    byte[] lookedUp = service.answerBeforeNeighbours(farRequest, Progress.NONE).json();
    assertArrayEquals(AnalysisService.standard().answer(farRequest, Progress.NONE).json(), lookedUp);
  }

  @Test
  void aDamagedFileIsDroppedAndTheSearchRunsAgain() throws IOException {
    AnalysisRequest request = request(27, Aggregation.SPATIAL, null, Double.NaN);
    AnalysisService first = AnalysisService.standard();
    byte[] searched = first.answer(request, Progress.NONE).json();
    Path file = breakpointFiles().filter(f -> f.getFileName().toString().startsWith("spatial-")).findFirst()
        .orElseThrow();
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 3));

    AnalysisService restarted = AnalysisService.standard();
    assertArrayEquals(searched, restarted.answer(request, Progress.NONE).json());
    assertEquals(1, restarted.searches(), "a truncated file is not an answer");
    assertEquals(bytes.length, Files.size(file), "rewritten whole");
  }

  @Test
  void writesLeaveNoTemporaryBehind() throws IOException {
    AnalysisService.standard().answer(request(29, Aggregation.TEMPORAL, ViewKind.TEMPORAL_MODE, Double.NaN),
        Progress.NONE);
    try (Stream<Path> files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      assertFalse(files.anyMatch(f -> f.getFileName().toString().startsWith(".tmp-")));
    }
  }

  private static Stream<Path> breakpointFiles() throws IOException {
    try (Stream<Path> files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      return files.filter(f -> f.toString().endsWith(BreakpointCache.SUFFIX)).toList().stream();
    }
  }

  /** Equal p, gain and loss bit for bit, and equal parts. */
  private static void assertSameBreakpoints(List<Breakpoint> expected, List<Breakpoint> actual) {
    assertEquals(expected.size(), actual.size());
    for (int k = 0; k < expected.size(); k++) {
      Breakpoint e = expected.get(k);
      Breakpoint a = actual.get(k);
      assertEquals(Double.doubleToRawLongBits(e.p()), Double.doubleToRawLongBits(a.p()), "p of breakpoint " + k);
      assertEquals(Double.doubleToRawLongBits(e.partition().gain()), Double.doubleToRawLongBits(a.partition().gain()));
      assertEquals(Double.doubleToRawLongBits(e.partition().loss()), Double.doubleToRawLongBits(a.partition().loss()));
      assertEquals(e.partition().parts(), a.partition().parts(), "parts of breakpoint " + k);
    }
  }
}
