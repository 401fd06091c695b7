package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The spatiotemporal breakpoints from envelopes (what {@link Qualities#breakpoints()} runs):
 * against enumeration on small models, against the DP-based search on larger ones, and the
 * lazily built parts against the DP.
 */
class EnvelopesTest {
  @Test
  void envelopesMatchEnumeration() {
    Random seeds = new Random(31);
    for (int m = 0; m < 150; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      ProducerTree tree = Models.randomTree(random, 1 + random.nextInt(6));
      while (tree.leafCount() > 4) {
        tree = Models.randomTree(random, 1 + random.nextInt(6));
      }
      int slices = 1 + random.nextInt(tree.leafCount() <= 3 ? 5 : 4);
      MicroscopicModel model = Models.randomModel(random, tree, slices, 1 + random.nextInt(3));
      SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      EnvelopeAssertions.assertMatchesEnumeration(model, Aggregation.SPATIOTEMPORAL, qualities.scale(),
          qualities.envelopeBreakpoints(), EnvelopesTest::sorted, "seed " + seed);
    }
  }

  @Test
  void envelopesMatchTheProgrammeSearch() {
    Random seeds = new Random(43);
    for (int m = 0; m < 30; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.randomModel(random, Models.randomTree(random, 10 + random.nextInt(40)),
          4 + random.nextInt(20), 1 + random.nextInt(3));
      SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
      List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
      List<Breakpoint> chosen = qualities.breakpoints();
      double tolerance = 1e-9 * qualities.scale();
      for (List<Breakpoint> actual : List.of(envelopes, chosen)) {
        String where = "seed " + seed + (actual == chosen ? " breakpoints()" : " envelopes");
        EnvelopeAssertions.assertSameLines(plain, actual, tolerance, where);
        for (int k = 0; k < plain.size(); k++) {
          Partition partition = actual.get(k).partition();
          assertEquals(partition.size(), partition.parts().size(), where + " parts " + k);
          // the parts are those of the programme inside the range; equal lines may tile differently
          double inside = (actual.get(k).p() + (k + 1 < actual.size() ? actual.get(k + 1).p() : 1)) / 2;
          Partition optimum = qualities.best(inside);
          assertEquals(optimum.parts(), partition.parts(), where + " parts " + k);
          assertEquals(optimum.gain(), partition.gain(), tolerance, where + " parts' gain " + k);
          assertEquals(optimum.loss(), partition.loss(), tolerance, where + " parts' loss " + k);
        }
      }
    }
  }

  /**
   * Trace-like models with many optima, where the envelopes skip most of each cut's range (see
   * {@link Envelopes}): the same breakpoints as the DP-based search from scratch.
   */
  @Test
  void envelopesMatchTheProgrammeSearchOnPhases() {
    Random seeds = new Random(47);
    for (int m = 0; m < 4; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.phasesModel(random, Models.platform(2, 3, 4), 24 + random.nextInt(12), 4, 5);
      SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
      List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
      double tolerance = 1e-9 * qualities.scale();
      String where = "seed " + seed;
      assertTrue(plain.size() > 100, where + ": " + plain.size() + " optima only");
      EnvelopeAssertions.assertSameLines(plain, envelopes, tolerance, where);
    }
  }

  /**
   * A model whose cells are all equal: one part is optimal from p = 0 on, so the search answers
   * without building envelopes; the same single breakpoint as the DP-based search.
   */
  @Test
  void aUniformModelIsOnePartFromZero() {
    ProducerTree tree = Models.platform(2, 3, 4);
    int slices = 12;
    double[] values = new double[tree.leafCount() * slices * 3];
    java.util.Arrays.fill(values, 0.25);
    MicroscopicModel model = new MicroscopicModel(tree, slices, List.of("a", "b", "c"), values);
    SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
    List<Breakpoint> found = qualities.breakpoints();
    assertEquals(1, plain.size());
    assertEquals(1, found.size());
    assertEquals(0, found.get(0).p());
    assertEquals(1, found.get(0).partition().size());
    assertEquals(List.of(new Part(0, 0, slices - 1)), found.get(0).partition().parts());
  }

  /** Envelopes that would hold more than their budget stop with a message, not an OutOfMemoryError. */
  @Test
  void envelopesBeyondTheirBudgetAreRefused() {
    MicroscopicModel model = Models.phasesModel(new Random(5), Models.platform(2, 3, 4), 30, 4, 5);
    SpatiotemporalQualities qualities = (SpatiotemporalQualities) Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> qualities.envelopeBreakpoints(100_000));
    assertTrue(refused.getMessage().startsWith("the spatiotemporal breakpoint search of 33 nodes × 30 slices holds "),
        refused.getMessage());
    assertTrue(refused.getMessage().endsWith(" MiB of envelopes, more than the 0 MiB the Java heap leaves them; use "
        + "fewer slices or producers, or give Java more memory (-Xmx, OCELOTL_JAVA_OPTS)"), refused.getMessage());
    assertEquals(qualities.envelopeBreakpoints(1L << 40).size(), qualities.breakpoints().size());
  }

  static List<Part> sorted(List<Part> parts) {
    return parts.stream().sorted(Comparator.comparingInt(Part::node).thenComparingInt(Part::first)).toList();
  }
}
