package org.ocelotl.analysis;

import java.util.Arrays;

/**
 * The values of given ranks among doubles, as a sort would place them, without sorting them all:
 * {@link #ranks} reads the values once per rank after a sample has bracketed it in a narrow band
 * (Floyd and Rivest's idea), then selects within the bands; {@link #select} is quickselect with
 * a three-way partition (durations repeat: a trace's states often last the same few ticks),
 * sorting the range instead when the partitions stay unbalanced, so that the worst case is a
 * sort's and the usual one linear. At the seeds' scale a 1 s window holds 1.6·10⁷ durations of
 * one type: sorting them was half the statistics' time, three quickselects still a third.
 */
final class Quantiles {
  private Quantiles() {}

  /** Below this many values, a sort. */
  private static final int SORTED = 1 << 12;

  /**
   * The values of ranks {@code ks} (0-based, each in [0, n)) among {@code v[0, n)}, which it
   * may reorder.
   */
  static double[] ranks(double[] v, int n, int... ks) {
    double[] found = new double[ks.length];
    if (n <= SORTED) {
      Arrays.sort(v, 0, n);
      for (int i = 0; i < ks.length; i++) {
        found[i] = v[ks[i]];
      }
      return found;
    }
    // A sample of about n^(2/3) values at an even stride; each rank's band spans a few standard
    // deviations of its position in the sample either side, so it holds the rank but for bad luck.
    int stride = Math.max(1, (int) (n / Math.pow(n, 2.0 / 3)));
    int size = n / stride;
    double[] sample = new double[size];
    for (int i = 0; i < size; i++) {
      sample[i] = v[i * stride];
    }
    Arrays.sort(sample);
    int gap = (int) Math.ceil(3 * Math.sqrt(size));
    double[] low = new double[ks.length];
    double[] high = new double[ks.length];
    for (int i = 0; i < ks.length; i++) {
      int at = (int) ((long) ks[i] * size / n);
      low[i] = sample[Math.max(0, at - gap)];
      high[i] = sample[Math.min(size - 1, at + gap)];
    }
    // One pass per rank, the ranks' passes in parallel (they only read the values).
    Band[] bands = java.util.stream.IntStream.range(0, ks.length).parallel()
        .mapToObj(i -> Band.of(v, n, low[i], high[i])).toArray(Band[]::new);
    for (int i = 0; i < ks.length; i++) {
      Band b = bands[i];
      long k = ks[i] - b.below;
      if (k >= 0 && k < b.atLow) {
        found[i] = b.low;
      } else if (k >= b.atLow && k < b.atLow + b.inside) {
        found[i] = b.values[select(b.values, 0, b.inside, (int) (k - b.atLow))];
      } else if (k >= b.atLow + b.inside && k < b.atLow + b.inside + b.atHigh) {
        found[i] = b.high;
      } else {
        found[i] = v[select(v, 0, n, ks[i])]; // the sample missed the rank: the whole selection
      }
    }
    return found;
  }

  /**
   * Reorders {@code v[from, to)} so that {@code v[k]} holds the value of rank {@code k} (0-based,
   * as after sorting the range), those before it are ≤ it and those after ≥ it.
   *
   * @return k
   */
  static int select(double[] v, int from, int to, int k) {
    if (k < from || k >= to) {
      throw new IllegalArgumentException("rank " + k + " outside [" + from + ", " + to + ")");
    }
    int lo = from;
    int hi = to - 1;
    // Each step should leave at most about 3/4 of the range; beyond this many steps, sort.
    int steps = 2 * (32 - Integer.numberOfLeadingZeros(to - from)) + 8;
    while (hi > lo) {
      if (steps-- == 0) {
        Arrays.sort(v, lo, hi + 1);
        return k;
      }
      double pivot = medianOfThree(v[lo], v[lo + (hi - lo) / 2], v[hi]);
      // Dijkstra's partition: [lo, lt) < pivot, [lt, gt] = pivot, (gt, hi] > pivot.
      int lt = lo;
      int i = lo;
      int gt = hi;
      while (i <= gt) {
        double x = v[i];
        if (x < pivot) {
          v[i++] = v[lt];
          v[lt++] = x;
        } else if (x > pivot) {
          v[i] = v[gt];
          v[gt--] = x;
        } else {
          i++;
        }
      }
      if (k < lt) {
        hi = lt - 1;
      } else if (k > gt) {
        lo = gt + 1;
      } else {
        return k;
      }
    }
    return k;
  }

  private static double medianOfThree(double a, double b, double c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  /**
   * What a pass over the values finds of a band [low, high]: how many lie below it, at either end,
   * and those strictly inside. The ends are counted, not kept: durations repeat, and a band of few
   * distinct values (low = high, often) may hold millions of them.
   */
  private record Band(double low, double high, int below, int atLow, int atHigh, double[] values, int inside) {
    static Band of(double[] v, int n, double low, double high) {
      // Counts in ints (a long accumulator made the loop 3× slower) and & rather than &&: each test
      // is a value, not a branch (x > low alone is a coin toss at the median).
      int below = 0;
      int atLow = 0;
      int atHigh = 0;
      double[] values = new double[1024];
      int inside = 0;
      boolean wide = high > low;
      for (int j = 0; j < n; j++) {
        double x = v[j];
        below += x < low ? 1 : 0;
        atLow += x == low ? 1 : 0;
        atHigh += (x == high) & wide ? 1 : 0;
        if ((x > low) & (x < high)) {
          if (inside == values.length) {
            // By hand: the band grows within the pass over the values (hot path, decision 032).
            values = Arrays.copyOf(values, inside * 2);
          }
          values[inside++] = x;
        }
      }
      return new Band(low, high, below, atLow, atHigh, values, inside);
    }
  }
}
