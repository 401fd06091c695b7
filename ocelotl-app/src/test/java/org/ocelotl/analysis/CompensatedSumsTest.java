package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The compensated sums are the exact sum rounded to the nearest double (checked against
 * BigDecimal), whatever the order of the terms and however they are split into partial sums and
 * added back: what makes the statistics of a dataset in another record order the same bytes.
 */
class CompensatedSumsTest {
  @Test
  void theSumIsTheExactOneRoundedWhateverTheOrderAndTheSplit() {
    SplittableRandom random = new SplittableRandom(20261129);
    int naiveDiffered = 0;
    for (int trial = 0; trial < 300; trial++) {
      int n = 1 + random.nextInt(3000);
      boolean signed = trial % 3 == 0; // variables' value × time can be negative
      double[] terms = new double[n];
      for (int i = 0; i < n; i++) {
        // Durations from nanoseconds to seconds, as decimal times subtracted give them.
        double t = random.nextDouble() * Math.pow(10, -9 + random.nextInt(10));
        terms[i] = signed && random.nextBoolean() ? -t : t;
      }
      double sum = CompensatedSums.of(terms);
      assertNearest(terms, sum, "trial " + trial);

      double[] shuffled = terms.clone();
      for (int i = n - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        double swap = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = swap;
      }
      assertEquals(sum, CompensatedSums.of(shuffled), "trial " + trial + ", shuffled");

      // A head and a tail (a grouped type's shown groups and its others), summed in one read of the tail.
      int cut = random.nextInt(n + 1);
      double[][] split = {java.util.Arrays.copyOf(shuffled, cut), java.util.Arrays.copyOfRange(shuffled, cut, n)};
      double[] both = CompensatedSums.of(split, 1);
      assertEquals(sum, both[0], "trial " + trial + ", head and tail");
      assertNearest(split[1], both[1], "trial " + trial + ", tail");

      // Split into runs, each summed alone, then added in order as the statistics' merge does.
      CompensatedSums merged = new CompensatedSums(2);
      int i = 0;
      while (i < n) {
        int end = Math.min(n, i + 1 + random.nextInt(500));
        CompensatedSums run = new CompensatedSums(2);
        for (; i < end; i++) {
          run.add(1, shuffled[i]);
        }
        merged.addAll(run);
      }
      assertEquals(sum, merged.get(1), "trial " + trial + ", in runs");
      assertEquals(0, merged.get(0));

      double naive = 0;
      for (double t : shuffled) {
        naive += t;
      }
      naiveDiffered += naive == sum ? 0 : 1;
    }
    // The test can tell: plain sums in another order differ in most trials.
    assertTrue(naiveDiffered > 150, naiveDiffered + " of 300 naive sums differed");
  }

  /** {@code sum} is the double nearest the exact sum of {@code terms}. */
  private static void assertNearest(double[] terms, double sum, String what) {
    BigDecimal exact = BigDecimal.ZERO;
    for (double t : terms) {
      exact = exact.add(new BigDecimal(t));
    }
    BigDecimal error = exact.subtract(new BigDecimal(sum)).abs();
    assertTrue(error.compareTo(exact.subtract(new BigDecimal(Math.nextUp(sum))).abs()) <= 0, what + ": " + sum);
    assertTrue(error.compareTo(exact.subtract(new BigDecimal(Math.nextDown(sum))).abs()) <= 0, what + ": " + sum);
  }
}
