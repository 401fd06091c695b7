package org.ocelotl.analysis;

import java.util.Arrays;

/**
 * The values of given ranks among doubles, as a sort would place them ({@link Double#compare}'s
 * order), without sorting them: a radix selection on the values' {@link #key}s, whose order is the
 * values'. A pass finds the least and the most key; a second counts the values per bin of 2¹⁶
 * bins that span them, which tells the bin each rank falls in and its rank there; a third copies
 * out the bins asked for, and each is searched the same way, its bins 2¹⁶ times narrower, until a
 * bin holds one key (durations repeat: a trace's states often last the same few ticks, and the
 * copies of one value are then counted, not sorted) or few values, which are sorted. At the seeds'
 * scale a 1 s window holds 1.6·10⁷ durations of three types: sorting them was half the statistics'
 * time, a pass per rank after a sample (Floyd and Rivest's bands) and a selection in each band
 * still a third.
 */
final class Quantiles {
  private Quantiles() {}

  /** At most this many values: a sort of a copy. */
  private static final int SORTED = 1 << 12;
  /** The bins a range of keys is cut into. */
  private static final int BIN_BITS = 16;

  /**
   * A double as a long whose signed order is {@link Double#compare}'s: every bit but the sign
   * flipped for negative values (a larger magnitude, a smaller key); -0.0 below 0.0, NaN above +∞,
   * as a sort places them.
   */
  static long key(double x) {
    long bits = Double.doubleToLongBits(x);
    return bits ^ (bits >> 63 & Long.MAX_VALUE);
  }

  /** The double of a {@link #key}: flipping the same bits again. */
  static double value(long key) {
    return Double.longBitsToDouble(key ^ (key >> 63 & Long.MAX_VALUE));
  }

  /**
   * The values of ranks {@code ks} (0-based, each in [0, n)) among the values of {@code parts}
   * taken as one array of n values; the parts are only read.
   */
  static double[] ranks(double[][] parts, int... ks) {
    int n = 0;
    for (double[] p : parts) {
      n += p.length;
    }
    if (n <= SORTED) {
      double[] v = new double[n];
      int at = 0;
      for (double[] p : parts) {
        System.arraycopy(p, 0, v, at, p.length);
        at += p.length;
      }
      Arrays.sort(v);
      double[] found = new double[ks.length];
      for (int i = 0; i < ks.length; i++) {
        found[i] = v[ks[i]];
      }
      return found;
    }
    long least = Long.MAX_VALUE;
    long most = Long.MIN_VALUE;
    for (double[] p : parts) {
      for (double x : p) {
        long k = key(x);
        least = Math.min(least, k);
        most = Math.max(most, k);
      }
    }
    // The least and the most are known now: the bins are for the ranks between.
    double[] found = new double[ks.length];
    int last = n - 1;
    int[] between = Arrays.stream(ks).filter(k -> k > 0 && k < last).toArray();
    double[] inside = between.length == 0 ? new double[0] : inRange(parts, least, most, between);
    for (int i = 0, j = 0; i < ks.length; i++) {
      found[i] = ks[i] == 0 ? value(least) : ks[i] == last ? value(most) : inside[j++];
    }
    return found;
  }

  /** {@link #ranks}, the keys of the values of {@code parts} lying in [least, most] (n > SORTED). */
  private static double[] inRange(double[][] parts, long least, long most, int[] ks) {
    double[] found = new double[ks.length];
    if (least == most) {
      Arrays.fill(found, value(least));
      return found;
    }
    // Bins of 2^shift keys from least: at most 2^BIN_BITS of them (most − least as unsigned: it may exceed Long.MAX_VALUE).
    int shift = Math.max(0, Long.SIZE - Long.numberOfLeadingZeros(most - least) - BIN_BITS);
    int[] counts = new int[(int) ((most - least) >>> shift) + 1];
    for (double[] p : parts) {
      for (double x : p) {
        counts[(int) ((key(x) - least) >>> shift)]++;
      }
    }
    // Each rank's bin, and its rank among the bin's values (the counts before the bin below it).
    int[] binOf = new int[ks.length];
    int[] rankIn = new int[ks.length];
    for (int i = 0; i < ks.length; i++) {
      int below = 0;
      int b = 0;
      while (below + counts[b] <= ks[i]) {
        below += counts[b++];
      }
      binOf[i] = b;
      rankIn[i] = ks[i] - below;
    }
    int[] wanted = Arrays.stream(binOf).distinct().toArray();
    int[] slot = new int[counts.length];
    Arrays.fill(slot, -1);
    double[][] inBin = new double[wanted.length][];
    for (int j = 0; j < wanted.length; j++) {
      slot[wanted[j]] = j;
      // A bin of one key needs no copy: its values are that key's.
      inBin[j] = shift == 0 ? null : new double[counts[wanted[j]]];
    }
    if (shift > 0) {
      int[] filled = new int[wanted.length];
      for (double[] p : parts) {
        for (double x : p) {
          int j = slot[(int) ((key(x) - least) >>> shift)];
          if (j >= 0) {
            inBin[j][filled[j]++] = x;
          }
        }
      }
    }
    for (int j = 0; j < wanted.length; j++) {
      int bin = wanted[j];
      int[] which = java.util.stream.IntStream.range(0, ks.length).filter(i -> binOf[i] == bin).toArray();
      int[] within = Arrays.stream(which).map(i -> rankIn[i]).toArray();
      // A bin's copy is searched from its own least and most key: the values often span a sliver of it.
      double[] values = shift == 0 ? null : ranks(new double[][] {inBin[j]}, within);
      for (int w = 0; w < which.length; w++) {
        found[which[w]] = shift == 0 ? value(least + bin) : values[w];
      }
    }
    return found;
  }
}
