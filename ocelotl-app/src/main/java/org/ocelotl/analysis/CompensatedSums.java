package org.ocelotl.analysis;

/**
 * Sums kept as two doubles each (Knuth's two-sum: the rounded sum and what its rounding lost), so
 * that a sum of n terms is the exact sum rounded once, give or take n·2⁻¹⁰⁶ of the terms' magnitudes.
 * The order the terms come in then no longer shows in the last digits: the statistics of a Spark
 * import's dataset, whose records come in its tasks' order, equal the original trace's byte for
 * byte (issue 34, item 1), unless an exact sum lies within that margin of halfway between two
 * doubles.
 */
final class CompensatedSums {
  private final double[] high;
  private final double[] low;

  CompensatedSums(int size) {
    high = new double[size];
    low = new double[size];
  }

  void add(int k, double term) {
    double before = high[k];
    double sum = before + term;
    double back = sum - before;
    low[k] += (before - (sum - back)) + (term - back);
    high[k] = sum;
  }

  /** Adds {@code other}'s sums, cell by cell. */
  void addAll(CompensatedSums other) {
    for (int k = 0; k < high.length; k++) {
      add(k, other, k);
    }
  }

  /** Adds {@code other}'s sum {@code j} to sum {@code k}. */
  void add(int k, CompensatedSums other, int j) {
    add(k, other.high[j]);
    low[k] += other.low[j];
  }

  double get(int k) {
    return high[k] + low[k];
  }

  /**
   * The sum of the values of {@code parts}, as {@link #get} would give it. In {@value #LANES} lanes
   * (each part's values of index i mod {@value #LANES}), then added up as {@link #addAll} adds
   * partial sums: each two-sum waits only on the one before it in its lane, a chain of four
   * additions, so the lanes run at once instead of one after the other (millions of durations).
   */
  static double of(double[]... parts) {
    return of(parts, parts.length)[0];
  }

  /**
   * The sums of the values of {@code parts} and of {@code parts[tail..]} alone, the tail's read
   * once: its lanes are folded into its own sum and, after the head's lanes, into the whole's (a
   * grouping of the terms that shows only within the margin above, as the runs' partial sums do).
   */
  static double[] of(double[][] parts, int tail) {
    CompensatedSums head = lanes(parts, 0, tail);
    CompensatedSums rest = lanes(parts, tail, parts.length);
    CompensatedSums s = new CompensatedSums(2);
    for (int k = 0; k < LANES; k++) {
      s.add(0, head, k);
    }
    for (int k = 0; k < LANES; k++) {
      s.add(0, rest, k);
      s.add(1, rest, k);
    }
    return new double[] {s.get(0), s.get(1)};
  }

  /** The values of {@code parts[from..to)} in {@value #LANES} lanes, each the sum of the values of index i mod {@value #LANES}. */
  private static CompensatedSums lanes(double[][] parts, int from, int to) {
    CompensatedSums lanes = new CompensatedSums(LANES);
    for (int p = from; p < to; p++) {
      double[] values = parts[p];
      int i = 0;
      for (; i + LANES <= values.length; i += LANES) {
        lanes.add(0, values[i]);
        lanes.add(1, values[i + 1]);
        lanes.add(2, values[i + 2]);
        lanes.add(3, values[i + 3]);
      }
      for (; i < values.length; i++) {
        lanes.add(0, values[i]);
      }
    }
    return lanes;
  }

  private static final int LANES = 4;
}
