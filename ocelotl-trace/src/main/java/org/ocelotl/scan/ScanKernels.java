package org.ocelotl.scan;

/**
 * The loops that turn columns of records into model cells: the hot path of every model
 * build, the same code whichever engine (local threads, Spark) hands it the columns. Each
 * kernel adds into {@code cells} (indexed as {@link ModelLayout}) and allocates nothing.
 */
public final class ScanKernels {
  private ScanKernels() {}

  /**
   * Adds to each slice the part of each state that lies inside it; when {@code touches} is
   * not null, also adds 1 to it per (state, slice) the state overlaps (for average durations).
   * States of filtered producers or types, and states outside the window, are skipped.
   */
  public static void stateDurations(ModelLayout layout, int count, int[] producer, int[] type,
      double[] start, double[] end, double[] cells, double[] touches) {
    SliceGrid grid = layout.grid();
    double t0 = grid.start();
    double t1 = grid.end();
    int types = layout.types();
    for (int i = 0; i < count; i++) {
      int leaf = layout.leafOf()[producer[i]];
      int slot = layout.typeOf()[type[i]];
      double s = start[i];
      double e = end[i];
      // Skip what lies outside [t0, t1); an instantaneous state at t0 is inside.
      if (leaf < 0 || slot < 0 || s >= t1 || e < t0 || (e == t0 && s < e)) {
        continue;
      }
      s = Math.max(s, t0);
      e = Math.min(e, t1);
      int base = layout.base(leaf, slot);
      int first = grid.sliceOf(s);
      if (e <= s) {
        // An instantaneous state still "touches" its slice for the average, adding no time.
        if (touches != null) {
          touches[base + first * types] += 1;
        }
        continue;
      }
      int last = e >= t1 ? grid.slices() - 1 : grid.sliceOf(e);
      if (last > first && e == grid.boundary(last)) {
        last--; // [s, e) ends exactly on a boundary: it does not enter slice `last`.
      }
      if (first == last) {
        cells[base + first * types] += e - s;
      } else {
        cells[base + first * types] += grid.boundary(first + 1) - s;
        for (int k = first + 1; k < last; k++) {
          cells[base + k * types] += grid.boundary(k + 1) - grid.boundary(k);
        }
        cells[base + last * types] += e - grid.boundary(last);
      }
      if (touches != null) {
        for (int k = first; k <= last; k++) {
          touches[base + k * types] += 1;
        }
      }
    }
  }

  /** Adds 1 per record to the slice of its time; used for punctual events and for links (by start). */
  public static void occurrences(ModelLayout layout, int count, int[] producer, int[] type,
      double[] time, double[] cells) {
    SliceGrid grid = layout.grid();
    double t0 = grid.start();
    double t1 = grid.end();
    int types = layout.types();
    for (int i = 0; i < count; i++) {
      int leaf = layout.leafOf()[producer[i]];
      int slot = layout.typeOf()[type[i]];
      double t = time[i];
      if (leaf < 0 || slot < 0 || t < t0 || t >= t1) {
        continue;
      }
      cells[layout.base(leaf, slot) + grid.sliceOf(t) * types] += 1;
    }
  }

  /**
   * Adds value × overlap for each step [from, to) of a variable. Divided by the slice width
   * at the end, the sum is the time-weighted mean of the variable over the slice.
   */
  public static void steps(ModelLayout layout, int count, int[] producer, int[] type,
      double[] from, double[] to, double[] value, double[] cells) {
    SliceGrid grid = layout.grid();
    double t0 = grid.start();
    double t1 = grid.end();
    int types = layout.types();
    for (int i = 0; i < count; i++) {
      int leaf = layout.leafOf()[producer[i]];
      int slot = layout.typeOf()[type[i]];
      double s = Math.max(from[i], t0);
      double e = Math.min(to[i], t1);
      double v = value[i];
      if (leaf < 0 || slot < 0 || e <= s || v == 0) {
        continue;
      }
      int base = layout.base(leaf, slot);
      int first = grid.sliceOf(s);
      int last = e >= t1 ? grid.slices() - 1 : grid.sliceOf(e);
      if (last > first && e == grid.boundary(last)) {
        last--;
      }
      if (first == last) {
        cells[base + first * types] += v * (e - s);
      } else {
        cells[base + first * types] += v * (grid.boundary(first + 1) - s);
        for (int k = first + 1; k < last; k++) {
          cells[base + k * types] += v * (grid.boundary(k + 1) - grid.boundary(k));
        }
        cells[base + last * types] += v * (e - grid.boundary(last));
      }
    }
  }
}
