package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantilesTest {
  /**
   * The ranks the statistics ask for (least, median, p90, p99, most) and random ones, on seeded
   * values split into parts at random, against a sort of their concatenation: below and above the
   * sort's threshold; distinct values, few repeated ones, values a few ulps apart (the bins narrow
   * down several times), durations from nanoseconds to seconds, negative and positive values with
   * -0.0 and 0.0 (keys whose range exceeds a long's), sorted and reversed. The same with the ranks
   * of the parts from a random one on, asked in the same call.
   */
  @Test
  void ranksEqualASortsOfThePartsTakenAsOne() {
    Random random = new Random(28);
    for (int round = 0; round < 240; round++) {
      int n = 1 + random.nextInt(round < 80 ? 4096 : round < 200 ? 20_000 : 200_000);
      double[] v = new double[n];
      int shape = round % 8;
      for (int i = 0; i < n; i++) {
        v[i] = switch (shape) {
          case 0 -> random.nextDouble();
          case 1 -> random.nextInt(5) * 0.25;
          case 2 -> 2.1113e-5 + random.nextInt(7) * Math.ulp(5.0); // one duration, as times subtracted round it
          case 3 -> Math.exp(random.nextGaussian() * 3);
          case 4 -> random.nextDouble() * Math.pow(10, -9 + random.nextInt(10));
          case 5 -> random.nextInt(9) == 0 ? (random.nextBoolean() ? -0.0 : 0.0) : -1e300 + random.nextDouble() * 2e300;
          case 6 -> i;
          default -> n - i;
        };
      }
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      int[] ks = {0, (50 * n + 99) / 100 - 1, (90 * n + 99) / 100 - 1, (99 * n + 99) / 100 - 1, n - 1,
          random.nextInt(n)};
      double[][] parts = split(v, random);
      double[] found = Quantiles.ranks(parts, ks);
      for (int i = 0; i < ks.length; i++) {
        // Compared as bits: -0.0 and 0.0 are told apart, as the sort tells them.
        assertEquals(Double.doubleToLongBits(sorted[ks[i]]), Double.doubleToLongBits(found[i]),
            "round " + round + " (seed 28), shape " + shape + ", rank " + ks[i] + " of " + n + " in "
                + parts.length + " parts: " + sorted[ks[i]] + " expected, " + found[i] + " found");
      }
      // And of the parts from a random one on (a grouped type's others) with all of them, in the same passes.
      int tail = random.nextInt(parts.length + 1);
      double[] tailSorted = concatenation(Arrays.copyOfRange(parts, tail, parts.length));
      Arrays.sort(tailSorted);
      int t = tailSorted.length;
      int[] tailKs = t == 0 ? new int[0] : new int[] {0, (50 * t + 99) / 100 - 1, (90 * t + 99) / 100 - 1,
          (99 * t + 99) / 100 - 1, t - 1, random.nextInt(t)};
      double[][] both = Quantiles.ranks(parts, tail, ks, tailKs);
      for (int i = 0; i < ks.length; i++) {
        assertEquals(Double.doubleToLongBits(sorted[ks[i]]), Double.doubleToLongBits(both[0][i]),
            "round " + round + ", rank " + ks[i] + " of all, tail from part " + tail);
      }
      for (int i = 0; i < tailKs.length; i++) {
        assertEquals(Double.doubleToLongBits(tailSorted[tailKs[i]]), Double.doubleToLongBits(both[1][i]),
            "round " + round + ", rank " + tailKs[i] + " of the tail from part " + tail + " of " + parts.length);
      }
      assertArrayEquals(v, concatenation(parts), "the parts are only read");
    }
  }

  /** The keys are in the values' order, and give the values back. */
  @Test
  void keysOrderTheValuesAsDoubleCompare() {
    double[] v = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE,
        1, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN};
    for (int i = 0; i < v.length; i++) {
      assertEquals(Double.doubleToLongBits(v[i]), Double.doubleToLongBits(Quantiles.value(Quantiles.key(v[i]))));
      for (int j = 0; j < v.length; j++) {
        assertEquals(Integer.signum(Double.compare(v[i], v[j])), Long.signum(Long.compare(Quantiles.key(v[i]),
            Quantiles.key(v[j]))), v[i] + " against " + v[j]);
      }
    }
  }

  /** {@code v} cut at random places into 1 to 4 parts, some of them empty. */
  private static double[][] split(double[] v, Random random) {
    int parts = 1 + random.nextInt(4);
    int[] cuts = new int[parts + 1];
    for (int i = 1; i < parts; i++) {
      cuts[i] = random.nextInt(v.length + 1);
    }
    cuts[parts] = v.length;
    Arrays.sort(cuts);
    double[][] split = new double[parts][];
    for (int i = 0; i < parts; i++) {
      split[i] = Arrays.copyOfRange(v, cuts[i], cuts[i + 1]);
    }
    return split;
  }

  private static double[] concatenation(double[][] parts) {
    return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
  }
}
