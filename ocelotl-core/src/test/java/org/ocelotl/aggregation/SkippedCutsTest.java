package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;

/**
 * The spatiotemporal programme skips the cuts that lose to a finer cutting of their own interval by
 * more than rounding ({@code SpatiotemporalQualities.cutMargin}): it must give, bit for bit, what the
 * programme trying every cut gives — the same parts, gain and loss — at every p, on models full of
 * exact ties (small integer values, copied slices and leaves) and on trace-like ones with many optima.
 */
class SkippedCutsTest {
  @Test
  void changeNoChoiceOnModelsWithTies() {
    Random seeds = new Random(66);
    for (int m = 0; m < 40; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.randomModel(random, Models.randomTree(random, 2 + random.nextInt(12)),
          1 + random.nextInt(16), 1 + random.nextInt(3));
      assertSameAsEveryCut(model, "seed " + seed);
    }
  }

  @Test
  void changeNoChoiceOnModelsWithManyOptima() {
    Random seeds = new Random(67);
    for (int m = 0; m < 6; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = Models.phasesModel(new Random(seed), Models.platform(2 + m % 2, 3, 2 + m % 3),
          20 + 4 * m, 2 + m % 3, 3);
      assertSameAsEveryCut(model, "phases seed " + seed);
    }
  }

  /** At 0, 1, 200 p between, and the middle of each breakpoint's range, where its parts are built. */
  private static void assertSameAsEveryCut(MicroscopicModel model, String where) {
    SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    for (int k = 0; k <= 200; k++) {
      assertSame(qualities, k / 200.0, where);
    }
    List<Breakpoint> breakpoints = qualities.breakpoints();
    for (int k = 0; k < breakpoints.size(); k++) {
      double next = k + 1 < breakpoints.size() ? breakpoints.get(k + 1).p() : 1;
      assertSame(qualities, (breakpoints.get(k).p() + next) / 2, where);
    }
  }

  private static void assertSame(SpatiotemporalQualities qualities, double p, String where) {
    Partition skipping = qualities.evaluate(p).partition();
    Partition everyCut = qualities.evaluate(p, Double.POSITIVE_INFINITY).partition();
    String at = where + ", p " + p;
    assertEquals(everyCut.parts(), skipping.parts(), at);
    assertEquals(Double.doubleToLongBits(everyCut.gain()), Double.doubleToLongBits(skipping.gain()), at);
    assertEquals(Double.doubleToLongBits(everyCut.loss()), Double.doubleToLongBits(skipping.loss()), at);
  }
}
