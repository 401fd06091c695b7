package org.ocelotl.scan;

/**
 * Where a {@link PluginMetric} adds one record's contributions: to the sums of the record's
 * (leaf, type), in the slices its times fall in. Ocelotl binds it to the record's cell before each
 * call and cuts every contribution to the band of slices the calling thread fills (see
 * {@link ScanKernels}), so a plug-in never sees slices, bands or cell indexes.
 */
public final class Contributions {
  private final ModelLayout layout;
  private final double[][] sums;
  private final int hi;
  private final double t0;
  private final double t1;
  private int base;

  Contributions(ModelLayout layout, int lo, int hi, double[][] sums) {
    this.layout = layout;
    this.sums = sums;
    this.hi = hi;
    this.t0 = layout.bounds()[lo];
    this.t1 = layout.bounds()[hi];
  }

  void bind(int leaf, int type) {
    base = layout.base(leaf, type);
  }

  /** Adds {@code weight} to sum {@code sum} of the slice holding {@code time} (nothing outside the window). */
  public void at(int sum, double time, double weight) {
    if (time >= t0 && time < t1) {
      sums[sum][base + layout.sliceOf(time) * layout.types()] += weight;
    }
  }

  /**
   * Adds {@code weight} × the overlap of [start, end) with each slice to sum {@code sum}: with a
   * weight of 1, the time spent in each slice. An empty or reversed span adds nothing.
   */
  public void over(int sum, double start, double end, double weight) {
    double s = start < t0 ? t0 : start;
    double e = end > t1 ? t1 : end;
    if (e > s) {
      ScanKernels.spread(layout, hi, base, layout.sliceOf(s), s, e, weight, sums[sum]);
    }
  }
}
