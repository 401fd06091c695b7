package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * A state-duration model from the Gantt summary and the records at its slices' edges
 * ({@link SummaryModel}, decision 077) against the records' model ({@link ModelBuilder#records}),
 * cell by cell, on seeded stores of 16 producers (4 groups of 4), 3 state types, about 800 states
 * each, in chunks of 16 records, with a summary of 2¹⁰ buckets:
 * <ul>
 *   <li>times of any value, states from a tenth of a bucket to ten buckets long, a third of them
 *       with states nested in them (depth 1): every cell within (n + b) · 2⁻⁵² of its value, n the
 *       store's states and b the finest buckets. Both cells are sums of the same nonnegative
 *       pieces of time except that the summary's are also cut at bucket edges; each cut and each
 *       addition rounds by at most 2⁻⁵³ relative, and a cell has fewer pieces than n + b;
 *   <li>times on a grid of 2⁻¹⁰ over [0, 8) and window edges on one too: every piece and every
 *       partial sum is a float exactly, so every cell is equal, whether or not the slices' edges are
 *       bucket edges.
 * </ul>
 * 300 seeded windows each (1 to 60 slices of at least two buckets, random depth cut, type filter
 * and time), and the cases where the records are read instead.
 */
class SummaryModelTest {
  static final long SEED = 20261130;
  static final int PRODUCERS = 16;
  static final int PER_PRODUCER = 800;
  static final int FINEST = 10;
  @TempDir static Path dir;
  static TraceStore nested;
  static TraceStore flat;
  static TraceStore dyadic;

  @BeforeAll
  static void stores() throws IOException {
    nested = store(dir.resolve("nested"), new SplittableRandom(SEED), true, false);
    flat = store(dir.resolve("flat"), new SplittableRandom(SEED + 1), false, false);
    dyadic = store(dir.resolve("dyadic"), new SplittableRandom(SEED + 2), false, true);
    for (TraceStore store : List.of(nested, flat, dyadic)) {
      GanttSummary.write(store, FINEST);
    }
  }

  /**
   * Each producer's states back to back with gaps; in a nested store a third of them hold one
   * state of another type (depth 1). Dyadic: every time a multiple of 2⁻¹⁰, the trace [0, 8).
   */
  static TraceStore store(Path at, SplittableRandom random, boolean nesting, boolean dyadic) throws IOException {
    java.nio.file.Files.createDirectories(at);
    StoreWriter writer = new StoreWriter(at, 16);
    writer.producer(0, "root", "ROOT", -1, 0);
    for (int g = 0; g < 4; g++) {
      writer.producer(1 + g, "group-" + g, "GROUP", 0, 0);
    }
    for (int p = 0; p < PRODUCERS; p++) {
      writer.producer(5 + p, "rank-" + p, "RANK", 1 + p / 4, 0);
    }
    for (int u = 0; u < 3; u++) {
      writer.eventType(u, "type-" + u, EventCategory.STATE, "STATE", u + " 0 0");
    }
    double bucket = 8.0 / (1 << FINEST);
    double end = 0;
    List<double[]> states = new java.util.ArrayList<>(); // producer, type, start, end, depth, outer
    for (int p = 0; p < PRODUCERS; p++) {
      double clock = random.nextDouble() * bucket;
      for (int i = 0; i < PER_PRODUCER; i++) {
        double length = bucket * (0.1 + (random.nextInt(10) == 0 ? 10 : 1.9) * random.nextDouble());
        double start = clock + bucket * 0.5 * random.nextDouble();
        double stop = start + length;
        if (dyadic) {
          start = Math.floor(start * 1024) / 1024;
          stop = Math.max(start + 1.0 / 1024, Math.floor(stop * 1024) / 1024);
        }
        if (stop >= 7.9) {
          break;
        }
        int type = random.nextInt(3);
        states.add(new double[] {5 + p, type, start, stop, 0, -1});
        if (nesting && random.nextInt(3) == 0) {
          double a = start + (stop - start) * random.nextDouble() * 0.5;
          double b = a + (stop - a) * random.nextDouble();
          states.add(new double[] {5 + p, (type + 1) % 3, a, b, 1, type});
        }
        clock = stop;
        end = Math.max(end, stop);
      }
    }
    // In time order, as a tracer emits them: a chunk then holds a stretch of time of every producer.
    states.sort(java.util.Comparator.comparingDouble(r -> r[2]));
    for (double[] r : states) {
      writer.state((int) r[0], (int) r[1], r[2], r[3], (int) r[4], (int) r[5]);
    }
    writer.end(0, dyadic ? 8 : end, "s");
    writer.finish(new StoreMetadata.Source(at.resolve("summary-model.trace").toString(), 1, SEED, "seed", "synthetic"));
    return TraceStore.open(at);
  }

  @Test
  void theSummarySaysWhetherStatesNest() throws IOException {
    assertTrue(GanttSummary.open(nested).orElseThrow().nested());
    assertFalse(GanttSummary.open(flat).orElseThrow().nested());
    assertFalse(GanttSummary.open(dyadic).orElseThrow().nested());
  }

  @Test
  void cellsAreTheRecordsToRoundingAtAnyWindow() throws IOException {
    for (TraceStore store : List.of(nested, flat)) {
      long states = store.metadata().count(EventCategory.STATE);
      double bound = (states + (1 << FINEST)) * Math.ulp(1.0);
      double worst = compare(store, new SplittableRandom(SEED + 3), false, bound);
      System.out.printf("SummaryModelTest %s: largest relative difference %.3g (bound %.3g)%n",
          store.directory().getFileName(), worst, bound);
    }
  }

  @Test
  void cellsAreTheRecordsExactlyWhenTimesAreExactFloats() throws IOException {
    assertEquals(0.0, compare(dyadic, new SplittableRandom(SEED + 4), true, 0));
  }

  /** 300 seeded windows; returns the largest relative difference of a cell. */
  private static double compare(TraceStore store, SplittableRandom random, boolean dyadicWindows, double bound)
      throws IOException {
    StoreMetadata m = store.metadata();
    GanttSummary summary = GanttSummary.open(store).orElseThrow();
    double bucket = summary.bucketWidth(FINEST);
    double worst = 0;
    int summarised = 0;
    for (int w = 0; w < 300; w++) {
      int slices = 1 + random.nextInt(60);
      double from;
      double to;
      if (dyadicWindows) { // edges on multiples of 2⁻¹⁰, slices a whole number of 2⁻¹⁰ (at least two buckets)
        int perSlice = 16 + random.nextInt(8 * 1024 / slices - 16 + 1);
        if (random.nextBoolean()) {
          perSlice -= perSlice % 8; // slice edges on bucket edges
        }
        int first = random.nextInt(8 * 1024 - slices * perSlice + 1);
        if (random.nextBoolean()) {
          first -= first % 8;
        }
        from = first / 1024.0;
        to = (first + slices * perSlice) / 1024.0;
      } else {
        double width = Math.min(m.end() - m.start(), slices * bucket * (2 + random.nextDouble() * 40));
        from = m.start() + random.nextDouble() * (m.end() - m.start() - width);
        to = random.nextInt(8) == 0 ? m.windowEnd() : from + width;
        from = random.nextInt(8) == 0 ? m.start() : from;
      }
      boolean inclusive = random.nextBoolean();
      ProducerSelection producers = ProducerSelection.ALL.withDepth(random.nextInt(3));
      List<String> types = random.nextInt(3) == 0 ? List.of("type-" + random.nextInt(3)) : List.of();
      ModelRequest request = new ModelRequest(Metric.STATE_DURATION, from, to, slices, producers, types, true,
          inclusive);
      ModelPlan plan = ModelPlan.of(store, request);
      ModelSums records = ModelBuilder.records(store, plan, 2, Work.NONE);
      ModelSums fromSummary = SummaryModel.sums(store, plan, 1 + random.nextInt(3), Work.NONE);
      String what = store.directory().getFileName() + " [" + from + ", " + to + ") × " + slices + " " + request.time()
          + " depth " + producers.depth() + " " + types;
      if (summary.nested() && !inclusive) {
        assertNull(fromSummary, what + ": the summary's time is inclusive");
        continue;
      }
      if (fromSummary == null) {
        continue; // slices too narrow for the chunks the edges read: the records, as before
      }
      summarised++;
      double[] a = records.arrays()[ModelSums.SUMS];
      double[] b = fromSummary.arrays()[ModelSums.SUMS];
      assertEquals(a.length, b.length);
      for (int i = 0; i < a.length; i++) {
        double scale = Math.max(Math.abs(a[i]), Math.abs(b[i]));
        double difference = Math.abs(a[i] - b[i]);
        if (difference > bound * scale) {
          throw new AssertionError(what + ": cell " + i + " " + b[i] + " from the summary, " + a[i] + " from the records");
        }
        worst = Math.max(worst, scale == 0 ? 0 : difference / scale);
      }
      assertEquals(ModelBuilder.model(plan, records.copy(), true).model().values().length,
          ModelBuilder.model(plan, fromSummary.copy(), true).model().values().length);
    }
    // Most windows are wide enough for the summary (else this test would test little).
    assertTrue(summarised >= 100, "only " + summarised + " of 300 windows from the summary");
    System.out.printf("SummaryModelTest %s: %d of 300 windows from the summary%n", store.directory().getFileName(),
        summarised);
    return worst;
  }

  @Test
  void otherModelsReadTheRecords() throws IOException {
    double from = 1;
    double to = 7;
    ModelRequest duration = new ModelRequest(Metric.STATE_DURATION, from, to, 10, ProducerSelection.ALL, List.of(), true,
        true);
    assertNotNull(SummaryModel.sums(flat, ModelPlan.of(flat, duration), 2, Work.NONE));
    ModelRequest average = new ModelRequest(Metric.STATE_AVERAGE, from, to, 10, ProducerSelection.ALL, List.of(), true,
        true);
    assertNull(SummaryModel.sums(flat, ModelPlan.of(flat, average), 2, Work.NONE), "no crossings in the summary");
    // Slices of one bucket: the edges would read as many chunks as the window.
    double bucket = GanttSummary.open(flat).orElseThrow().bucketWidth(FINEST);
    assertNull(SummaryModel.sums(flat, ModelPlan.of(flat, duration.withWindow(from, from + 40 * bucket).withSlices(40)),
        2, Work.NONE));
    assertNull(SummaryModel.sums(nested, ModelPlan.of(nested, duration.withInclusive(false)), 2, Work.NONE));
  }
}
