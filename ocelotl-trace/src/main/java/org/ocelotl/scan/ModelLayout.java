package org.ocelotl.scan;

/**
 * Where a record of the store lands in a microscopic model: the model leaf of each store
 * producer and the model type of each store event type (-1 where a filter leaves it out),
 * and the slice grid. Cell index = (leaf · slices + slice) · types + type, as in
 * {@link org.ocelotl.model.MicroscopicModel}.
 *
 * @param bounds the grid's boundaries 0..slices, computed once: the kernels look them up
 *               instead of recomputing them (a division each) per record
 * @param scale  slices / window length, to find a slice by a multiplication
 */
public record ModelLayout(int[] leafOf, int[] typeOf, int leaves, int types, SliceGrid grid,
    double[] bounds, double scale) {

  public ModelLayout(int[] leafOf, int[] typeOf, int leaves, int types, SliceGrid grid) {
    this(leafOf, typeOf, leaves, types, grid, boundaries(grid), grid.slices() / (grid.end() - grid.start()));
  }

  private static double[] boundaries(SliceGrid grid) {
    double[] bounds = new double[grid.slices() + 1];
    for (int k = 0; k <= grid.slices(); k++) {
      bounds[k] = grid.boundary(k);
    }
    return bounds;
  }

  public int cells() {
    return leaves * grid.slices() * types;
  }

  /** Cell of slice 0 for (leaf, type); the next slice is {@link #types()} further. */
  public int base(int leaf, int type) {
    return leaf * grid.slices() * types + type;
  }

  /**
   * The slice holding instant t (window start ≤ t &lt; window end), the same as
   * {@link SliceGrid#sliceOf}: the multiplication may be off by one slice near a boundary
   * (its rounding error is far below one slice for N ≤ 10 000), and the comparison with the
   * looked-up boundaries corrects it.
   */
  public int sliceOf(double t) {
    int n = bounds.length - 1;
    int k = (int) ((t - bounds[0]) * scale);
    if (k >= n) {
      k = n - 1;
    } else if (k < 0) {
      k = 0;
    }
    if (t < bounds[k]) {
      k--;
    } else if (k + 1 < n && t >= bounds[k + 1]) {
      k++;
    }
    return k;
  }
}
