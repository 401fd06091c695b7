package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * Exclusive and inclusive state time against a brute force that knows nothing of the kernel:
 * seeded random stacks of nested states per producer, written as Pajé and OTF2 importers write
 * them (a state when it ends, so a long outer state lands in a later chunk than the states in
 * it), in tiny chunks; the oracle walks time in steps of 1/2 and gives each step to the innermost
 * state open there (exclusive) or to every state open there (inclusive). Times are integers and
 * slice boundaries multiples of 1/2, so every sum is exact and the comparison is bit for bit, for
 * every band split of the scan, with type filters (a filtered nested state still leaves its
 * outer state), and through the model cache (the two times are two cached models).
 */
class ExclusiveTimeTest {
  private static final int TYPES = 4;
  private static final double HORIZON = 48;

  /** A state as the oracle sees it. */
  private record State(int producer, int type, double start, double end, int depth, int outer) {}

  @Test
  void modelsEqualTheInnermostStateSweep(@TempDir Path dir) throws IOException {
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      int producers = 2 + random.nextInt(3);
      List<State> states = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        nest(random, 1 + p, 0, HORIZON, 0, -1, states);
      }
      // As an importer completes them: by end, the inner state first on equal ends.
      states.sort(Comparator.comparingDouble(State::end).thenComparing(Comparator.comparingInt(State::depth).reversed()));
      TraceStore store = write(dir.resolve("s" + seed), producers, states, 2 + random.nextInt(6));
      double from = random.nextInt(12);
      int slices = 1 + random.nextInt(24);
      double width = random.nextBoolean() ? 1 : 0.5 * (1 + random.nextInt(3));
      slices = Math.min(slices, (int) ((HORIZON - from) / width));
      double to = from + slices * width;
      List<String> kept = new ArrayList<>();
      for (int u = 0; u < TYPES; u++) {
        if (random.nextInt(4) != 0) {
          kept.add("s" + u);
        }
      }
      if (kept.isEmpty()) {
        kept.add("s0");
      }
      for (boolean inclusive : new boolean[] {false, true}) {
        ModelRequest request = new ModelRequest(Metric.STATE_DURATION, from, to, slices, ProducerSelection.ALL,
            kept, true, inclusive);
        ModelPlan plan = ModelPlan.of(store, request);
        double[] expected = oracle(states, plan, inclusive);
        String what = "seed " + seed + (inclusive ? " inclusive" : " exclusive") + ", window [" + from + ", " + to
            + ") in " + slices + ", types " + kept;
        for (int threads = 1; threads <= 4; threads++) {
          double[] built = ModelBuilder.model(plan, ModelBuilder.scan(store, plan, threads, Work.NONE), true)
              .model().values();
          assertArrayEquals(expected, built, what + ", " + threads + " bands");
        }
        ModelCache cache = new ModelCache(1L << 30);
        double[] cached = cache.build(store, request).model().values();
        assertArrayEquals(expected, cached, what + ", through the cache");
      }
    }
  }

  @Test
  void aTraceWithoutNestingGivesTheSameBitsBothWays(@TempDir Path dir) throws IOException {
    TraceStore store = SyntheticStore.write(dir, 7, 12, 3, 5, 6_000, 256, false);
    ModelRequest exclusive = ModelRequest.of(Metric.STATE_DURATION, 97);
    double[] a = ModelBuilder.build(store, exclusive).model().values();
    double[] b = ModelBuilder.build(store, exclusive.withInclusive(true)).model().values();
    assertArrayEquals(b, a);
  }

  @Test
  void theCacheKeepsTheTwoTimesApart(@TempDir Path dir) throws IOException {
    List<State> states = List.of(new State(1, 1, 2, 3, 1, 0), new State(1, 0, 0, 4, 0, -1));
    TraceStore store = write(dir, 1, states, 4);
    ModelCache cache = new ModelCache(1L << 30);
    ModelRequest request = new ModelRequest(Metric.STATE_DURATION, 0, 4, 2, ProducerSelection.ALL, List.of(), false);
    // [0, 2): s0 for 2; [2, 4): s0 for 1 exclusive (2 inclusive), s1 for 1.
    assertArrayEquals(new double[] {2, 0, 1, 1}, cache.build(store, request).model().values());
    assertArrayEquals(new double[] {2, 0, 2, 1}, cache.build(store, request.withInclusive(true)).model().values());
    assertArrayEquals(new double[] {3, 1}, cache.build(store, request.withSlices(1)).model().values());
    try (var files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      assertEquals(List.of("state-duration-exclusive", "state-duration-inclusive"), files
          .map(f -> f.getFileName().toString().replaceFirst("-[0-9a-f]{24}-.*", "")).sorted().toList());
    }
  }

  /** States of one producer inside [lo, hi) at {@code depth}, each with states inside it. */
  private static void nest(SplittableRandom random, int producer, double lo, double hi, int depth, int outer,
      List<State> into) {
    double t = lo + random.nextInt(3);
    while (t < hi) {
      double end = Math.min(hi, t + random.nextInt(depth == 0 ? 20 : 8));
      int type = random.nextInt(TYPES);
      into.add(new State(producer, type, t, end, depth, outer));
      if (depth < 3 && end > t) {
        nest(random, producer, t, end, depth + 1, type, into);
      }
      t = end + random.nextInt(4);
    }
  }

  private static TraceStore write(Path dir, int producers, List<State> states, int capacity) throws IOException {
    Files.createDirectories(dir);
    StoreWriter writer = new StoreWriter(dir, capacity);
    writer.producer(0, "root", "ROOT", -1, 0);
    for (int p = 1; p <= producers; p++) {
      writer.producer(p, "p" + p, "RANK", 0, 0);
    }
    for (int u = 0; u < TYPES; u++) {
      writer.eventType(u, "s" + u, EventCategory.STATE, "STATE", null);
    }
    for (State s : states) {
      writer.state(s.producer(), s.type(), s.start(), s.end(), s.depth(), s.outer());
    }
    writer.end(0, HORIZON, "s");
    writer.finish(new StoreMetadata.Source(dir.resolve("nested.trace").toString(), states.size(), 1, "nested",
        "synthetic"));
    return TraceStore.open(dir);
  }

  /** Steps of 1/2 over the window, each given to the innermost state open (or to every one). */
  private static double[] oracle(List<State> states, ModelPlan plan, boolean inclusive) {
    SliceGrid grid = plan.grid();
    int types = plan.types();
    int slices = grid.slices();
    double[] cells = new double[plan.leaves() * slices * types];
    for (double t = grid.start(); t < grid.end(); t += 0.5) {
      double middle = t + 0.25;
      int slice = grid.sliceOf(middle);
      for (int producer : states.stream().mapToInt(State::producer).distinct().toArray()) {
        State innermost = null;
        for (State s : states) {
          if (s.producer() == producer && s.start() <= middle && middle < s.end()) {
            if (inclusive) {
              add(cells, plan, s, slice);
            } else if (innermost == null || s.depth() > innermost.depth()) {
              innermost = s;
            }
          }
        }
        if (innermost != null) {
          add(cells, plan, innermost, slice);
        }
      }
    }
    return cells;
  }

  private static void add(double[] cells, ModelPlan plan, State s, int slice) {
    int leaf = plan.tree().leafOf()[s.producer()];
    int column = plan.typeOf()[s.type()];
    if (leaf >= 0 && column >= 0) {
      cells[(leaf * plan.grid().slices() + slice) * plan.types() + column] += 0.5;
    }
  }
}
