package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.ocelotl.model.MicroscopicModel;

/** What the envelopes' tests check of a breakpoint list: against enumeration, against the DP-based search. */
final class EnvelopeAssertions {
  private EnvelopeAssertions() {}

  /**
   * The breakpoints against the upper envelope of every partition's line ({@link BruteForce}): the
   * same p's (1e-9) and lines (1e-9 × the model's scale), and parts — in the order {@code
   * canonical} puts them — that are an allowed partition with that line.
   */
  static void assertMatchesEnumeration(MicroscopicModel model, Aggregation aggregation, double scale,
      List<Breakpoint> actual, UnaryOperator<List<Part>> canonical, String where) {
    BruteForce oracle = new BruteForce(model, aggregation);
    Set<List<Part>> allowed = oracle.partitions();
    double tolerance = 1e-9 * scale;
    List<BruteForce.Change> expected = BruteForce.envelope(allowed.stream().map(oracle::line).toList(), tolerance);
    assertEquals(expected.size(), actual.size(), where + ": breakpoints " + expected + " vs " + actual);
    for (int k = 0; k < expected.size(); k++) {
      Partition partition = actual.get(k).partition();
      assertEquals(expected.get(k).p(), actual.get(k).p(), 1e-9, where + ": breakpoint " + k);
      assertEquals(expected.get(k).line().gain(), partition.gain(), tolerance, where + ": gain " + k);
      assertEquals(expected.get(k).line().loss(), partition.loss(), tolerance, where + ": loss " + k);
      List<Part> parts = partition.parts();
      assertEquals(partition.size(), parts.size(), where + ": size " + k);
      assertTrue(allowed.contains(canonical.apply(parts)), where + ": not an allowed partition " + k);
      BruteForce.Line own = oracle.line(parts);
      assertEquals(own.gain(), partition.gain(), tolerance, where + ": parts' gain " + k);
      assertEquals(own.loss(), partition.loss(), tolerance, where + ": parts' loss " + k);
    }
  }

  /** The same breakpoints as the DP-based search's: p's to 1e-12, lines to {@code tolerance}, sizes. */
  static void assertSameLines(List<Breakpoint> plain, List<Breakpoint> actual, double tolerance, String where) {
    assertEquals(plain.size(), actual.size(), where);
    for (int k = 0; k < plain.size(); k++) {
      Partition expected = plain.get(k).partition();
      Partition partition = actual.get(k).partition();
      assertEquals(plain.get(k).p(), actual.get(k).p(), 1e-12, where + " breakpoint " + k);
      assertEquals(expected.gain(), partition.gain(), tolerance, where + " gain " + k);
      assertEquals(expected.loss(), partition.loss(), tolerance, where + " loss " + k);
      assertEquals(expected.size(), partition.size(), where + " size " + k);
    }
  }
}
