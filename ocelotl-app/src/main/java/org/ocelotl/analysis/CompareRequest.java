package org.ocelotl.analysis;

/**
 * Two runs compared (docs/aggregation.md, "Comparing two runs"): how OTHER departs from BASE.
 *
 * @param base   the reference run and its model request (its window is set by {@code align})
 * @param other  the run compared with it, asked the same model
 * @param align  how the two time axes are matched
 * @param from   the start of the window compared within the align's, in OTHER's time; NaN: the
 *               align's start (a zoom of the web page, or {@code --from})
 * @param to     its end, exclusive; NaN: the align's end
 * @param p      the trade-off of the difference overview, or NaN for its default p
 * @param height the overview's drawing height in pixels (visual aggregation)
 * @param limit  how many differences the JSON form lists
 */
public record CompareRequest(ModelInput.FromTrace base, ModelInput.FromTrace other, Align align, double from,
    double to, double p, int height, int limit) {
  /** How two runs' times are matched. */
  public enum Align {
    /**
     * Time since each run's start, over the shorter run's duration: beyond it one run has nothing
     * to compare with (the summary says how much longer the other lasts).
     */
    START,
    /** Each run's whole span onto the same N slices: slice k is the same fraction of both runs. */
    STRETCH;

    public String word() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public CompareRequest {
    if (!Double.isNaN(from) && !Double.isNaN(to) && !(from < to)) {
      throw new IllegalArgumentException("the window compared needs start < end, got " + from + " and " + to);
    }
    if (!Double.isNaN(p) && !(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be a number in [0, 1], got " + p);
    }
    if (limit < 1 || limit > OutliersRequest.MAX_LIMIT) {
      throw new IllegalArgumentException("the limit must be a count in [1, " + OutliersRequest.MAX_LIMIT + "], got "
          + limit);
    }
  }
}
