package org.ocelotl.modelfile;

/**
 * The value of a plain decimal ({@code 0.47009071843107064}, {@code 12}, {@code 3.5}: digits, at
 * most one point, no sign, no exponent), correctly rounded, or NaN when it cannot tell cheaply;
 * the caller then asks the general parser.
 *
 * <p>Why: lpaggreg's comparison model holds 700,000 such values, and a fresh JVM reading it spent
 * about 40 % of its optimising compiler's work on the general parser's methods (large, with their
 * exponent and hexadecimal paths, and compiled a second time after a deoptimisation when the first
 * value with an exponent turned up; docs/benchmarks.md). This one is a digit loop, one division and
 * an exact check.
 *
 * <p>How: with w the digits as an integer and k the digits after the point, the value is x = w /
 * 10^k. Below 2^53, w and 10^k (k ≤ 22) are exact doubles, and one division rounds x correctly.
 * Above, the candidate y = w / 10^k in doubles (two roundings) is at most two ulps from x, most
 * often the nearest double. It is returned only when exact integer arithmetic shows x strictly
 * between y's two rounding midpoints, (2M − 1)·2^(E−1) < x < (2M + 1)·2^(E−1) for y = M·2^E: then y
 * is the double nearest x, and no tie is possible. With 10^k = 5^k·2^k, that is
 * |w·2^(1−E−k) − 2M·5^k| < 5^k, on integers below 2^128 under the limits below. A candidate one ulp
 * off is moved once toward x; otherwise, or at a power of two (whose lower midpoint is nearer), NaN.
 */
final class PlainDecimal {
  /** More digits could overflow w (10^18 < 2^60) or lose its exactness in the check. */
  private static final int MAX_DIGITS = 18;
  /** 10^k is exact in a double up to 10^22, and 5^k fits in a long up to 5^27. */
  private static final int MAX_FRACTION = 22;
  private static final double[] TEN = new double[MAX_FRACTION + 1];
  private static final long[] FIVE = new long[MAX_FRACTION + 1];

  static {
    TEN[0] = 1;
    FIVE[0] = 1;
    for (int k = 1; k <= MAX_FRACTION; k++) {
      TEN[k] = TEN[k - 1] * 10;
      FIVE[k] = FIVE[k - 1] * 5;
    }
  }

  private PlainDecimal() {}

  /** The value of {@code b[from, to)}, or NaN (see the class comment). */
  static double parse(byte[] b, int from, int to) {
    long w = 0;
    int digits = 0; // significant digits: leading zeros do not count
    int point = -1;
    for (int i = from; i < to; i++) {
      int digit = b[i] - '0';
      if (digit >= 0 && digit <= 9) {
        w = w * 10 + digit;
        digits += w == 0 ? 0 : 1;
      } else if (b[i] == '.' && point < 0 && i > from && i + 1 < to) {
        point = i;
      } else {
        return Double.NaN;
      }
    }
    int k = point < 0 ? 0 : to - point - 1;
    if (from == to || digits > MAX_DIGITS || k > MAX_FRACTION) {
      return Double.NaN;
    }
    if (w < 1L << 53) {
      return w / TEN[k]; // both exact in doubles: one correctly rounded division (Clinger's fast path)
    }
    double y = w / TEN[k];
    for (int attempt = 0; attempt < 2; attempt++) {
      int side = side(w, k, y);
      if (side == 0) {
        return y;
      } else if (side == 2) {
        return Double.NaN;
      }
      y = side > 0 ? Math.nextUp(y) : Math.nextDown(y);
    }
    return Double.NaN;
  }

  /**
   * 0 when w / 10^k lies strictly between y's rounding midpoints, 1 when it lies at or above the
   * upper one, −1 at or below the lower one; 2 when y is a power of two or the check would not fit
   * in 128 bits (no answer).
   */
  private static int side(long w, int k, double y) {
    int e = Math.getExponent(y) - 52;
    long m = (Double.doubleToRawLongBits(y) & ((1L << 52) - 1)) | (1L << 52);
    // x lies between the midpoints (2M ± 1)·2^(E−1) when w·2^shift lies between (2M ± 1)·5^k,
    // that is when d = w·2^shift − 2M·5^k has |d| < 5^k.
    int shift = 1 - e - k;
    if (m == 1L << 52 || shift < -9 || shift > 127 - (64 - Long.numberOfLeadingZeros(w))) {
      return 2; // 2M < 2^54 and 5^k < 2^52, so 2M·5^k < 2^106, and shifted by 9 < 2^128
    }
    long five = FIVE[k];
    long rightHigh = Math.multiplyHigh(2 * m, five);
    long rightLow = 2 * m * five;
    long leftHigh;
    long leftLow;
    if (shift >= 0) {
      leftHigh = shift == 0 ? 0 : shift >= 64 ? w << (shift - 64) : w >>> (64 - shift);
      leftLow = shift >= 64 ? 0 : w << shift;
    } else { // shift the right side up instead
      rightHigh = (rightHigh << -shift) | (rightLow >>> (64 + shift));
      rightLow <<= -shift;
      leftHigh = 0;
      leftLow = w;
    }
    // d in two's complement over 128 bits; |d| < bound (5^k, shifted with the right side: < 2^61)
    // when d + bound lies in (0, 2·bound).
    long bound = shift >= 0 ? five : five << -shift;
    long low = leftLow - rightLow;
    long high = leftHigh - rightHigh - (Long.compareUnsigned(leftLow, rightLow) < 0 ? 1 : 0);
    long biasedLow = low + bound;
    long biasedHigh = high + (Long.compareUnsigned(biasedLow, low) < 0 ? 1 : 0);
    if (biasedHigh == 0 && biasedLow != 0 && Long.compareUnsigned(biasedLow, 2 * bound) < 0) {
      return 0;
    }
    return high < 0 ? -1 : 1;
  }
}
