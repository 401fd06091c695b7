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
      add(k, other.high[k]);
      low[k] += other.low[k];
    }
  }

  double get(int k) {
    return high[k] + low[k];
  }

  /** The sum of {@code values[0, n)}, as {@link #get} would give it. */
  static double of(double[] values, int n) {
    CompensatedSums s = new CompensatedSums(1);
    for (int i = 0; i < n; i++) {
      s.add(0, values[i]);
    }
    return s.get(0);
  }
}
