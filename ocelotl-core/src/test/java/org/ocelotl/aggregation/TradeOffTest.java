package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * {@link Qualities#tradeOff} against the breakpoint search: the same default p (up to the
 * rounding of a crossing) and the same partition, on seeded models of every aggregation, on models
 * with hundreds of optima where the spatiotemporal search walks envelopes, and on the edge cases
 * where the one-part partition gains or loses nothing.
 */
class TradeOffTest {
  /** The crossings of the two searches are sums of the same lines in other orders. */
  private static final double ROUNDING = 1e-9;

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void isTheSearchsDefaultOnRandomModels(Aggregation aggregation) {
    Random seeds = new Random(29 + aggregation.ordinal());
    for (int m = 0; m < 60; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = PropertiesTest.model(aggregation, random);
      assertSameAsSearch(Qualities.of(model, aggregation), aggregation + " seed " + seed);
    }
  }

  @Test
  void isTheSearchsDefaultWhereTheSpatiotemporalSearchWalksEnvelopes() {
    Random seeds = new Random(31);
    for (int m = 0; m < 6; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.phasesModel(random, Models.platform(2 + m % 2, 3, 2 + m % 3),
          20 + 4 * m, 2 + m % 3, 3);
      Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      assertSameAsSearch(qualities, "phases seed " + seed + " (" + qualities.breakpoints().size() + " optima)");
    }
  }

  /** Newton's steps close in fast: far fewer programmes than the search's 2K − 1. */
  @Test
  void takesFewProgrammes() {
    MicroscopicModel model = Models.phasesModel(new Random(7), Models.platform(3, 4, 3), 40, 3, 4);
    int optima = Qualities.of(model, Aggregation.SPATIOTEMPORAL).breakpoints().size();
    assertTrue(optima > 100, "a model with many optima: " + optima);
    AtomicLong programmes = new AtomicLong();
    Qualities counted = Qualities.of(model, Aggregation.SPATIOTEMPORAL, new Work() {
      @Override
      public void advanced(long done, long total) {
        if (total == 0) { // the programme's evaluations count with no total; the qualities' nodes with one
          programmes.set(done);
        }
      }
    });
    counted.tradeOff();
    assertTrue(programmes.get() <= 6, "programmes run: " + programmes);
    assertSameAsSearch(counted, "platform 3×4×3 × 40 slices");
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void allZeroModelIsOnePartAtZero(Aggregation aggregation) {
    ProducerTree tree = Models.randomTree(new Random(3), 9);
    MicroscopicModel model = new MicroscopicModel(tree, 6, List.of("x"), new double[tree.leafCount() * 6]);
    assertSameAsSearch(Qualities.of(model, aggregation), aggregation + " all zero");
    assertEquals(1, Qualities.of(model, aggregation).tradeOff().partition().size());
  }

  /** Every cell alike: nothing is lost by one part, whose gain is the largest. */
  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void homogeneousModelIsOnePart(Aggregation aggregation) {
    ProducerTree tree = Models.platform(2, 2, 2);
    double[] values = new double[tree.leafCount() * 5 * 2];
    java.util.Arrays.fill(values, 3);
    MicroscopicModel model = new MicroscopicModel(tree, 5, List.of("x", "y"), values);
    Breakpoint tradeOff = Qualities.of(model, aggregation).tradeOff();
    assertEquals(0.0, tradeOff.p());
    assertEquals(1, tradeOff.partition().size());
    assertSameAsSearch(Qualities.of(model, aggregation), aggregation + " homogeneous");
  }

  /**
   * The same p and the same optimum: its line (gain, loss) and its size. Where two partitions of
   * the same size share a line (ties, in models with copied cells), either may be shown: the search
   * builds a breakpoint's parts in the middle of its range, the trade-off where it is found.
   */
  private static void assertSameAsSearch(Qualities qualities, String where) {
    List<Breakpoint> breakpoints = qualities.breakpoints();
    double defaultP = Breakpoint.defaultP(breakpoints);
    Breakpoint tradeOff = qualities.tradeOff();
    assertEquals(defaultP, tradeOff.p(), ROUNDING * Math.max(1, defaultP), where + ": default p");
    Partition expected = Breakpoint.at(breakpoints, defaultP);
    assertEquals(expected.size(), tradeOff.partition().size(), where + ": parts");
    assertEquals(expected.gain(), tradeOff.partition().gain(), 1e-9 * qualities.scale(), where + ": gain");
    assertEquals(expected.loss(), tradeOff.partition().loss(), 1e-9 * qualities.scale(), where + ": loss");
  }
}
