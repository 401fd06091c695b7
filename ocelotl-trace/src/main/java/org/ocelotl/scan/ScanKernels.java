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
   *
   * <p>Exclusive time, when {@code outer} is given (the type of the state each lies in, −1 for
   * none): a nested state's part inside each slice is also taken from its outer state's type
   * there, so that each instant counts once, in the innermost state's type. The nested state lies
   * inside its outer one, so that part is the nested state's own part, cut at the band as the
   * outer state's is: no need to find the outer record, which may be in another chunk or band.
   * The subtraction is made even when the nested state's own type is filtered out. Records at
   * depth 0 (every record of a trace without nesting) add exactly what they add without it.
   *
   * @param outer null: inclusive time
   */
  public static void stateDurations(ModelLayout layout, int lo, int hi, int count, int[] producer,
      int[] type, int[] outer, double[] start, double[] end, double[] cells, double[] starts,
      double[] crossings) {
    double[] bounds = layout.bounds();
    double t0 = bounds[lo];
    double t1 = bounds[hi];
    int types = layout.types();
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    for (int i = 0; i < count; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      int around = outer == null || outer[i] < 0 ? -1 : typeOf[outer[i]];
      double s = start[i];
      double e = end[i];
      // Skip what lies outside [t0, t1); an instantaneous state at t0 is inside.
      if (leaf < 0 || (slot < 0 && around < 0) || s >= t1 || e < t0 || (e == t0 && s < e)) {
        continue;
      }
      boolean begunBefore = s < t0;
      // Not Math.max/min: their care for NaN and −0.0, which times never are, costs (JDK 17).
      s = begunBefore ? t0 : s;
      e = e > t1 ? t1 : e;
      int first = layout.sliceOf(s);
      if (around >= 0) {
        spread(layout, hi, layout.base(leaf, around), first, s, e, -1, cells);
      }
      if (slot < 0) {
        continue;
      }
      int base = layout.base(leaf, slot);
      int last = spread(layout, hi, base, first, s, e, 1, cells);
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
   * Adds 1 per record, or its weight, to the slice of its time; used for punctual events and for
   * links (by start, {@code producer} being the link's start producer; weighted by volume for
   * link-volume, where a NaN volume, unknown, adds nothing).
   *
   * @param weight null: 1 per record
   */
  public static void occurrences(ModelLayout layout, int lo, int hi, int count, int[] producer,
      int[] type, double[] time, double[] weight, double[] cells) {
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
      double w = weight == null ? 1 : weight[i];
      if (leaf < 0 || slot < 0 || t < t0 || t >= t1 || Double.isNaN(w)) {
        continue;
      }
      cells[layout.base(leaf, slot) + layout.sliceOf(t) * types] += w;
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
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    for (int i = 0; i < count; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      double s = from[i] < t0 ? t0 : from[i]; // not Math.max/min (see stateDurations)
      double e = to[i] > t1 ? t1 : to[i];
      double v = value[i];
      if (leaf < 0 || slot < 0 || e <= s || v == 0) {
        continue;
      }
      spread(layout, hi, layout.base(leaf, slot), layout.sliceOf(s), s, e, v, cells);
    }
  }

  /**
   * Adds weight × overlap of [s, e) with each slice from {@code first} (the slice of s) on, in
   * the band ending at slice {@code hi}; returns the last slice touched. A weight of ±1 leaves
   * every overlap exact (x · 1 = x in floating point), so durations are plain sums.
   */
  static int spread(ModelLayout layout, int hi, int base, int first, double s, double e,
      double weight, double[] cells) {
    double[] bounds = layout.bounds();
    int types = layout.types();
    // Most records end in the slice they start in: one comparison spares the second search.
    if (e <= bounds[first + 1]) {
      cells[base + first * types] += weight * (e - s);
      return first;
    }
    int last = e >= bounds[hi] ? hi - 1 : layout.sliceOf(e);
    if (e == bounds[last]) {
      last--; // [s, e) ending exactly on a boundary does not enter the slice after it
    }
    cells[base + first * types] += weight * (bounds[first + 1] - s);
    for (int k = first + 1; k < last; k++) {
      cells[base + k * types] += weight * (bounds[k + 1] - bounds[k]);
    }
    cells[base + last * types] += weight * (e - bounds[last]);
    return last;
  }
}
