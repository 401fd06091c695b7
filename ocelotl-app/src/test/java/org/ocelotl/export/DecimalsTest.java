package org.ocelotl.export;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Decimals} against the formatter it stands in for, character for character. */
class DecimalsTest {
  private static final long SEED = 20261128L;

  /** What OverviewPicture.number wrote before Decimals, for non-integers. */
  private static String formatted4(double v) {
    String s = String.format(Locale.ROOT, "%.4g", v);
    if (s.contains("e")) {
      return s.replaceAll("\\.?0+e", "e");
    }
    return s.contains(".") ? s.replaceAll("\\.?0+$", "") : s;
  }

  /**
   * Values of every magnitude the pictures meet, both signs, and the hard ones: decimal ties
   * (x.xx5 written in decimal, so the double is a hair above or below), ties of the binary kind
   * (0.125, and fractions of powers of two at random, as a picture's row edges are), neighbours of powers of ten and of the fast path's limits, zero, NaN, infinities.
   */
  private static List<Double> values() {
    SplittableRandom random = new SplittableRandom(SEED);
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      double magnitude = Math.pow(10, random.nextInt(-9, 13));
      double v = random.nextDouble() * magnitude;
      values.add(random.nextBoolean() ? v : -v);
      // A tie in decimal at 0 to 7 decimals, and its two neighbouring doubles.
      long units = random.nextLong(0, 100_000_000L);
      double tie = Double.parseDouble(units + "5e-" + (1 + random.nextInt(8)));
      values.add(tie);
      values.add(Math.nextUp(tie));
      values.add(-Math.nextDown(tie));
      // A fraction of a power of two: an exact tie at some number of decimals (0.375 at 2).
      double dyadic = random.nextLong(0, 1L << 40) / (double) (1L << random.nextInt(1, 24));
      values.add(random.nextBoolean() ? dyadic : -dyadic);
    }
    // A picture's row edges: 64 + 420·k/768 px is a tie at 2 decimals for every eighth k.
    for (int k = 0; k <= 768; k++) {
      values.add(64 + 420.0 * k / 768);
    }
    for (int e = -10; e <= 12; e++) {
      double p = Math.pow(10, e);
      for (double v : new double[] {p, Math.nextUp(p), Math.nextDown(p), 9.9995 * p, 9.99949 * p, 9.99951 * p}) {
        values.add(v);
        values.add(-v);
      }
    }
    for (double v : new double[] {0.0, -0.0, 0.125, 0.375, 2.5, 1.005, 9999.5, 9999.499999, 1e9, 1e9 - 0.5,
        Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      values.add(v);
      values.add(-v);
    }
    return values;
  }

  @Test
  void fixedWritesWhatTheFormatterWrites() {
    for (double v : values()) {
      for (int decimals = 0; decimals <= 7; decimals++) {
        assertEquals(String.format(Locale.ROOT, "%." + decimals + "f", v), Decimals.fixed(v, decimals),
            "%." + decimals + "f of " + v + " (seed " + SEED + ")");
      }
    }
  }

  @Test
  void significant4WritesWhatTheFormatterAndTheZerosRemovalWrote() {
    for (double v : values()) {
      assertEquals(formatted4(v), Decimals.significant4(v), "%.4g of " + v + " (seed " + SEED + ")");
    }
  }

  @Test
  void examples() {
    assertEquals("0.13", Decimals.fixed(0.125, 2));
    assertEquals("-0.00", Decimals.fixed(-0.001, 2));
    assertEquals("1.01", Decimals.fixed(1.005, 2)); // its digits "1.005", rounded half up
    assertEquals("0.1235", Decimals.significant4(0.123456));
    assertEquals("12.5", Decimals.significant4(12.5));
    assertEquals("10", Decimals.significant4(9.99996));
    assertEquals("1e+04", Decimals.significant4(9999.6));
    assertEquals("1.5e-05", Decimals.significant4(0.000015));
  }
}
