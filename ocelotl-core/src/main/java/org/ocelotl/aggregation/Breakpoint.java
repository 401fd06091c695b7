package org.ocelotl.aggregation;

import java.util.List;

/**
 * One distinct optimal partition and the lowest p at which it is optimal; it stays optimal up
 * to the next breakpoint's p (or 1 for the last).
 */
public record Breakpoint(double p, Partition partition) {
  /**
   * The partition a list of breakpoints (from {@link Qualities#breakpoints()}) gives for p: the
   * one of the last breakpoint at or below p. A binary search, so moving p costs nothing.
   */
  public static Partition at(List<Breakpoint> breakpoints, double p) {
    return breakpoints.get(indexAt(breakpoints, p)).partition();
  }

  /** The index of the breakpoint whose partition {@link #at} gives for p. */
  public static int indexAt(List<Breakpoint> breakpoints, double p) {
    int low = 0;
    int high = breakpoints.size() - 1;
    while (low < high) {
      int middle = (low + high + 1) >>> 1;
      if (breakpoints.get(middle).p() <= p) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }

  /**
   * The default p (SPEC.md §5): the p of the breakpoint whose partition maximises
   * gain/gain(p=1) − loss/loss(p=1), the best trade-off; on equal scores (within {@link
   * #SCORE_TIE}) the lower p (more detail) wins. A normalised value is 0 when its value at p = 1 is 0.
   */
  public static double defaultP(List<Breakpoint> breakpoints) {
    Partition coarsest = breakpoints.get(breakpoints.size() - 1).partition();
    double bestScore = Double.NEGATIVE_INFINITY;
    double bestP = 0;
    for (Breakpoint breakpoint : breakpoints) {
      Partition partition = breakpoint.partition();
      double score = score(partition.gain(), partition.loss(), coarsest.gain(), coarsest.loss());
      if (score > bestScore + SCORE_TIE) {
        bestScore = score;
        bestP = breakpoint.p();
      }
    }
    return bestP;
  }

  /**
   * Scores closer than this are equal. Two optima have equal scores exactly when their lines cross
   * at the p where the score is a pIC ({@link Qualities#tradeOff}) — as the optimum at 0 and the
   * one-part partition do when nothing lies between them — and rounding must not choose between
   * them: the scores are fractions, their rounding a few 1e-16.
   */
  static final double SCORE_TIE = 1e-12;

  /** The default p's criterion: gain and loss as fractions of the one-part partition's. */
  static double score(double gain, double loss, double wholeGain, double wholeLoss) {
    return fraction(gain, wholeGain) - fraction(loss, wholeLoss);
  }

  /**
   * A gain or loss as a fraction of its value at p = 1 (its maximum: both grow with p), as the
   * quality curves, captions and tables show it; 0 when the value at p = 1 is 0.
   */
  public static double fraction(double value, double atOne) {
    return atOne > 0 ? value / atOne : 0;
  }
}
