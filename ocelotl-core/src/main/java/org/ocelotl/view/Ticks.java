package org.ocelotl.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Axis ticks at "nice" values (1, 2 or 5 times a power of ten). */
public final class Ticks {
  private Ticks() {}

  /**
   * Ticks for the values in [lo, hi], at most {@code maxTicks} of them (the renderer derives it
   * from the axis length in pixels), at least one step apart.
   */
  public static List<Tick> nice(double lo, double hi, int maxTicks) {
    if (!(hi > lo) || maxTicks < 2) {
      throw new IllegalArgumentException("ticks need lo < hi and maxTicks ≥ 2, got [" + lo + ", " + hi + "], " + maxTicks);
    }
    double step = niceStep((hi - lo) / (maxTicks - 1));
    // Snap to the step grid; the epsilon keeps a tick that rounding pushed just outside [lo, hi].
    double epsilon = step * 1e-9;
    long firstIndex = (long) Math.ceil((lo - epsilon) / step);
    long lastIndex = (long) Math.floor((hi + epsilon) / step);
    List<Tick> ticks = new ArrayList<>();
    for (long k = firstIndex; k <= lastIndex; k++) {
      double value = k * step;
      ticks.add(new Tick((value - lo) / (hi - lo), value, label(value, step)));
    }
    return ticks;
  }

  /** The smallest of 1, 2, 5 × 10^k that is ≥ rough. */
  static double niceStep(double rough) {
    double power = Math.pow(10, Math.floor(Math.log10(rough)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= rough * (1 - 1e-12)) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** A label with just the decimals the step needs; exponent notation for huge or tiny steps. */
  static String label(double value, double step) {
    if (Math.abs(value) < step * 1e-6) {
      return "0";
    }
    int stepExponent = (int) Math.floor(Math.log10(step) + 1e-9);
    if (stepExponent >= 6 || stepExponent <= -5) {
      int exponent = (int) Math.floor(Math.log10(Math.abs(value)) + 1e-9);
      int decimals = Math.max(0, exponent - stepExponent);
      String mantissa = String.format(Locale.ROOT, "%." + decimals + "f", value / Math.pow(10, exponent));
      // 1.0e9 next to 1.5e9 reads as noise: drop zeros the value does not need.
      return mantissa.replaceAll("\\.?0+$", "") + "e" + exponent;
    }
    int decimals = Math.max(0, -stepExponent);
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
