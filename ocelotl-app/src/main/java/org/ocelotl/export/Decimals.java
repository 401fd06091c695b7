package org.ocelotl.export;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers written into pictures, the same characters as {@code String.format(Locale.ROOT, …)} but
 * without a {@link java.util.Formatter} per number: a picture holds tens of thousands of them
 * (coordinates, tooltips), and on JDK 17 each {@code String.format} parses its pattern and builds
 * the locale's symbols again — 78 % of a Gantt chart's time before this class.
 *
 * <p>Why the fast path gives the formatter's characters: {@code %.Nf} rounds half up the decimal
 * digits D that {@code Double.toString} would print for |v|, and D reads back as |v|, so
 * |D − |v|| ≤ ulp(v)/2. The fast path rounds s = |v|·10<sup>N</sup> computed in doubles instead.
 * While s &lt; 10<sup>9</sup>, s is within 2<sup>−23</sup> of |v|·10<sup>N</sup> and so is
 * D·10<sup>N</sup> (10<sup>N</sup>·ulp(v)/2 ≤ s·2<sup>−52</sup>): when s lies more than
 * {@value #TIE_MARGIN} from a half-integer, both round to the same integer. The values near a tie
 * round D itself half up, as the formatter does, without the formatter: they are not rare in a
 * picture (a row's edge at 420·k/768 px is an exact tie at 2 decimals for every eighth k), and a
 * {@code String.format} was then 40 % of a Gantt SVG's time. Only the large and non-finite values
 * go to the formatter itself.
 */
final class Decimals {
  /** Far above the two roundings' error (under 2.5·10⁻⁷ together), far below what a fraction shows. */
  static final double TIE_MARGIN = 1e-6;
  private static final double FAST_LIMIT = 1e9;
  private static final double[] POWERS = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};

  private Decimals() {}

  /** {@code String.format(Locale.ROOT, "%.Nf", v)} for N = {@code decimals} in 0 to 7. */
  static String fixed(double v, int decimals) {
    double scaled = Math.abs(v) * POWERS[decimals];
    if (scaled < FAST_LIMIT) { // false for NaN and infinities
      double whole = Math.floor(scaled);
      double fraction = scaled - whole;
      boolean negative = Double.compare(v, 0.0) < 0;
      if (Math.abs(fraction - 0.5) > TIE_MARGIN) {
        return digits(negative, (long) whole + (fraction > 0.5 ? 1 : 0), decimals);
      }
      // Near a tie: D (Double.toString's digits of |v|) rounded half up, the formatter's own rule.
      BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).setScale(decimals, RoundingMode.HALF_UP);
      return digits(negative, d.unscaledValue().longValueExact(), decimals);
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /**
   * Up to 4 significant digits, trailing zeros dropped: {@code String.format(Locale.ROOT, "%.4g", v)}
   * with the zeros after the point removed ("0.1235", "12.5", "1e+05", "1.5e-05").
   */
  static String significant4(double v) {
    double a = Math.abs(v);
    // 4 significant digits of a in [10^e, 10^(e+1)) are 3 − e decimals. Beyond [10⁻⁴, 10⁴) the
    // formatter writes an exponent; a value that rounds up to 10⁴ does too, so it goes there.
    if (a >= 1e-4 && a < 9999.5) {
      int decimals = 7;
      while (decimals > 0 && a >= 1000 / POWERS[decimals - 1]) {
        decimals--;
      }
      // A rounding up to the next power of ten gives one more zero decimal than the formatter: dropped below.
      return withoutTrailingZeros(fixed(v, decimals));
    }
    String s = String.format(Locale.ROOT, "%.4g", v);
    if (s.contains("e")) {
      return s.replaceAll("\\.?0+e", "e");
    }
    return withoutTrailingZeros(s);
  }

  private static String withoutTrailingZeros(String s) {
    if (s.indexOf('.') < 0) {
      return s;
    }
    int end = s.length();
    while (s.charAt(end - 1) == '0') {
      end--;
    }
    return s.substring(0, s.charAt(end - 1) == '.' ? end - 1 : end);
  }

  /** units / 10^decimals with exactly {@code decimals} digits after the point. */
  private static String digits(boolean negative, long units, int decimals) {
    String all = Long.toString(units);
    StringBuilder s = new StringBuilder(all.length() + decimals + 2);
    if (negative) {
      s.append('-');
    }
    if (decimals == 0) {
      return s.append(all).toString();
    }
    int whole = all.length() - decimals;
    if (whole <= 0) {
      s.append("0.");
      s.append("0".repeat(-whole));
      return s.append(all).toString();
    }
    return s.append(all, 0, whole).append('.').append(all, whole, all.length()).toString();
  }
}
