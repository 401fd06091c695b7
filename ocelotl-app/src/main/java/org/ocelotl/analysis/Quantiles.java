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
    return ranks(parts, parts.length, ks, new int[0])[0];
  }

  /**
   * The values of ranks {@code ks} among the values of {@code parts} taken as one, and of ranks
   * {@code tailKs} among those of {@code parts[tail..]} alone (not empty if {@code tailKs} is not),
   * in the same passes: a grouped type's figures and its "(others)" row's read the others' pool
   * once, not twice. The tail's values are counted in the same bins as all the values (bins made
   * for all of them still order the tail's), and copied out of the bins either asks for.
   */
  static double[][] ranks(double[][] parts, int tail, int[] ks, int[] tailKs) {
    int n = 0;
    int tailN = 0;
    for (int p = 0; p < parts.length; p++) {
      n += parts[p].length;
      tailN += p >= tail ? parts[p].length : 0;
    }
    if (n <= SORTED) {
      return new double[][] {sorted(parts, 0, ks), sorted(parts, tail, tailKs)};
    }
    long least = Long.MAX_VALUE;
    long most = Long.MIN_VALUE;
    for (int p = 0; p < tail; p++) {
      for (double x : parts[p]) {
        long k = key(x);
        least = Math.min(least, k);
        most = Math.max(most, k);
      }
    }
    long tailLeast = Long.MAX_VALUE;
    long tailMost = Long.MIN_VALUE;
    for (int p = tail; p < parts.length; p++) {
      for (double x : parts[p]) {
        long k = key(x);
        tailLeast = Math.min(tailLeast, k);
        tailMost = Math.max(tailMost, k);
      }
    }
    least = Math.min(least, tailLeast);
    most = Math.max(most, tailMost);
    // The least and the most are known now: the bins are for the ranks between.
    int last = n - 1;
    int[] between = Arrays.stream(ks).filter(k -> k > 0 && k < last).toArray();
    int tailLast = tailN - 1;
    int[] tailBetween = Arrays.stream(tailKs).filter(k -> k > 0 && k < tailLast).toArray();
    double[][] inside = between.length == 0 && tailBetween.length == 0 ? new double[][] {{}, {}}
        : inRange(parts, tailBetween.length == 0 ? parts.length : tail, least, most, between, tailBetween);
    double[] found = new double[ks.length];
    for (int i = 0, j = 0; i < ks.length; i++) {
      found[i] = ks[i] == 0 ? value(least) : ks[i] == last ? value(most) : inside[0][j++];
    }
    double[] tailFound = new double[tailKs.length];
    for (int i = 0, j = 0; i < tailKs.length; i++) {
      tailFound[i] = tailKs[i] == 0 ? value(tailLeast) : tailKs[i] == tailLast ? value(tailMost) : inside[1][j++];
    }
    return new double[][] {found, tailFound};
  }

  /** The ranks {@code ks} among the values of {@code parts[from..]}, by a sort of a copy (few values). */
  private static double[] sorted(double[][] parts, int from, int[] ks) {
    if (ks.length == 0) {
      return new double[0];
    }
    int n = 0;
    for (int p = from; p < parts.length; p++) {
      n += parts[p].length;
    }
    double[] v = new double[n];
    int at = 0;
    for (int p = from; p < parts.length; p++) {
      System.arraycopy(parts[p], 0, v, at, parts[p].length);
      at += parts[p].length;
    }
    Arrays.sort(v);
    double[] found = new double[ks.length];
    for (int i = 0; i < ks.length; i++) {
      found[i] = v[ks[i]];
    }
    return found;
  }

  /**
   * {@link #ranks}, of the values of {@code parts} and of {@code parts[tail..]} (no tail ranks when
   * {@code tail} is the parts' count), all lying in [least, most] (n > SORTED).
   */
  private static double[][] inRange(double[][] parts, int tail, long least, long most, int[] ks, int[] tailKs) {
    double[] found = new double[ks.length];
    double[] tailFound = new double[tailKs.length];
    if (least == most) {
      Arrays.fill(found, value(least));
      Arrays.fill(tailFound, value(least));
      return new double[][] {found, tailFound};
    }
    // Bins of 2^shift keys from least: at most 2^BIN_BITS of them (most − least as unsigned: it may exceed Long.MAX_VALUE).
    int shift = Math.max(0, Long.SIZE - Long.numberOfLeadingZeros(most - least) - BIN_BITS);
    int bins = (int) ((most - least) >>> shift) + 1;
    // The head's counts, then the tail's apart and added in: all the values' counts.
    int[] counts = new int[bins];
    for (int p = 0; p < tail; p++) {
      for (double x : parts[p]) {
        counts[(int) ((key(x) - least) >>> shift)]++;
      }
    }
    int[] tailCounts = new int[tail < parts.length ? bins : 0];
    for (int p = tail; p < parts.length; p++) {
      for (double x : parts[p]) {
        tailCounts[(int) ((key(x) - least) >>> shift)]++;
      }
    }
    int[] headCounts = tailCounts.length == 0 ? counts : counts.clone();
    for (int b = 0; b < tailCounts.length; b++) {
      counts[b] += tailCounts[b];
    }
    // Each rank's bin, and its rank among the bin's values (the counts before the bin below it).
    int[] binOf = new int[ks.length];
    int[] rankIn = new int[ks.length];
    binned(counts, ks, binOf, rankIn);
    int[] tailBinOf = new int[tailKs.length];
    int[] tailRankIn = new int[tailKs.length];
    binned(tailCounts, tailKs, tailBinOf, tailRankIn);
    int[] wanted = distinct(binOf, tailBinOf);
    int[] slot = new int[bins];
    Arrays.fill(slot, -1);
    // Per bin asked for, a copy of its head's values if all the values' ranks ask for it, and of its tail's.
    double[][] headIn = new double[wanted.length][];
    double[][] tailIn = new double[wanted.length][];
    for (int j = 0; j < wanted.length; j++) {
      int bin = wanted[j];
      slot[bin] = j;
      // A bin of one key needs no copy: its values are that key's.
      if (shift > 0) {
        headIn[j] = Arrays.stream(binOf).anyMatch(b -> b == bin) ? new double[headCounts[bin]] : null;
        tailIn[j] = tailCounts.length > 0 ? new double[tailCounts[bin]] : null;
      }
    }
    if (shift > 0) {
      int[] filled = new int[wanted.length];
      for (int p = 0; p < tail; p++) {
        for (double x : parts[p]) {
          int j = slot[(int) ((key(x) - least) >>> shift)];
          if (j >= 0 && headIn[j] != null) {
            headIn[j][filled[j]++] = x;
          }
        }
      }
      int[] tailFilled = new int[wanted.length];
      for (int p = tail; p < parts.length; p++) {
        for (double x : parts[p]) {
          int j = slot[(int) ((key(x) - least) >>> shift)];
          if (j >= 0) {
            tailIn[j][tailFilled[j]++] = x;
          }
        }
      }
    }
    for (int j = 0; j < wanted.length; j++) {
      int bin = wanted[j];
      int[] which = java.util.stream.IntStream.range(0, ks.length).filter(i -> binOf[i] == bin).toArray();
      int[] tailWhich = java.util.stream.IntStream.range(0, tailKs.length).filter(i -> tailBinOf[i] == bin).toArray();
      if (shift == 0) {
        for (int i : which) {
          found[i] = value(least + bin);
        }
        for (int i : tailWhich) {
          tailFound[i] = value(least + bin);
        }
        continue;
      }
      // A bin's copies are searched from their own least and most key: the values often span a sliver of the bin.
      double[][] in = headIn[j] == null ? new double[][] {tailIn[j]}
          : tailIn[j] == null ? new double[][] {headIn[j]} : new double[][] {headIn[j], tailIn[j]};
      double[][] values = ranks(in, headIn[j] == null ? 0 : 1,
          Arrays.stream(which).map(i -> rankIn[i]).toArray(), Arrays.stream(tailWhich).map(i -> tailRankIn[i]).toArray());
      for (int w = 0; w < which.length; w++) {
        found[which[w]] = values[0][w];
      }
      for (int w = 0; w < tailWhich.length; w++) {
        tailFound[tailWhich[w]] = values[1][w];
      }
    }
    return new double[][] {found, tailFound};
  }

  /** The bins of {@code a} and {@code b}, each once (a few ranks: no stream, a search of those kept). */
  private static int[] distinct(int[] a, int[] b) {
    int[] kept = new int[a.length + b.length];
    int n = 0;
    for (int[] bins : new int[][] {a, b}) {
      for (int bin : bins) {
        int k = 0;
        while (k < n && kept[k] != bin) {
          k++;
        }
        if (k == n) {
          kept[n++] = bin;
        }
      }
    }
    return Arrays.copyOf(kept, n);
  }

  /** Each rank's bin by the bins' counts, and its rank among the bin's values (the counts of the bins below). */
  private static void binned(int[] counts, int[] ks, int[] binOf, int[] rankIn) {
    for (int i = 0; i < ks.length; i++) {
      int below = 0;
      int b = 0;
      while (below + counts[b] <= ks[i]) {
        below += counts[b++];
      }
      binOf[i] = b;
      rankIn[i] = ks[i] - below;
    }
  }
}
