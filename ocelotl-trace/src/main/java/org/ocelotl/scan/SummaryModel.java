package org.ocelotl.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.Columns;
import org.ocelotl.store.TraceStore;

/**
 * A state-duration model's sums from the store's {@link GanttSummary} (decision 077): each slice's
 * time per (leaf, type) is the time of the whole finest buckets inside it, read as the fewest
 * aligned buckets of any level (at most two per level), plus the kernel's time of the records in
 * the partial buckets at its two edges, scanned from the few chunks around each edge. The cells are
 * then the records' sums added in another order: equal to them to rounding (every piece of a state's
 * time is the kernel's own subtraction, cut at bucket edges instead of only at slice edges).
 *
 * <p>Used only where it reads less: the summary exists and can say the model's time (inclusive, or
 * exclusive on a store without nested states), every slice holds at least one bucket edge, and the
 * chunks the edges need are fewer than half those of the window (the summary's reads and the
 * edges' two kernel passes are the rest). Else null: the records' scan.
 */
final class SummaryModel {
  private SummaryModel() {}

  /** The plan's sums from the summary, or null when the records are to be scanned. */
  static ModelSums sums(TraceStore store, ModelPlan plan, int threads, Work work) {
    if (plan.metric() != Metric.STATE_DURATION) {
      return null;
    }
    GanttSummary summary;
    try {
      summary = GanttSummary.open(store).orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + store.directory().resolve(GanttSummary.FILE), e);
    }
    if (summary == null || (summary.nested() && !plan.inclusive())) {
      return null;
    }
    SliceGrid grid = plan.grid();
    int slices = grid.slices();
    int finest = summary.finest();
    long n = 1L << finest;
    // Per slice, its whole finest buckets [first, last): the first edge at or after its start,
    // the last at or before its end.
    long[] first = new long[slices];
    long[] last = new long[slices];
    for (int k = 0; k < slices; k++) {
      first[k] = atOrAfter(summary, finest, n, grid.boundary(k));
      last[k] = atOrBefore(summary, finest, n, grid.boundary(k + 1));
      if (first[k] > last[k]) {
        return null; // a slice inside one bucket
      }
    }
    // Edge k: the records of [lo[k], boundary(k)) go to slice k − 1, those of [boundary(k), hi[k]) to slice k.
    double[] lo = new double[slices + 1];
    double[] hi = new double[slices + 1];
    long edgeChunks = 0;
    for (int k = 0; k <= slices; k++) {
      lo[k] = k == 0 ? grid.start() : summary.edge(finest, last[k - 1]);
      hi[k] = k == slices ? grid.end() : summary.edge(finest, first[k]);
      edgeChunks += hi[k] > lo[k] ? store.chunks(EventCategory.STATE, lo[k], hi[k]).size() : 0;
    }
    if (2 * edgeChunks >= store.chunks(EventCategory.STATE, grid.start(), grid.end()).size()) {
      return null;
    }
    ModelSums sums = ModelSums.zero(plan.metric(), grid, plan.leaves(), plan.types());
    wholeBuckets(summary, plan, first, last, sums.arrays()[ModelSums.SUMS]);
    edges(store, plan, lo, hi, threads, new Bands.Progress(work, new AtomicLong(), edgeChunks), sums);
    return sums;
  }

  /** The smallest j with edge(j) ≥ t (n when t lies past the last edge but one). */
  private static long atOrAfter(GanttSummary summary, int level, long n, double t) {
    long j = Math.max(0, Math.min(n, (long) Math.ceil((t - summary.edge(level, 0)) / summary.bucketWidth(level))));
    while (j < n && summary.edge(level, j) < t) {
      j++;
    }
    while (j > 0 && summary.edge(level, j - 1) >= t) {
      j--;
    }
    return j;
  }

  /** The largest j with edge(j) ≤ t. */
  private static long atOrBefore(GanttSummary summary, int level, long n, double t) {
    long j = Math.max(0, Math.min(n, (long) Math.floor((t - summary.edge(level, 0)) / summary.bucketWidth(level))));
    while (j > 0 && summary.edge(level, j) > t) {
      j--;
    }
    while (j < n && summary.edge(level, j + 1) <= t) {
      j++;
    }
    return j;
  }

  /**
   * Adds each slice's whole buckets [first, last) of the finest level, as the aligned buckets of the
   * coarsest levels that tile them, producer after producer in store order: each leaf's cells get the
   * same additions in the same order whichever thread sums them (leaves in parallel).
   */
  private static void wholeBuckets(GanttSummary summary, ModelPlan plan, long[] first, long[] last, double[] cells) {
    int finest = summary.finest();
    int slices = first.length;
    List<int[]> levels = new ArrayList<>();
    List<long[]> buckets = new ArrayList<>();
    for (int k = 0; k < slices; k++) {
      List<Integer> l = new ArrayList<>();
      List<Long> b = new ArrayList<>();
      for (long j = first[k]; j < last[k]; ) {
        long size = j == 0 ? 1L << finest : Long.lowestOneBit(j);
        while (size > last[k] - j) {
          size >>= 1;
        }
        int level = finest - Long.numberOfTrailingZeros(size);
        l.add(level);
        b.add(j >> (finest - level));
        j += size;
      }
      levels.add(l.stream().mapToInt(Integer::intValue).toArray());
      buckets.add(b.stream().mapToLong(Long::longValue).toArray());
    }
    int[] slotOfProducer = summary.slotOfProducer();
    int[] slotOfType = summary.slotOfType();
    int[] leafOf = plan.tree().leafOf();
    int[] typeOf = plan.typeOf();
    int types = plan.types();
    // The summarised types the model keeps, and their model column.
    int[] kept = IntStream.range(0, typeOf.length).filter(t -> typeOf[t] >= 0 && slotOfType[t] >= 0).toArray();
    int leaves = plan.leaves();
    List<List<Integer>> producersOf = new ArrayList<>();
    for (int leaf = 0; leaf < leaves; leaf++) {
      producersOf.add(new ArrayList<>());
    }
    for (int p = 0; p < leafOf.length; p++) {
      if (leafOf[p] >= 0 && slotOfProducer[p] >= 0) {
        producersOf.get(leafOf[p]).add(p);
      }
    }
    IntStream.range(0, leaves).parallel().forEach(leaf -> {
      for (int p : producersOf.get(leaf)) {
        int slot = slotOfProducer[p];
        for (int k = 0; k < slices; k++) {
          int at = (leaf * slices + k) * types;
          int[] l = levels.get(k);
          long[] b = buckets.get(k);
          for (int i = 0; i < l.length; i++) {
            for (int t : kept) {
              cells[at + typeOf[t]] += summary.time(l[i], slot, b[i], slotOfType[t]);
            }
          }
        }
      }
    });
  }

  /**
   * Adds the records of the partial buckets at every slice edge, by the kernel over one-slice grids
   * [lo[k], boundary(k)) and [boundary(k), hi[k]) from the chunks around edge k. The slices are cut
   * in bands, one thread each: a thread owns its slices' cells (an edge between two bands is read by
   * both, each taking its side), and each cell gets its right-hand part then its left-hand part
   * whatever the bands, so the result does not depend on the number of threads.
   */
  private static void edges(TraceStore store, ModelPlan plan, double[] lo, double[] hi, int threads, Bands.Progress progress,
      ModelSums sums) {
    int slices = plan.grid().slices();
    int count = Math.max(1, Math.min(threads, slices));
    Bands.run(count, "ocelotl-summary-edges-",
        b -> band(store, plan, lo, hi, b * slices / count, (b + 1) * slices / count, progress, sums));
  }

  /** The edges' parts of the slices [from, to): edges from … to, the outer two on their inner side only. */
  private static void band(TraceStore store, ModelPlan plan, double[] lo, double[] hi, int from, int to,
      Bands.Progress progress, ModelSums sums) {
    SliceGrid grid = plan.grid();
    int slices = grid.slices();
    int leaves = plan.leaves();
    int types = plan.types();
    double[] cells = sums.arrays()[ModelSums.SUMS];
    Columns columns = store.columns(EventCategory.STATE);
    for (int k = from; k <= to; k++) {
      double edge = grid.boundary(k);
      // Slice k − 1's part (none for the band's first edge, whose left is another band's) and slice k's.
      ModelSums left = k > from && lo[k] < edge ? part(plan, lo[k], edge) : null;
      ModelSums right = k < to && edge < hi[k] ? part(plan, edge, hi[k]) : null;
      if (left == null && right == null) {
        continue;
      }
      double a = left != null ? lo[k] : edge;
      double z = right != null ? hi[k] : edge;
      ModelLayout leftLayout = left == null ? null : layout(plan, left.grid());
      ModelLayout rightLayout = right == null ? null : layout(plan, right.grid());
      for (Chunk chunk : store.chunks(EventCategory.STATE, a, z)) {
        progress.next();
        store.read(chunk, columns);
        if (left != null) {
          left.add(leftLayout, plan.inclusive(), 0, 1, columns);
        }
        if (right != null) {
          right.add(rightLayout, plan.inclusive(), 0, 1, columns);
        }
      }
      for (int leaf = 0; leaf < leaves; leaf++) {
        for (int u = 0; u < types; u++) {
          if (left != null) {
            cells[(leaf * slices + k - 1) * types + u] += left.arrays()[ModelSums.SUMS][leaf * types + u];
          }
          if (right != null) {
            cells[(leaf * slices + k) * types + u] += right.arrays()[ModelSums.SUMS][leaf * types + u];
          }
        }
      }
    }
  }

  private static ModelSums part(ModelPlan plan, double from, double to) {
    return ModelSums.zero(plan.metric(), new SliceGrid(from, to, 1), plan.leaves(), plan.types());
  }

  private static ModelLayout layout(ModelPlan plan, SliceGrid grid) {
    return new ModelLayout(plan.tree().leafOf(), plan.typeOf(), plan.leaves(), plan.types(), grid);
  }
}
