package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantilesTest {
  /** Every rank of seeded arrays — distinct, few repeated values, sorted, reversed, organ pipes — against a sort. */
  @Test
  void selectsTheValueOfEachRankAsASortWould() {
    Random random = new Random(29);
    for (int round = 0; round < 400; round++) {
      int n = 1 + random.nextInt(round < 200 ? 40 : 3000);
      double[] v = new double[n];
      int shape = round % 5;
      for (int i = 0; i < n; i++) {
        v[i] = switch (shape) {
          case 0 -> random.nextDouble();
          case 1 -> random.nextInt(3);
          case 2 -> i;
          case 3 -> n - i;
          default -> Math.min(i, n - i);
        };
      }
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      int k = random.nextInt(n);
      double[] w = v.clone();
      assertEquals(k, Quantiles.select(w, 0, n, k));
      assertEquals(sorted[k], w[k], "round " + round + ", rank " + k);
      for (int i = 0; i < n; i++) {
        assertTrue(i < k ? w[i] <= w[k] : w[i] >= w[k], "round " + round + ": " + i + " on the wrong side of " + k);
      }
      double[] back = w.clone();
      Arrays.sort(back);
      assertEquals(Arrays.toString(sorted), Arrays.toString(back), "a permutation of the input");
      // A second selection below the first, as the statistics narrow p99 → p90 → median.
      int j = random.nextInt(k + 1);
      Quantiles.select(w, 0, k + 1, j);
      assertEquals(sorted[j], w[j], "round " + round + ", rank " + j + " within [0, " + k + "]");
    }
  }

  /**
   * The ranks the statistics ask for (median, p90, p99) and random ones, on seeded arrays above
   * the sort's threshold, against a sort: including values that repeat, and arrays whose sampled
   * positions all hold the least value, so that the bands miss and the whole selection answers.
   */
  @Test
  void ranksEqualASortsOnLargeArrays() {
    Random random = new Random(28);
    for (int round = 0; round < 60; round++) {
      int n = 4097 + random.nextInt(round < 30 ? 5000 : 200_000);
      double[] v = new double[n];
      int shape = round % 4;
      int stride = (int) (n / Math.pow(n, 2.0 / 3)); // Quantiles.ranks's sample
      for (int i = 0; i < n; i++) {
        v[i] = switch (shape) {
          case 0 -> random.nextDouble();
          case 1 -> random.nextInt(5) * 0.25;
          case 2 -> Math.exp(random.nextGaussian() * 3);
          default -> i % stride == 0 ? 0 : 1 + random.nextDouble(); // the sample: all 0, the bands miss
        };
      }
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      int[] ks = {(50 * n + 99) / 100 - 1, (90 * n + 99) / 100 - 1, (99 * n + 99) / 100 - 1, random.nextInt(n)};
      double[] found = Quantiles.ranks(v.clone(), n, ks);
      for (int i = 0; i < ks.length; i++) {
        assertEquals(sorted[ks[i]], found[i], "round " + round + ", rank " + ks[i] + " of " + n);
      }
    }
  }
}
