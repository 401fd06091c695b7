package org.ocelotl.scan;

/**
 * The loops that turn columns of records into model cells: the hot path of every model
 * build, the same code whichever engine (local threads, Spark) hands it the columns. Each
 * kernel adds into {@code cells} (indexed as {@link ModelLayout}) and allocates nothing.
 *
 * <p>Every kernel fills only the band of slices [lo, hi) of the layout's grid: records are cut
 * at {@code boundary(lo)} and {@code boundary(hi)}. Bands split a build between threads that
 * write disjoint cells, and a cell gets the same additions in the same order whatever the
 * bands, so a parallel build is bit-identical to a sequential one. The whole grid is the band
 * [0, slices).
 */
public final class ScanKernels {
  private ScanKernels() {}

  /**
   * Adds to each slice the part of each state that lies inside it. When {@code starts} is not
   * null, also counts, for the average duration, the states touching each slice in two additive
   * parts: {@code starts} gets 1 in the slice where a state begins (inside the band), and
   * {@code crossings} 1 in every later slice it still overlaps, including the band's first slice
   * for a state begun before the band. Touches = starts + crossings, and the states touching a
   * run of slices [a, b] number Σ starts[a..b] + crossings[a], which is what lets a cached model
   * give exact averages for a coarser grid. States of filtered producers or types, and states
   * outside the band, are skipped.
   */
  public static void stateDurations(ModelLayout layout, int lo, int hi, int count, int[] producer,
      int[] type, double[] start, double[] end, double[] cells, double[] starts, double[] crossings) {
    double[] bounds = layout.bounds();
    double t0 = bounds[lo];
    double t1 = bounds[hi];
    int types = layout.types();
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    for (int i = 0; i < count; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      double s = start[i];
      double e = end[i];
      // Skip what lies outside [t0, t1); an instantaneous state at t0 is inside.
      if (leaf < 0 || slot < 0 || s >= t1 || e < t0 || (e == t0 && s < e)) {
        continue;
      }
      boolean begunBefore = s < t0;
      s = Math.max(s, t0);
      e = Math.min(e, t1);
      int base = layout.base(leaf, slot);
      int first = layout.sliceOf(s);
      int last = first;
      // Most states end in the slice they start in: one comparison spares the second search.
      // [s, e) ending exactly on a boundary does not enter the slice after it.
      if (e <= bounds[first + 1]) {
        cells[base + first * types] += e - s;
      } else {
        last = e >= t1 ? hi - 1 : layout.sliceOf(e);
        if (e == bounds[last]) {
          last--;
        }
        cells[base + first * types] += bounds[first + 1] - s;
        for (int k = first + 1; k < last; k++) {
          cells[base + k * types] += bounds[k + 1] - bounds[k];
        }
        cells[base + last * types] += e - bounds[last];
      }
      // An instantaneous state still touches its slice, adding no time.
      if (starts != null) {
        if (begunBefore) {
          crossings[base + first * types] += 1;
        } else {
          starts[base + first * types] += 1;
        }
        for (int k = first + 1; k <= last; k++) {
          crossings[base + k * types] += 1;
        }
      }
    }
  }

  /**
   * Adds 1 per record to the slice of its time; used for punctual events and for links (by
   * start, {@code producer} being the link's start producer).
   */
  public static void occurrences(ModelLayout layout, int lo, int hi, int count, int[] producer,
      int[] type, double[] time, double[] cells) {
    double[] bounds = layout.bounds();
    double t0 = bounds[lo];
    double t1 = bounds[hi];
    int types = layout.types();
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    for (int i = 0; i < count; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      double t = time[i];
      if (leaf < 0 || slot < 0 || t < t0 || t >= t1) {
        continue;
      }
      cells[layout.base(leaf, slot) + layout.sliceOf(t) * types] += 1;
    }
  }

  /**
   * Adds value × overlap for each step [from, to) of a variable. Divided by the slice width
   * at the end, the sum is the time-weighted mean of the variable over the slice.
   */
  public static void steps(ModelLayout layout, int lo, int hi, int count, int[] producer, int[] type,
      double[] from, double[] to, double[] value, double[] cells) {
    double[] bounds = layout.bounds();
    double t0 = bounds[lo];
    double t1 = bounds[hi];
    int types = layout.types();
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    for (int i = 0; i < count; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      double s = Math.max(from[i], t0);
      double e = Math.min(to[i], t1);
      double v = value[i];
      if (leaf < 0 || slot < 0 || e <= s || v == 0) {
        continue;
      }
      int base = layout.base(leaf, slot);
      int first = layout.sliceOf(s);
      if (e <= bounds[first + 1]) {
        cells[base + first * types] += v * (e - s);
      } else {
        int last = e >= t1 ? hi - 1 : layout.sliceOf(e);
        if (e == bounds[last]) {
          last--;
        }
        cells[base + first * types] += v * (bounds[first + 1] - s);
        for (int k = first + 1; k < last; k++) {
          cells[base + k * types] += v * (bounds[k + 1] - bounds[k]);
        }
        cells[base + last * types] += v * (e - bounds[last]);
      }
    }
  }
}
