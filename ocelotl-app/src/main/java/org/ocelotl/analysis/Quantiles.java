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
    // One pass for every rank's band, in pieces of the values read in parallel; the pieces' counts
    // add up, and their values inside each band, joined in piece order, are those of one pass.
    int pieces = Math.min(MAX_PIECES, Math.max(1, n / PIECE));
    Bands[] parts = java.util.stream.IntStream.range(0, pieces).parallel()
        .mapToObj(p -> Bands.of(v, (int) ((long) n * p / pieces), (int) ((long) n * (p + 1) / pieces), low, high))
        .toArray(Bands[]::new);
    for (int i = 0; i < ks.length; i++) {
      long below = 0;
      long atLow = 0;
      long atHigh = 0;
      int inside = 0;
      for (Bands part : parts) {
        below += part.below[i];
        atLow += part.atLow[i];
        atHigh += part.atHigh[i];
        inside += part.inside[i];
      }
      long k = ks[i] - below;
      if (k >= 0 && k < atLow) {
        found[i] = low[i];
      } else if (k >= atLow && k < atLow + inside) {
        double[] values = new double[inside];
        int at = 0;
        for (Bands part : parts) {
          System.arraycopy(part.values[i], 0, values, at, part.inside[i]);
          at += part.inside[i];
        }
        found[i] = values[select(values, 0, inside, (int) (k - atLow))];
      } else if (k >= atLow + inside && k < atLow + inside + atHigh) {
        found[i] = high[i];
      } else {
        found[i] = v[select(v, 0, n, ks[i])]; // the sample missed the rank: the whole selection
      }
    }
    return found;
  }

  /** Values per piece of {@link #ranks}' pass: enough for each to be worth a task. */
  private static final int PIECE = 1 << 16;
  /** At most this many pieces: each keeps its own bands' values. */
  private static final int MAX_PIECES = 64;

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
   * What a pass over values {@code [from, to)} finds of each band [low[i], high[i]]: how many lie
   * below it, at either end, and those strictly inside, in the values' order. The ends are counted,
   * not kept: durations repeat, and a band of few distinct values (low = high, often) may hold
   * millions of them.
   */
  private record Bands(int[] below, int[] atLow, int[] atHigh, double[][] values, int[] inside) {
    static Bands of(double[] v, int from, int to, double[] low, double[] high) {
      int bands = low.length;
      Bands b = new Bands(new int[bands], new int[bands], new int[bands], new double[bands][], new int[bands]);
      for (int i = 0; i < bands; i++) {
        b.values[i] = new double[64];
      }
      if (bands == 3) {
        b.three(v, from, to, low, high); // the statistics' median, p90 and p99
      } else {
        for (int i = 0; i < bands; i++) {
          b.one(v, from, to, i, low[i], high[i]);
        }
      }
      return b;
    }

    /** Band {@code i} alone. */
    private void one(double[] v, int from, int to, int i, double low, double high) {
      // Counts in ints (a long accumulator made the loop 3× slower) and & rather than &&: each test
      // is a value, not a branch (x > low alone is a coin toss at the median).
      int below = 0;
      int atLow = 0;
      int atHigh = 0;
      boolean wide = high > low;
      for (int j = from; j < to; j++) {
        double x = v[j];
        below += x < low ? 1 : 0;
        atLow += x == low ? 1 : 0;
        atHigh += (x == high) & wide ? 1 : 0;
        if ((x > low) & (x < high)) {
          keep(i, x);
        }
      }
      this.below[i] = below;
      this.atLow[i] = atLow;
      this.atHigh[i] = atHigh;
    }

    /** Three bands in one pass over the values (read once, not three times), as {@link #one} each. */
    private void three(double[] v, int from, int to, double[] low, double[] high) {
      double low0 = low[0];
      double high0 = high[0];
      double low1 = low[1];
      double high1 = high[1];
      double low2 = low[2];
      double high2 = high[2];
      boolean wide0 = high0 > low0;
      boolean wide1 = high1 > low1;
      boolean wide2 = high2 > low2;
      int below0 = 0;
      int atLow0 = 0;
      int atHigh0 = 0;
      int below1 = 0;
      int atLow1 = 0;
      int atHigh1 = 0;
      int below2 = 0;
      int atLow2 = 0;
      int atHigh2 = 0;
      for (int j = from; j < to; j++) {
        double x = v[j];
        below0 += x < low0 ? 1 : 0;
        atLow0 += x == low0 ? 1 : 0;
        atHigh0 += (x == high0) & wide0 ? 1 : 0;
        below1 += x < low1 ? 1 : 0;
        atLow1 += x == low1 ? 1 : 0;
        atHigh1 += (x == high1) & wide1 ? 1 : 0;
        below2 += x < low2 ? 1 : 0;
        atLow2 += x == low2 ? 1 : 0;
        atHigh2 += (x == high2) & wide2 ? 1 : 0;
        if ((x > low0) & (x < high0)) {
          keep(0, x);
        }
        if ((x > low1) & (x < high1)) {
          keep(1, x);
        }
        if ((x > low2) & (x < high2)) {
          keep(2, x);
        }
      }
      below[0] = below0;
      atLow[0] = atLow0;
      atHigh[0] = atHigh0;
      below[1] = below1;
      atLow[1] = atLow1;
      atHigh[1] = atHigh1;
      below[2] = below2;
      atLow[2] = atLow2;
      atHigh[2] = atHigh2;
    }

    private void keep(int i, double x) {
      if (inside[i] == values[i].length) {
        // By hand: the band grows within the pass over the values (hot path, decision 032).
        values[i] = Arrays.copyOf(values[i], inside[i] * 2);
      }
      values[i][inside[i]++] = x;
    }
  }
}
