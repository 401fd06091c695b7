package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;

/**
 * A breakpoint's parts looked up in the chain of differences ({@link PartsAhead}) are those its
 * dynamic programme gives, part for part and in order: every breakpoint of seeded models of each
 * aggregation, and the partition {@link Breakpoint#at} gives at 200 seeded p, against a list of
 * the same model whose parts each come from the programme.
 */
class PartsAheadTest {
  @Test
  void spatiotemporalLookUpsAreTheProgrammes() {
    Random seeds = new Random(72);
    for (int m = 0; m < 5; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = Models.phasesModel(new Random(seed), Models.platform(2 + m % 2, 3, 2 + m % 3),
          16 + 4 * m, 2 + m % 3, 3);
      assertLookUpsAreTheProgrammes(model, Aggregation.SPATIOTEMPORAL, "phases seed " + seed);
    }
    for (int m = 0; m < 10; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.randomModel(random, Models.randomTree(random, 2 + random.nextInt(12)),
          1 + random.nextInt(16), 1 + random.nextInt(3));
      assertLookUpsAreTheProgrammes(model, Aggregation.SPATIOTEMPORAL, "random seed " + seed);
    }
  }

  @Test
  void temporalAndSpatialLookUpsAreTheProgrammes() {
    Random seeds = new Random(73);
    for (int m = 0; m < 6; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = Models.phasesModel(new Random(seed), Models.platform(2, 3, 2 + m % 3), 30 + 5 * m,
          2 + m % 3, 3);
      assertLookUpsAreTheProgrammes(model, Aggregation.TEMPORAL, "temporal, phases seed " + seed);
      assertLookUpsAreTheProgrammes(model, Aggregation.SPATIAL, "spatial, phases seed " + seed);
    }
  }

  /** The chain started at every third breakpoint in turn, so that both sides and both ends are walked. */
  private static void assertLookUpsAreTheProgrammes(MicroscopicModel model, Aggregation aggregation, String where) {
    int size = Qualities.of(model, aggregation).breakpoints().size();
    for (int origin = 0; origin < size; origin += Math.max(1, size / 3)) {
      List<Breakpoint> chained = Qualities.of(model, aggregation).breakpoints();
      List<Breakpoint> programmes = Qualities.of(model, aggregation).breakpoints();
      PartsAhead chain = new PartsAhead(chained, model, origin);
      while (chain.extend()) {
        assertTrue(chain.bytes() <= PartsAhead.LIMIT_BYTES, where);
      }
      assertEquals(size, chain.covered(), where + ": every breakpoint in the chain");
      for (int k = 0; k < size; k++) {
        Partition partition = chained.get(k).partition();
        // Where the list builds parts on first request, the chain looks them up without keeping them.
        boolean onRequest = !programmes.get(k).partition().partsBuilt();
        assertFalse(k != origin && onRequest && partition.partsBuilt(), where + ": breakpoint " + k + " kept whole");
        assertEquals(programmes.get(k).partition().parts(), partition.parts(), where + ", origin " + origin
            + ", breakpoint " + k);
      }
      Random ps = new Random(size * 31L + origin);
      for (int n = 0; n < 200; n++) {
        double p = n == 0 ? 0 : n == 1 ? 1 : ps.nextDouble() * ps.nextDouble(); // crowded at small p, as breakpoints
        Partition lookedUp = Breakpoint.at(chained, p);
        assertEquals(Breakpoint.at(programmes, p).parts(), lookedUp.parts(), where + ", origin " + origin + ", p " + p);
      }
    }
  }
}
