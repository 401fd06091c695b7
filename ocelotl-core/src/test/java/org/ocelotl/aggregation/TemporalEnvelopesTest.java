package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The temporal breakpoints from the envelopes of the suffixes (what {@link Qualities#breakpoints()}
 * runs from {@link TemporalQualities#ENVELOPES_FROM} slices on): against enumeration on small models, against the DP-based search from scratch on larger
 * ones of both kinds — "iid" (values from a small palette, with zero slices and copies of the
 * previous slice: ties and lossless merges) and "phases" (trace-like, hundreds of optima).
 */
class TemporalEnvelopesTest {
  @Test
  void envelopesMatchEnumeration() {
    Random seeds = new Random(53);
    for (int m = 0; m < 200; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.randomModel(random, Models.randomTree(random, 1 + random.nextInt(5)),
          1 + random.nextInt(12), 1 + random.nextInt(3));
      TemporalQualities qualities = (TemporalQualities) Qualities.of(model, Aggregation.TEMPORAL);
      EnvelopeAssertions.assertMatchesEnumeration(model, Aggregation.TEMPORAL, qualities.scale(),
          qualities.envelopeBreakpoints(), parts -> parts, "seed " + seed);
    }
  }

  /**
   * The same breakpoints as the DP-based search from scratch, and the same lines bit for bit: the
   * suffixes add a partition's parts in the programme's order (see {@link Envelopes}); the parts,
   * built on demand, are the programme's inside each range.
   */
  @ParameterizedTest
  @ValueSource(strings = {"iid", "phases"})
  void envelopesMatchTheProgrammeSearch(String kind) {
    Random seeds = new Random(kind.equals("iid") ? 59 : 61);
    for (int slices : new int[] {2, 7, 20, 60, 150, 400}) {
      for (int m = 0; m < (slices < 100 ? 6 : 2); m++) {
        long seed = seeds.nextLong();
        MicroscopicModel model = model(kind, new Random(seed), slices);
        TemporalQualities qualities = (TemporalQualities) Qualities.of(model, Aggregation.TEMPORAL);
        List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
        List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
        String where = kind + " " + slices + " slices, seed " + seed;
        assertEquals(plain.size(), envelopes.size(), where);
        for (int k = 0; k < plain.size(); k++) {
          Partition expected = plain.get(k).partition();
          Partition partition = envelopes.get(k).partition();
          assertEquals(plain.get(k).p(), envelopes.get(k).p(), 1e-12, where + " breakpoint " + k);
          assertEquals(expected.gain(), partition.gain(), where + " gain " + k);
          assertEquals(expected.loss(), partition.loss(), where + " loss " + k);
          assertEquals(expected.parts(), partition.parts(), where + " parts " + k);
        }
      }
    }
  }

  /**
   * The phases kind must give many optima (67 at 400 slices; the large SimGrid trace has 352 at
   * 1000), or the test above would not exercise the pruning.
   */
  @Test
  void phasesModelsHaveManyOptima() {
    MicroscopicModel model = model("phases", new Random(67), 400);
    int optima = ((TemporalQualities) Qualities.of(model, Aggregation.TEMPORAL)).envelopeBreakpoints().size();
    assertTrue(optima > 50, optima + " optima only");
  }

  /**
   * From {@link TemporalQualities#ENVELOPES_FROM} slices on, {@link Qualities#breakpoints()} is the
   * envelopes' search: the same list as the DP-based search from scratch, p's, lines and parts.
   */
  @Test
  void breakpointsOfManySlicesAreTheProgrammeSearchs() {
    TemporalQualities qualities = (TemporalQualities) Qualities.of(
        model("phases", new Random(73), TemporalQualities.ENVELOPES_FROM), Aggregation.TEMPORAL);
    assertEquals(BreakpointSearch.run(qualities, qualities.tolerance()), qualities.breakpoints());
  }

  /**
   * Suffixes built in ranges of p in parallel ({@link Envelopes}): on models whose optima are
   * at least twice {@link Envelopes#PIECES_PER_RANGE}, so that the first suffixes are cut into two
   * ranges or more whatever the number of cores, the same breakpoints, lines and parts as the
   * DP-based search from scratch.
   */
  @Test
  void suffixesBuiltInRangesMatchTheProgrammeSearch() {
    Random seeds = new Random(79);
    for (int m = 0; m < 2; m++) {
      long seed = seeds.nextLong();
      Random random = new Random(seed);
      MicroscopicModel model = Models.phasesModel(random, Models.platform(2, 2, 3), 1600 + random.nextInt(400), 4, 3);
      TemporalQualities qualities = (TemporalQualities) Qualities.of(model, Aggregation.TEMPORAL);
      List<Breakpoint> plain = BreakpointSearch.run(qualities, qualities.tolerance());
      List<Breakpoint> envelopes = qualities.envelopeBreakpoints();
      String where = "seed " + seed;
      assertTrue(plain.size() >= 2 * Envelopes.PIECES_PER_RANGE, where + ": " + plain.size() + " optima only");
      assertEquals(plain.size(), envelopes.size(), where);
      for (int k = 0; k < plain.size(); k++) {
        assertEquals(plain.get(k).p(), envelopes.get(k).p(), 1e-12, where + " breakpoint " + k);
        assertEquals(plain.get(k).partition(), envelopes.get(k).partition(), where + " partition " + k);
      }
    }
  }

  /** Identical slices: one part is optimal from p = 0 on, answered without envelopes. */
  @Test
  void aUniformModelIsOnePartFromZero() {
    int slices = 30;
    double[] values = new double[4 * slices * 2];
    Arrays.fill(values, 0.5);
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("r", List.of("a", "b", "c", "d")), slices,
        List.of("x", "y"), values);
    List<Breakpoint> found = ((TemporalQualities) Qualities.of(model, Aggregation.TEMPORAL)).envelopeBreakpoints();
    assertEquals(1, found.size());
    assertEquals(0, found.get(0).p());
    assertEquals(List.of(new Part(0, 0, slices - 1)), found.get(0).partition().parts());
  }

  /** Envelopes that would hold more than their budget stop with a message, not an OutOfMemoryError. */
  @Test
  void envelopesBeyondTheirBudgetAreRefused() {
    TemporalQualities qualities =
        (TemporalQualities) Qualities.of(model("phases", new Random(71), 200), Aggregation.TEMPORAL);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> qualities.envelopeBreakpoints(100_000));
    assertTrue(refused.getMessage().startsWith("the temporal breakpoint search of 200 slices holds "),
        refused.getMessage());
    assertTrue(refused.getMessage().endsWith(" MiB of envelopes, more than the 0 MiB the Java heap leaves them; use "
        + "fewer slices or producers, or give Java more memory (-Xmx, OCELOTL_JAVA_OPTS)"), refused.getMessage());
    assertEquals(qualities.envelopeBreakpoints(1L << 40), qualities.breakpoints());
  }

  private static MicroscopicModel model(String kind, Random random, int slices) {
    return kind.equals("iid") ? Models.randomModel(random, Models.platform(2, 2, 3), slices, 1 + random.nextInt(3))
        : Models.phasesModel(random, Models.platform(2, 2, 3), slices, 4, 3);
  }
}
