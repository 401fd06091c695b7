package org.ocelotl.scan;

import org.ocelotl.aggregation.Work;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The scan benchmark (not a test; run by bench/scan.sh): states/s of state-duration scans for
 * N = 100, 1000, 10 000, the first scan after import ("cold": fresh JIT, freshly mapped
 * chunks), and the median and the best of the next ones ("warm": on a machine shared with
 * other work the best is what the code does, the median what one saw); then model cache
 * rebuilds.
 *
 * <pre>
 * ScanBench synthetic DIR [STATES]   writes a generated store: 700 leaves, 10 types, 50 M states
 * ScanBench store DIR                scans a store (run in a new JVM after "synthetic")
 * ScanBench trace FILE WORKSPACE     scans a real trace, imported into WORKSPACE first if needed
 * </pre>
 */
public final class ScanBench {
  private static final int[] SLICES = {100, 1000, 10_000};
  private static final int WARM_RUNS = 5;

  private ScanBench() {}

  public static void main(String[] args) throws IOException {
    TraceStore store;
    if (args[0].equals("synthetic")) {
      long states = args.length > 2 ? Long.parseLong(args[2]) : 50_000_000L;
      Path dir = Path.of(args[1]);
      deleteTree(dir);
      long t = System.nanoTime();
      store = SyntheticStore.write(dir, 42, 700, 7, 10, states, 1 << 16, false);
      System.out.printf("synthetic store: %,d states, 700 leaves, 10 types, written in %.1f s%n",
          store.metadata().count(EventCategory.STATE), (System.nanoTime() - t) / 1e9);
      return;
    } else if (args[0].equals("store")) {
      store = TraceStore.open(Path.of(args[1]));
      System.out.printf("%s: %,d states%n", args[1], store.metadata().count(EventCategory.STATE));
    } else {
      long t = System.nanoTime();
      store = Workspace.open(Path.of(args[2])).store(Path.of(args[1]), ImportOptions.DEFAULT, ImportProgress.NONE);
      System.out.printf("%s: %,d states, %,d producers, imported (or reused) in %.1f s%n", store.metadata().name(),
          store.metadata().count(EventCategory.STATE), store.metadata().producers().size(),
          (System.nanoTime() - t) / 1e9);
    }
    deleteTree(store.directory().resolve(ModelCache.DIRECTORY));
    long states = store.metadata().count(EventCategory.STATE);
    int threads = Runtime.getRuntime().availableProcessors();
    System.out.printf("%d threads; state-duration over the whole trace%n", threads);
    System.out.printf("%8s %10s %14s %12s %14s %10s %14s%n", "N", "cold ms", "cold states/s", "median ms",
        "median st/s", "best ms", "best states/s");
    for (int n : SLICES) {
      ModelPlan plan = ModelPlan.of(store, ModelRequest.of(Metric.STATE_DURATION, n));
      double cold = time(() -> ModelBuilder.scan(store, plan, threads, Work.NONE));
      double[] warm = new double[WARM_RUNS];
      for (int r = 0; r < WARM_RUNS; r++) {
        warm[r] = time(() -> ModelBuilder.scan(store, plan, threads, Work.NONE));
      }
      Arrays.sort(warm);
      double median = warm[WARM_RUNS / 2];
      System.out.printf("%8d %10.0f %14.3g %12.0f %14.3g %10.0f %14.3g%n", n, cold * 1e3, states / cold,
          median * 1e3, states / median, warm[0] * 1e3, states / warm[0]);
    }
    ModelPlan single = ModelPlan.of(store, ModelRequest.of(Metric.STATE_DURATION, 1000));
    double one = median(() -> ModelBuilder.scan(store, single, 1, Work.NONE));
    System.out.printf("N = 1000 on one thread: %.0f ms, %.3g states/s%n", one * 1e3, states / one);
    cacheRebuilds(store);
  }

  private static void cacheRebuilds(TraceStore store) throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    ModelRequest fine = ModelRequest.of(Metric.STATE_DURATION, 1000);
    double scan = time(() -> cache.build(store, fine));
    double t0 = store.metadata().start();
    double span = store.metadata().end() - t0;
    BuiltModel built = cache.build(store, fine);
    System.out.printf("model cache (%d leaves × %d types): scan + write N = 1000: %.0f ms; hit: %.1f ms%n",
        built.model().leaves(), built.model().typeCount(), scan * 1e3, median(() -> cache.build(store, fine)) * 1e3);
    List<ModelRequest> rebuilds = List.of(ModelRequest.of(Metric.STATE_DURATION, 100),
        ModelRequest.of(Metric.STATE_DURATION, 100).withWindow(t0 + 0.25 * span, t0 + 0.75 * span),
        ModelRequest.of(Metric.STATE_DURATION, 50).withWindow(t0 + 0.1234 * span, t0 + 0.9 * span));
    for (ModelRequest request : rebuilds) {
      long scans = cache.scans();
      BuiltModel rebuilt = cache.build(store, request);
      if (cache.scans() != scans) {
        throw new IllegalStateException("expected a rebuild from the cache for " + request);
      }
      System.out.printf("  rebuild N = %d of [%.4g, %.4g): %.1f ms (%s)%n", request.slices(), rebuilt.grid().start(),
          rebuilt.grid().end(), median(() -> cache.build(store, request)) * 1e3, rebuilt.exact() ? "exact" : "approximate");
    }
  }

  interface Run {
    Object run() throws IOException;
  }

  private static double time(Run run) throws IOException {
    long t = System.nanoTime();
    run.run();
    return (System.nanoTime() - t) / 1e9;
  }

  private static double median(Run run) throws IOException {
    double[] times = new double[WARM_RUNS];
    for (int r = 0; r < WARM_RUNS; r++) {
      times[r] = time(run);
    }
    Arrays.sort(times);
    return times[WARM_RUNS / 2];
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
