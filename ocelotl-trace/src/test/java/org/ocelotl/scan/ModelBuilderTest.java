package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.Metric;
import org.ocelotl.store.TraceStore;

class ModelBuilderTest {
  @TempDir Path tmp;
  TraceStore store;

  @BeforeEach
  void writeStore() throws IOException {
    store = SyntheticStore.write(tmp.resolve("store"), 3, 12, 2, 3, 20_000, 500);
  }

  @Test
  void theResultDoesNotDependOnTheNumberOfThreads() {
    for (Metric metric : List.of(Metric.STATE_DURATION, Metric.STATE_AVERAGE, Metric.EVENT_COUNT, Metric.VARIABLE_MEAN)) {
      for (int slices : new int[] {1, 3, 100, 2000}) {
        ModelPlan plan = ModelPlan.of(store, ModelRequest.of(metric, slices).withWindow(10.3, 1500.7));
        double[] one = ModelBuilder.model(plan, ModelBuilder.scan(store, plan, 1, Work.NONE), true).model().values();
        for (int threads : new int[] {2, 3, 8}) {
          double[] many = ModelBuilder.model(plan, ModelBuilder.scan(store, plan, threads, Work.NONE), true).model().values();
          assertArrayEquals(one, many, metric + " N=" + slices + " threads=" + threads);
        }
      }
    }
  }

  /** What a progress report and a cancellation rely on: every chunk told once, a check before each. */
  @Test
  void theScanTellsEachChunkAndStopsWhenNoLongerWanted() {
    ModelPlan plan = ModelPlan.of(store, ModelRequest.of(Metric.STATE_DURATION, 100));
    int chunks = store.chunks(org.ocelotl.model.EventCategory.STATE, plan.grid().start(), plan.grid().end()).size();
    for (int threads : new int[] {1, 3}) {
      java.util.concurrent.ConcurrentLinkedQueue<long[]> told = new java.util.concurrent.ConcurrentLinkedQueue<>();
      ModelBuilder.scan(store, plan, threads, new Work() {
        @Override
        public void advanced(long done, long total) {
          told.add(new long[] {done, total});
        }
      });
      long total = told.peek()[1];
      assertEquals(true, total >= chunks, "a chunk across bands is read by each: " + total + " ≥ " + chunks);
      assertEquals(total, told.size(), "threads=" + threads);
      assertEquals(java.util.stream.LongStream.rangeClosed(1, total).boxed().toList(),
          told.stream().map(t -> t[0]).sorted().toList(), "each chunk counted once");

      java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
      RuntimeException cancelled = new RuntimeException("cancelled");
      RuntimeException thrown = assertThrows(RuntimeException.class, () -> ModelBuilder.scan(store, plan, threads,
          new Work() {
            @Override
            public void check() {
              if (checks.incrementAndGet() > 2) {
                throw cancelled;
              }
            }
          }));
      assertEquals(cancelled, thrown);
      assertEquals(true, checks.get() <= 2 + threads, "stopped within a chunk per thread: " + checks.get() + " checks");
    }
  }

  @Test
  void bandsCutWhereChunksAreSharedOut() {
    SliceGrid grid = new SliceGrid(0, 100, 10);
    List<org.ocelotl.store.Chunk> chunks = store.chunks(org.ocelotl.model.EventCategory.STATE, 0, 100);
    int[] bands = ModelBuilder.bands(grid, chunks, 2);
    assertEquals(0, bands[0]);
    assertEquals(10, bands[bands.length - 1]);
    for (int b = 1; b < bands.length; b++) {
      assertEquals(true, bands[b] > bands[b - 1], java.util.Arrays.toString(bands));
    }
    assertArrayEquals(new int[] {0, 1}, ModelBuilder.bands(new SliceGrid(0, 100, 1), chunks, 4), "one slice, one band");
    assertArrayEquals(new int[] {0, 10}, ModelBuilder.bands(grid, List.of(), 4), "no chunk, one band");
  }

  private String error(ModelRequest request) {
    return assertThrows(IllegalArgumentException.class, () -> ModelBuilder.build(store, request)).getMessage();
  }

  @Test
  void badRequestsAreRefusedWithAClearMessage() {
    ModelRequest ok = ModelRequest.of(Metric.STATE_DURATION, 10);
    double end = store.metadata().end();
    assertEquals("the window [5, 5) s is empty: it needs from < to", error(ok.withWindow(5, 5)));
    assertEquals("the window [" + (end + 1) + ", " + (end + 2) + ") s lies outside the trace, which spans [0, "
        + end + "] s", error(ok.withWindow(end + 1, end + 2)));
    assertEquals("the window [-5, 0) s lies outside the trace, which spans [0, " + end + "] s", error(ok.withWindow(-5, 0)));
    assertEquals("the trace synthetic.trace has no links: the link-count metric needs them",
        error(ModelRequest.of(Metric.LINK_COUNT, 10)));
    assertEquals("unknown producer 'nobody'", error(ok.withProducers(new ProducerSelection(List.of("nobody"), List.of(), 0))));
    assertEquals("unknown state type 'PMPI_Recv'; the trace's state types with records are: STATE (state-0, state-1, state-2)",
        error(ok.withTypes(List.of("state-1", "PMPI_Recv"))));
    assertEquals("no selected producer has states in the trace synthetic.trace",
        error(ok.withProducers(new ProducerSelection(List.of("group-0"), List.of("group-0"), 0))));
    assertEquals("the number of slices must be between 1 and 10000, got 10001",
        assertThrows(IllegalArgumentException.class, () -> ok.withSlices(10_001)).getMessage());
    assertEquals("unknown metric 'durations'; expected one of state-duration, state-average, event-count, variable-mean, utilization, link-count, link-volume",
        assertThrows(IllegalArgumentException.class, () -> Metrics.parse("durations")).getMessage());
  }

  @Test
  void aModelTooLargeForMemoryIsRefusedBeforeAllocation() {
    long max = Runtime.getRuntime().maxMemory() >> 20;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ModelPlan.checkSize(Metric.STATE_AVERAGE, 100_000, 10_000, 300));
    assertEquals("a model of 100,000 producers × 10,000 slices × 300 types needs 9,155,273 MB, more than the "
        + String.format("%,d", max) + " MB this JVM may use: ask for fewer slices, a depth cut (--depth) or fewer types",
        e.getMessage());
    ModelPlan.checkSize(Metric.STATE_DURATION, 700, 1000, 10);
  }

  @Test
  void typesKeepStoreOrderAndUnitsFollowTheMetric() {
    BuiltModel model = ModelBuilder.build(store, ModelRequest.of(Metric.STATE_DURATION, 4).withTypes(List.of("state-2", "state-0")));
    assertEquals(List.of("state-0", "state-2"), model.model().types());
    assertEquals("s", model.unit());
    assertEquals(List.of("0 0 0", "2 0 0"), model.typeColours());
    assertEquals("events", ModelBuilder.build(store, ModelRequest.of(Metric.EVENT_COUNT, 4)).unit());
    assertEquals(12, model.model().leaves());
  }
}
