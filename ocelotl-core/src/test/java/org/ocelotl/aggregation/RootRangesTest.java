package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;

/**
 * The root's envelopes built in ranges of p in parallel ({@link Envelopes}): on models whose root
 * has several times {@link Envelopes#PIECES_PER_RANGE} pieces, so that its last columns are cut
 * into two ranges or more whatever the number of cores, the breakpoints are those of the DP-based
 * search, as {@code EnvelopesTest} checks them on smaller models.
 */
class RootRangesTest {
  @Test
  void rootBuiltInRangesMatchesTheProgrammeSearch() {
    Random seeds = new Random(59);
    for (int m = 0; m < 2; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.phasesModel(random, Models.platform(2, 4, 4), 56 + random.nextInt(8), 4, 6);
      SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance(), false);
      List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
      double tolerance = 1e-9 * qualities.scale();
      String where = "seed " + seed;
      assertTrue(plain.size() > 4 * Envelopes.PIECES_PER_RANGE, where + ": " + plain.size() + " optima only");
      assertEquals(plain.size(), envelopes.size(), where);
      for (int k = 0; k < plain.size(); k++) {
        Partition expected = plain.get(k).partition();
        Partition partition = envelopes.get(k).partition();
        assertEquals(plain.get(k).p(), envelopes.get(k).p(), 1e-12, where + " breakpoint " + k);
        assertEquals(expected.gain(), partition.gain(), tolerance, where + " gain " + k);
        assertEquals(expected.loss(), partition.loss(), tolerance, where + " loss " + k);
        assertEquals(expected.size(), partition.size(), where + " size " + k);
      }
    }
  }
}
