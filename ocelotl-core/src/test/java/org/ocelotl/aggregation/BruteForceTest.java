package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The engine against the enumeration of every allowed partition on seeded random small models:
 * the optimum's pIC for many p, and the breakpoints (where the enumerated optimum changes).
 */
class BruteForceTest {
  static List<Arguments> cases() {
    return List.of(
        Arguments.of(Aggregation.TEMPORAL, 1L, 200),
        Arguments.of(Aggregation.SPATIAL, 2L, 200),
        Arguments.of(Aggregation.SPATIOTEMPORAL, 3L, 150));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void engineMatchesEnumeration(Aggregation aggregation, long seed, int models) {
    Random random = new Random(seed);
    for (int m = 0; m < models; m++) {
      long modelSeed = random.nextLong();
      check(aggregation, model(aggregation, new Random(modelSeed)), aggregation + " seed " + modelSeed);
    }
  }

  private static MicroscopicModel model(Aggregation aggregation, Random random) {
    return switch (aggregation) {
      case TEMPORAL -> Models.randomModel(random,
          random.nextBoolean() ? ProducerTree.flat("r", List.of("a")) : Models.randomTree(random, 1 + random.nextInt(4)),
          1 + random.nextInt(12), 1 + random.nextInt(3));
      case SPATIAL -> Models.randomModel(random, Models.randomTree(random, 1 + random.nextInt(10)),
          1 + random.nextInt(4), 1 + random.nextInt(3));
      case SPATIOTEMPORAL -> {
        // at most 4 leaves × 4 slices or 3 × 5: the number of tilings grows very fast
        ProducerTree tree = Models.randomTree(random, 1 + random.nextInt(6));
        while (tree.leafCount() > 4) {
          tree = Models.randomTree(random, 1 + random.nextInt(6));
        }
        int slices = 1 + random.nextInt(tree.leafCount() <= 3 ? 5 : 4);
        yield Models.randomModel(random, tree, slices, 1 + random.nextInt(3));
      }
    };
  }

  private static void check(Aggregation aggregation, MicroscopicModel model, String where) {
    Qualities qualities = Qualities.of(model, aggregation);
    BruteForce oracle = new BruteForce(model, aggregation);
    Set<List<Part>> allowed = oracle.partitions();
    List<BruteForce.Line> lines = allowed.stream().map(oracle::line).toList();
    double tolerance = 1e-9 * qualities.scale();
    Random random = new Random(where.hashCode());
    for (int k = 0; k <= 40; k++) {
      double p = k <= 20 ? k / 20.0 : random.nextDouble();
      Partition partition = qualities.best(p);
      BruteForce.Line own = oracle.line(partition.parts());
      assertTrue(allowed.contains(sorted(partition.parts())), where + ": not an allowed partition at p=" + p);
      assertEquals(own.gain(), partition.gain(), tolerance, where + ": gain at p=" + p);
      assertEquals(own.loss(), partition.loss(), tolerance, where + ": loss at p=" + p);
      assertEquals(BruteForce.maxPic(lines, p), partition.pic(p), tolerance, where + ": optimum at p=" + p);
    }
    List<BruteForce.Change> expected = BruteForce.envelope(lines, tolerance);
    List<Breakpoint> actual = qualities.breakpoints();
    assertEquals(expected.size(), actual.size(), where + ": breakpoints " + expected + " vs " + actual);
    for (int k = 0; k < expected.size(); k++) {
      BruteForce.Change change = expected.get(k);
      Breakpoint breakpoint = actual.get(k);
      assertEquals(change.p(), breakpoint.p(), 1e-9, where + ": breakpoint " + k);
      assertEquals(change.line().gain(), breakpoint.partition().gain(), tolerance, where + ": gain of breakpoint " + k);
      assertEquals(change.line().loss(), breakpoint.partition().loss(), tolerance, where + ": loss of breakpoint " + k);
    }
  }

  /**
   * A zoom's first answer (decision 064): a window of a model at the p of the whole model's picture
   * (its default p), by one programme — the enumerated optimum of the window at that p, and the
   * partition the window's breakpoints give there (the full answer's), line for line. Except where
   * that p is a breakpoint of the window too, as it is when the window holds every part in which the
   * whole's default partition and its finer neighbour differ: the same two lines cross there, at a p
   * that the window's sums round a little apart. Both partitions are then optimal at p; the first
   * answer is the coarser (the tie rule of {@link Qualities#best}), the full answer the one on the
   * side of the breakpoint where rounding puts p.
   */
  @org.junit.jupiter.api.Test
  void aWindowAtTheWholeModelsDefaultP() {
    Random random = new Random(64);
    int ties = 0;
    for (int m = 0; m < 100; m++) {
      long modelSeed = random.nextLong();
      Random r = new Random(modelSeed);
      ProducerTree tree = Models.randomTree(r, 1 + r.nextInt(6));
      while (tree.leafCount() > 4) {
        tree = Models.randomTree(r, 1 + r.nextInt(6));
      }
      int width = 1 + r.nextInt(tree.leafCount() <= 3 ? 5 : 4); // enumerable
      int from = r.nextInt(4);
      MicroscopicModel whole = Models.randomModel(r, tree, from + width + r.nextInt(4), 1 + r.nextInt(3));
      String where = "seed " + modelSeed + ", slices [" + from + ", " + (from + width) + ") of " + whole.slices();
      double p = Qualities.of(whole, Aggregation.SPATIOTEMPORAL).tradeOff().p();
      MicroscopicModel window = whole.window(from, from + width);
      Qualities qualities = Qualities.of(window, Aggregation.SPATIOTEMPORAL);
      Partition first = qualities.best(p);
      BruteForce oracle = new BruteForce(window, Aggregation.SPATIOTEMPORAL);
      List<BruteForce.Line> lines = oracle.partitions().stream().map(oracle::line).toList();
      double tolerance = 1e-9 * qualities.scale();
      assertEquals(BruteForce.maxPic(lines, p), first.pic(p), tolerance, where + ": the optimum at the whole's p " + p);
      BruteForce.Line own = oracle.line(first.parts());
      assertEquals(own.gain(), first.gain(), tolerance, where + ": gain");
      List<Breakpoint> breakpoints = qualities.breakpoints();
      Partition full = Breakpoint.at(breakpoints, p);
      boolean atABreakpoint = breakpoints.stream().anyMatch(b -> b.p() > 0 && Math.abs(b.p() - p) <= 1e-9 * p);
      if (atABreakpoint && full.size() != first.size()) {
        ties++;
        assertEquals(BruteForce.maxPic(lines, p), full.pic(p), tolerance, where + ": the full answer, optimal at p " + p);
        assertTrue(first.size() < full.size(), where + ": the first answer the coarser of the two");
        continue;
      }
      assertEquals(full.gain(), first.gain(), tolerance, where + ": the full answer's gain at p " + p);
      assertEquals(full.loss(), first.loss(), tolerance, where + ": the full answer's loss at p " + p);
      assertEquals(full.size(), first.size(), where + ": the full answer's part count at p " + p);
    }
    assertEquals(1, ties, "windows whose breakpoint is the whole's default p, seen from the other side");
  }

  private static List<Part> sorted(List<Part> parts) {
    return parts.stream().sorted(Comparator.comparingInt(Part::node).thenComparingInt(Part::first)).toList();
  }
}
