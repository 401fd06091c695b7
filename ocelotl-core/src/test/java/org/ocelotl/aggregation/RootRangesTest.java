package org.ocelotl.aggregation;

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
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
      List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
      double tolerance = 1e-9 * qualities.scale();
      String where = "seed " + seed;
      assertTrue(plain.size() > 4 * Envelopes.PIECES_PER_RANGE, where + ": " + plain.size() + " optima only");
      EnvelopeAssertions.assertSameLines(plain, envelopes, tolerance, where);
    }
  }
}
