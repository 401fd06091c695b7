package org.ocelotl.scan;

/**
 * Rebuilds additive slice sums (durations, counts, value × time) for a coarser grid or a
 * sub-window from the sums of a finer grid, without reading the trace again.
 *
 * <p>A fine slice that lies inside one target slice adds to it in full; one that straddles a
 * target boundary is split in proportion to the overlap, which assumes its content is spread
 * evenly: such a rebuild is approximate. When every target boundary falls on a fine boundary
 * no slice is split and the rebuild equals a rescan (up to the order of additions).
 */
public final class Rebinning {
  private final SliceGrid target;
  private final int[] firstFine;
  private final double[][] weights;
  private final double[] before;
  private final boolean exact;

  private Rebinning(SliceGrid target, int[] firstFine, double[][] weights, double[] before, boolean exact) {
    this.target = target;
    this.firstFine = firstFine;
    this.weights = weights;
    this.before = before;
    this.exact = exact;
  }

  /** Whether {@code fine} can serve {@code target}: its window covers the target window. */
  public static boolean covers(SliceGrid fine, SliceGrid target) {
    return fine.start() <= target.start() && target.end() <= fine.end();
  }

  /** How each target slice takes from the fine slices. */
  public static Rebinning of(SliceGrid fine, SliceGrid target) {
    if (!covers(fine, target)) {
      throw new IllegalArgumentException("a model of [" + fine.start() + ", " + fine.end()
          + ") cannot be rebuilt for [" + target.start() + ", " + target.end() + ")");
    }
    int slices = target.slices();
    double[] position = new double[slices + 1];
    boolean exact = true;
    for (int k = 0; k <= slices; k++) {
      position[k] = position(fine, target.boundary(k));
      exact &= position[k] == Math.rint(position[k]);
    }
    int[] firstFine = new int[slices];
    double[][] weights = new double[slices][];
    double[] before = new double[slices];
    for (int k = 0; k < slices; k++) {
      double from = position[k];
      double to = position[k + 1];
      int first = Math.min((int) Math.floor(from), fine.slices() - 1);
      int last = Math.max(first, (int) Math.ceil(to) - 1);
      firstFine[k] = first;
      before[k] = from - first;
      weights[k] = new double[last - first + 1];
      for (int j = first; j <= last; j++) {
        weights[k][j - first] = Math.max(0, Math.min(j + 1, to) - Math.max(j, from));
      }
    }
    return new Rebinning(target, firstFine, weights, before, exact);
  }

  /**
   * Where instant t lies on the fine grid, in slices: j for boundary j, j + f for a fraction f
   * into slice j. A boundary that differs from a fine one only by rounding (a few ulps: grids
   * computed from different windows rarely agree to the last bit) counts as that boundary, so
   * that a grid aligned in real numbers rebuilds exactly.
   */
  private static double position(SliceGrid fine, double t) {
    double tolerance = 16 * Math.ulp(Math.max(Math.max(Math.abs(fine.start()), Math.abs(fine.end())),
        fine.end() - fine.start()));
    if (t >= fine.end() - tolerance) {
      return fine.slices();
    }
    int j = fine.sliceOf(Math.max(t, fine.start()));
    if (Math.abs(t - fine.boundary(j)) <= tolerance) {
      return j;
    }
    if (Math.abs(fine.boundary(j + 1) - t) <= tolerance) {
      return j + 1;
    }
    return j + (t - fine.boundary(j)) / (fine.boundary(j + 1) - fine.boundary(j));
  }

  /** True when no fine slice is split: the result equals a rescan. */
  public boolean exact() {
    return exact;
  }

  /**
   * @param fine   sums laid out (row · fineSlices + slice) · types + type
   * @param rows   number of rows (leaves)
   * @param types  number of types
   * @return sums for the target grid in the same layout
   */
  public double[] apply(double[] fine, int rows, int fineSlices, int types) {
    int slices = target.slices();
    double[] result = new double[rows * slices * types];
    for (int row = 0; row < rows; row++) {
      for (int k = 0; k < slices; k++) {
        int out = (row * slices + k) * types;
        double[] w = weights[k];
        for (int j = 0; j < w.length; j++) {
          int in = (row * fineSlices + firstFine[k] + j) * types;
          for (int u = 0; u < types; u++) {
            result[out + u] += w[j] * fine[in + u];
          }
        }
      }
    }
    return result;
  }

  /**
   * Rebuilds boundary counts: {@code crossings} of a target slice are the crossings of the
   * fine slice where it begins (exact when both begin together). A target slice beginning
   * inside a fine slice also counts that slice's starts lying before its beginning, in
   * proportion: with the proportional share of starts it receives from {@link #apply}, it
   * then counts every state that touched the fine slice.
   */
  public double[] crossings(double[] crossings, double[] starts, int rows, int fineSlices, int types) {
    int slices = target.slices();
    double[] result = new double[rows * slices * types];
    for (int row = 0; row < rows; row++) {
      for (int k = 0; k < slices; k++) {
        int out = (row * slices + k) * types;
        int in = (row * fineSlices + firstFine[k]) * types;
        for (int u = 0; u < types; u++) {
          result[out + u] = crossings[in + u] + before[k] * starts[in + u];
        }
      }
    }
    return result;
  }
}
