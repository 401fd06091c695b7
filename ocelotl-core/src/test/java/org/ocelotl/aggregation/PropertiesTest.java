package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/** Seeded properties on models too large to enumerate. */
class PropertiesTest {
  /** A random model of a size the aggregation handles in milliseconds. */
  static MicroscopicModel model(Aggregation aggregation, Random random) {
    return switch (aggregation) {
      case TEMPORAL -> Models.randomModel(random, Models.randomTree(random, 2 + random.nextInt(8)),
          2 + random.nextInt(60), 1 + random.nextInt(4));
      case SPATIAL -> Models.randomModel(random, Models.randomTree(random, 2 + random.nextInt(60)),
          1 + random.nextInt(5), 1 + random.nextInt(4));
      case SPATIOTEMPORAL -> Models.randomModel(random, Models.randomTree(random, 2 + random.nextInt(20)),
          2 + random.nextInt(16), 1 + random.nextInt(4));
    };
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void gainAndLossGrowWithPFromLosslessToOnePart(Aggregation aggregation) {
    Random seeds = new Random(11 + aggregation.ordinal());
    for (int m = 0; m < 30; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = model(aggregation, new Random(seed));
      Qualities qualities = Qualities.of(model, aggregation);
      String where = aggregation + " seed " + seed;
      double tolerance = 1e-9 * qualities.scale();

      assertEquals(0, qualities.best(0).loss(), tolerance, where + ": loss at p = 0");
      assertEquals(1, qualities.best(1).size(), where + ": parts at p = 1");

      Partition previous = qualities.best(0);
      for (int k = 1; k <= 200; k++) {
        Partition next = qualities.best(k / 200.0);
        assertTrue(next.gain() >= previous.gain() - tolerance, where + ": gain falls at p=" + k / 200.0);
        assertTrue(next.loss() >= previous.loss() - tolerance, where + ": loss falls at p=" + k / 200.0);
        previous = next;
      }

      List<Breakpoint> breakpoints = qualities.breakpoints();
      assertEquals(0.0, breakpoints.get(0).p(), where);
      assertEquals(0, breakpoints.get(0).partition().loss(), tolerance, where);
      assertEquals(1, breakpoints.get(breakpoints.size() - 1).partition().size(), where);
      for (int k = 1; k < breakpoints.size(); k++) {
        Partition before = breakpoints.get(k - 1).partition();
        Partition after = breakpoints.get(k).partition();
        assertTrue(breakpoints.get(k).p() >= breakpoints.get(k - 1).p(), where + ": p order at " + k);
        assertTrue(after.gain() > before.gain() - tolerance && after.loss() > before.loss(), where + ": breakpoint " + k);
        double inside = breakpoints.get(k).p() + ((k + 1 < breakpoints.size() ? breakpoints.get(k + 1).p() : 1)
            - breakpoints.get(k).p()) / 2;
        Partition optimum = qualities.best(inside);
        assertEquals(after.pic(inside), optimum.pic(inside), tolerance, where + ": inside range " + k);
        assertEquals(after, Breakpoint.at(breakpoints, inside), where + ": lookup in range " + k);
      }
      double defaultP = Breakpoint.defaultP(breakpoints);
      assertTrue(breakpoints.stream().anyMatch(b -> b.p() == defaultP), where + ": default p " + defaultP);
    }
  }

  /**
   * The one-part partition without a programme is the programme's optimum at p = 1, to the bit: the
   * same parts, gain and loss (the first answer's fractions are of it, the full answer's of the last
   * breakpoint). Integer-valued models with ties and zeros, and trace-like ones with noise.
   */
  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void wholeIsTheProgrammesOptimumAtOne(Aggregation aggregation) {
    Random seeds = new Random(29 + aggregation.ordinal());
    for (int m = 0; m < 60; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = m % 2 == 0 ? model(aggregation, random)
          : Models.phasesModel(random, Models.platform(2 + random.nextInt(3), 2 + random.nextInt(3), 1 + random.nextInt(3)),
              aggregation == Aggregation.SPATIAL ? 1 + random.nextInt(3) : 2 + random.nextInt(30), 1 + random.nextInt(4),
              1 + random.nextInt(4));
      Qualities qualities = Qualities.of(model, aggregation);
      Partition programme = qualities.best(1);
      Partition whole = qualities.whole();
      String where = aggregation + " seed " + seed;
      assertEquals(programme.parts(), whole.parts(), where);
      assertEquals(1, whole.size(), where);
      assertEquals(Double.doubleToLongBits(programme.gain()), Double.doubleToLongBits(whole.gain()), where + ": gain");
      assertEquals(Double.doubleToLongBits(programme.loss()), Double.doubleToLongBits(whole.loss()), where + ": loss");
    }
  }

  /**
   * Qualities given to another request ({@link Qualities#withWork}) answer as those computed afresh
   * — the same default p and partition, optima and breakpoints — and to that request's work alone:
   * the first request's cancellation stops the first, not the other.
   */
  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void qualitiesWithAnotherWorkAnswerAsComputedAfreshAndToThatWork(Aggregation aggregation) {
    Random seeds = new Random(31 + aggregation.ordinal());
    for (int m = 0; m < 20; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = model(aggregation, new Random(seed));
      String where = aggregation + " seed " + seed;
      boolean[] cancelled = {false};
      Work first = new Work() {
        @Override
        public void check() {
          if (cancelled[0]) {
            throw new IllegalStateException("cancelled");
          }
        }
      };
      Qualities computed = Qualities.of(model, aggregation, first);
      Qualities other = computed.withWork(Work.NONE);
      cancelled[0] = true;
      assertThrows(IllegalStateException.class, computed::tradeOff, where + ": the first request stops");
      Qualities afresh = Qualities.of(model, aggregation);
      Breakpoint expected = afresh.tradeOff();
      Breakpoint tradeOff = other.tradeOff();
      assertEquals(expected.p(), tradeOff.p(), where + ": default p");
      assertEquals(expected.partition().parts(), tradeOff.partition().parts(), where);
      for (double p : new double[] {0, 0.1, 0.37, 0.8, 1}) {
        assertEquals(afresh.best(p).parts(), other.best(p).parts(), where + " at p = " + p);
      }
      List<Breakpoint> breakpoints = other.breakpoints();
      assertEquals(afresh.breakpoints().size(), breakpoints.size(), where);
      for (int k = 0; k < breakpoints.size(); k++) {
        assertEquals(afresh.breakpoints().get(k).p(), breakpoints.get(k).p(), where + ": breakpoint " + k);
        assertEquals(afresh.breakpoints().get(k).partition().parts(), breakpoints.get(k).partition().parts(), where);
      }
      Qualities stopping = computed.withWork(new Work() {
        @Override
        public void check() {
          throw new IllegalStateException("stopped");
        }
      });
      assertThrows(IllegalStateException.class, stopping::tradeOff, where + ": another request's cancellation");
    }
  }

  /**
   * The optimum at the trade-off's p is known once the trade-off evaluated it (decision 067): {@link
   * Qualities#best} there runs no programme — none of its per-node checks of the work — on these
   * qualities or those {@link Qualities#withWork} shares, and gives the parts, gain and loss of a
   * programme on qualities computed afresh (the coarser of two tied optima where the trade-off's
   * partition is the finer: {@code best}'s, not the trade-off's).
   */
  @Test
  void theOptimumAtTheTradeOffsPIsKnownOnceEvaluated() {
    Random seeds = new Random(37);
    int known = 0;
    for (int m = 0; m < 40; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = m % 2 == 0 ? model(Aggregation.SPATIOTEMPORAL, random)
          : Models.phasesModel(random, Models.platform(2 + random.nextInt(3), 2 + random.nextInt(3), 1 + random.nextInt(3)),
              2 + random.nextInt(30), 1 + random.nextInt(4), 1 + random.nextInt(4));
      Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      double p = qualities.tradeOff().p();
      java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();
      Partition best = qualities.withWork(new Work() {
        @Override
        public void check() {
          checks.incrementAndGet();
        }
      }).best(p);
      Partition afresh = Qualities.of(model, Aggregation.SPATIOTEMPORAL).best(p);
      String where = "seed " + seed + ", p " + p;
      assertEquals(afresh.parts(), best.parts(), where);
      assertEquals(Double.doubleToLongBits(afresh.gain()), Double.doubleToLongBits(best.gain()), where);
      assertEquals(Double.doubleToLongBits(afresh.loss()), Double.doubleToLongBits(best.loss()), where);
      assertEquals(afresh.parts(), qualities.best(p).parts(), where);
      known += checks.get() == 0 ? 1 : 0;
    }
    assertEquals(39, known, "trade-offs of the 40 that ended on an evaluation at their p (the 40th on one before)");
  }

  @Test
  void breakpointsAreThoseOfTheProgrammeSearch() {
    Random seeds = new Random(17);
    for (int m = 0; m < 20; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.randomModel(random, Models.randomTree(random, 10 + random.nextInt(30)),
          4 + random.nextInt(14), 1 + random.nextInt(3));
      Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
      EnvelopeAssertions.assertSameLines(plain, qualities.breakpoints(), 1e-9 * qualities.scale(), "seed " + seed);
    }
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void partsTileTheModelInOrder(Aggregation aggregation) {
    Random random = new Random(5);
    MicroscopicModel model = model(aggregation, random);
    ProducerTree tree = model.tree();
    for (double p : new double[] {0, 0.05, 0.2, 0.5, 1}) {
      int[][] covered = new int[model.leaves()][model.slices()];
      List<Part> parts = Qualities.of(model, aggregation).best(p).parts();
      for (Part part : parts) {
        int node = aggregation == Aggregation.TEMPORAL ? 0 : part.node();
        if (aggregation == Aggregation.TEMPORAL) {
          assertEquals(0, part.node());
        }
        if (aggregation == Aggregation.SPATIAL) {
          assertEquals(0, part.first());
          assertEquals(model.slices() - 1, part.last());
        }
        for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
          for (int t = part.first(); t <= part.last(); t++) {
            covered[leaf][t]++;
          }
        }
      }
      for (int[] row : covered) {
        for (int count : row) {
          assertEquals(1, count, aggregation + " p=" + p + ": every cell in exactly one part");
        }
      }
      for (int k = 1; k < parts.size(); k++) {
        Part a = parts.get(k - 1);
        Part b = parts.get(k);
        int byLeaf = Integer.compare(tree.firstLeaf(a.node()), tree.firstLeaf(b.node()));
        assertTrue(byLeaf < 0 || (byLeaf == 0 && a.first() < b.first()), aggregation + ": order " + a + " " + b);
      }
    }
  }

  @Test
  void identicalAndZeroSlicesMergeAtEveryP() {
    // slices 0,1 identical; 3,4 all zero
    double[] values = {1, 2, 1, 2, 5, 1, 0, 0, 0, 0};
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a")), 5, List.of("x", "y"), values);
    Partition atZero = Qualities.of(model, Aggregation.TEMPORAL).best(0);
    assertEquals("[0-1][2][3-4]", ReferenceExampleTest.show(atZero));
    assertEquals(0, atZero.loss(), 1e-12);
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void allZeroModelIsOnePartAtEveryP(Aggregation aggregation) {
    ProducerTree tree = Models.randomTree(new Random(3), 9);
    MicroscopicModel model = new MicroscopicModel(tree, 6, List.of("x"), new double[tree.leafCount() * 6]);
    Qualities qualities = Qualities.of(model, aggregation);
    assertEquals(1, qualities.best(0).size());
    assertEquals(1, qualities.breakpoints().size());
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void singleCellModel(Aggregation aggregation) {
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of()), 1, List.of("x"), new double[] {4});
    Partition partition = Qualities.of(model, aggregation).best(0.5);
    assertEquals(List.of(new Part(0, 0, 0)), partition.parts());
    assertEquals(0, partition.gain());
    assertEquals(0, partition.loss());
  }

  @Test
  void pOutsideTheUnitIntervalIsRefused() {
    Qualities qualities = Qualities.of(ReferenceExampleTest.model(), Aggregation.TEMPORAL);
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> qualities.best(1.5));
    assertEquals("p must be in [0, 1], got 1.5", error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> qualities.best(Double.NaN));
  }

  @Test
  void spatiotemporalModelTooLargeForTheHeapIsRefused() {
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a", "b")), 10_000, List.of("x"),
        new double[20_000]);
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> Qualities.of(model, Aggregation.SPATIOTEMPORAL));
    assertTrue(error.getMessage().startsWith("spatiotemporal qualities of 3 nodes × 10000 slices"), error.getMessage());
    assertTrue(error.getMessage().contains("MiB but the Java heap has"), error.getMessage());
  }

  @Test
  void valuesSummingBeyondTheDoubleRangeAreRefused() {
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a")), 2, List.of("x"),
        new double[] {Double.MAX_VALUE, Double.MAX_VALUE});
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> Qualities.of(model, Aggregation.TEMPORAL));
    assertEquals("the model's values add up beyond the largest double; divide them by a constant (no partition changes)",
        error.getMessage());
  }

  @Test
  void negativeOrNonFiniteValuesAreRefused() {
    ProducerTree tree = ProducerTree.flat("r", List.of("a"));
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
        () -> new MicroscopicModel(tree, 2, List.of("x"), new double[] {1, -2}));
    assertEquals("model values must be finite and ≥ 0; found -2.0 at producer a, slice 1, type x", error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new MicroscopicModel(tree, 2, List.of("x"), new double[] {Double.NaN, 1}));
    assertThrows(IllegalArgumentException.class,
        () -> new MicroscopicModel(tree, 2, List.of("x"), new double[] {Double.POSITIVE_INFINITY, 1}));
  }
}
