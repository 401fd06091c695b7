package org.ocelotl.scan;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.Utilization;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.Columns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * Builds microscopic models by scanning a trace store: no cache (see {@link ModelCache}).
 *
 * <p>The scan runs one thread per processor, each over its own band of slices (a time range)
 * and the chunks that touch it, with its own columns, writing cells no other thread writes:
 * no partial models to merge, no extra memory for a 10 000-slice model, and the result does
 * not depend on the number of threads (see {@link ScanKernels}). Bands are cut where the chunk
 * list is cut in equal parts, so each thread reads about as many records.
 */
public final class ModelBuilder {
  private ModelBuilder() {}

  /**
   * Scans the trace for the model the request describes.
   *
   * @throws IllegalArgumentException for a window outside the trace, an unknown producer or
   *                                  type, a metric the trace has no records for (message for the user)
   */
  public static BuiltModel build(TraceStore store, ModelRequest request) {
    ModelPlan plan = ModelPlan.of(store, request);
    return model(plan, scan(store, plan, Runtime.getRuntime().availableProcessors(), Work.NONE), true);
  }

  /**
   * The request with its automatic depth resolved for a view of {@code rows} rows: every level
   * (0) when the model's leaves fit, else the deepest cut whose leaves fit, else depth 1. A wide
   * trace (Chrome's 1,908 async lanes) then shows its structure instead of one aggregated block.
   * Requests with a given depth come back unchanged. Costs one tree pass per level, no scan.
   */
  public static ModelRequest withDepthFor(TraceStore store, ModelRequest request, int rows) {
    return withDepthFor(store.metadata(), request, rows);
  }

  /** The same on a store's metadata alone: what an engine that reads the records elsewhere (Spark) resolves with. */
  public static ModelRequest withDepthFor(StoreMetadata m, ModelRequest request, int rows) {
    ProducerSelection producers = request.producers();
    if (producers.depth() != ProducerSelection.AUTO_DEPTH) {
      return request;
    }
    if (ModelPlan.of(m, request.withProducers(producers.withDepth(0))).leaves() <= rows) {
      return request.withProducers(producers.withDepth(0));
    }
    int chosen = 1;
    for (int depth = 2; depth < height(m); depth++) {
      if (ModelPlan.of(m, request.withProducers(producers.withDepth(depth))).leaves() > rows) {
        break;
      }
      chosen = depth;
    }
    return request.withProducers(producers.withDepth(chosen));
  }

  /**
   * The depth of the deepest producer (the root at 0): the producer tree's height, whose synthetic
   * "(self)" leaves sit no deeper than their producer's children.
   */
  private static int height(StoreMetadata m) {
    List<StoreMetadata.Producer> producers = m.producers();
    int[] depth = new int[producers.size()];
    int height = 0;
    for (StoreMetadata.Producer p : producers) {
      depth[p.id()] = p.parent() < 0 ? 0 : depthOf(producers, depth, p.parent()) + 1;
      height = Math.max(height, depth[p.id()]);
    }
    return height;
  }

  /** A producer's depth, computed on first need (a parent may be listed after its child). */
  private static int depthOf(List<StoreMetadata.Producer> producers, int[] depth, int id) {
    StoreMetadata.Producer p = producers.get(id);
    if (p.parent() < 0 || depth[id] > 0) {
      return depth[id];
    }
    depth[id] = depthOf(producers, depth, p.parent()) + 1;
    return depth[id];
  }

  static BuiltModel model(ModelPlan plan, ModelSums sums, boolean exact) {
    if (plan.metric() == Metric.UTILIZATION) { // the sums are the variables'; the model is their ratio
      MicroscopicModel model = new MicroscopicModel(plan.tree().tree(), plan.grid().slices(),
          List.of(Utilization.TYPE), Utilization.of(sums.values(), plan.tree().tree().leafCount(), plan.grid().slices(),
              plan.typeNames()));
      return new BuiltModel(model, plan.grid(), plan.metric(), plan.timeUnit(), exact,
          java.util.Collections.singletonList(null), false);
    }
    MicroscopicModel model = new MicroscopicModel(plan.tree().tree(), plan.grid().slices(), plan.typeNames(),
        sums.values());
    return new BuiltModel(model, plan.grid(), plan.metric(), plan.timeUnit(), exact, plan.typeColours(),
        plan.inclusive());
  }

  /**
   * The additive sums of the plan's model, scanned with up to {@code threads} threads (or, for a
   * state-duration model of slices many buckets wide, read from the store's Gantt summary and the
   * records at the slices' edges: {@link SummaryModel}), telling
   * {@code work} of each chunk read (of the chunks all bands read: a chunk across a band's
   * boundary is read by both) and checking it is still wanted before each.
   */
  static ModelSums scan(TraceStore store, ModelPlan plan, int threads, Work work) {
    // The one place every local build passes (the CLI's and the server's, through the cache or not):
    // a state-duration model of wide slices from the store's Gantt summary where it has one (decision 077).
    ModelSums summarised = SummaryModel.sums(store, plan, threads, work);
    return summarised != null ? summarised : records(store, plan, threads, work);
  }

  /** The plan's sums from every record of its window (SummaryModelTest's reference). */
  static ModelSums records(TraceStore store, ModelPlan plan, int threads, Work work) {
    return scan(store, plan.layout(), plan.metric(), plan.inclusive(), threads, work);
  }

  /**
   * The states' sums of a layout the caller makes (its leaves may be any grouping of the store's
   * producers, such as a Gantt chart's rows), on every core: per (leaf, slice, type) the time
   * inside the slice, the states begun in it, and the states crossing into it (see
   * {@link ScanKernels#stateDurations}), the three arrays of the state-average metric. Inclusive
   * time: a row summarises the states drawn in it, each with its whole length.
   */
  public static double[][] stateSums(TraceStore store, ModelLayout layout) {
    return scan(store, layout, Metric.STATE_AVERAGE, true, Runtime.getRuntime().availableProcessors(), Work.NONE)
        .arrays();
  }

  private static ModelSums scan(TraceStore store, ModelLayout layout, Metric metric, boolean inclusive, int threads,
      Work work) {
    SliceGrid grid = layout.grid();
    ModelSums sums = ModelSums.zero(metric, grid, layout.leaves(), layout.types());
    EventCategory category = metric.category();
    List<Chunk> chunks = store.chunks(category, grid.start(), grid.end());
    int[] bands = bands(grid, chunks, threads);
    long total = 0;
    for (int b = 0; b + 1 < bands.length; b++) {
      total += store.chunks(category, grid.boundary(bands[b]), grid.boundary(bands[b + 1])).size();
    }
    Bands.Progress read = new Bands.Progress(work, new AtomicLong(), total);
    Bands.run(bands.length - 1, "ocelotl-scan-",
        b -> scanBand(store, layout, sums, inclusive, bands[b], bands[b + 1], read));
    return sums;
  }

  /**
   * Slice indexes 0 = b0 &lt; b1 &lt; … &lt; bk = slices cutting the grid into at most
   * {@code threads} bands, each starting at the slice where an equal share of the chunks begins.
   */
  static int[] bands(SliceGrid grid, List<Chunk> chunks, int threads) {
    int count = Math.max(1, Math.min(threads, Math.min(grid.slices(), chunks.size())));
    int[] cuts = new int[count + 1];
    int n = 1;
    for (int b = 1; b < count; b++) {
      double time = chunks.get(b * chunks.size() / count).minTime();
      int slice = time <= grid.start() ? 0 : time >= grid.end() ? grid.slices() : grid.sliceOf(time);
      if (slice > cuts[n - 1] && slice < grid.slices()) {
        cuts[n++] = slice;
      }
    }
    cuts[n++] = grid.slices();
    return java.util.Arrays.copyOf(cuts, n);
  }

  /** The scan's progress: chunks read of all bands, told to the work before each next chunk. */

  private static void scanBand(TraceStore store, ModelLayout layout, ModelSums sums, boolean inclusive, int lo, int hi,
      Bands.Progress read) {
    SliceGrid grid = layout.grid();
    EventCategory category = sums.metric().category();
    Columns columns = store.columns(category);
    for (Chunk chunk : store.chunks(category, grid.boundary(lo), grid.boundary(hi))) {
      read.next();
      store.read(chunk, columns);
      sums.add(layout, inclusive, lo, hi, columns);
    }
  }
}
