package org.ocelotl.aggregation;

/**
 * x·log2(x), the hot function of every quality computation, about twice as fast as going
 * through {@link Math#log} and as accurate (relative error below 1e-15, checked by Log2Test).
 *
 * <p>For a normal x = 2^e·m with m in [1, 2): log2 x = e + log2(m·inv) − log2(inv), where inv is
 * a tabulated reciprocal of the centre of m's 1/1024-wide bucket, so r = m·inv − 1 lies within
 * ±2^-11 and log2(1 + r) is a degree-4 series whose first dropped term is below r^5/5 ≈ 2^-57
 * (the tables take 16 KiB, which stays in the L1 cache).
 * r is computed with one fused multiply-add, so the only rounding is in the final sums.
 */
final class Log2 {
  private static final int BITS = 10;
  private static final double[] INVERSE = new double[1 << BITS];
  private static final double[] MINUS_LOG2_INVERSE = new double[1 << BITS];
  private static final double INV_LN2 = 1 / Math.log(2);
  private static final long MANTISSA = 0x000F_FFFF_FFFF_FFFFL;
  private static final long ONE_EXPONENT = 0x3FF0_0000_0000_0000L;

  static {
    for (int i = 0; i < INVERSE.length; i++) {
      INVERSE[i] = 1 / (1 + (i + 0.5) / INVERSE.length);
      MINUS_LOG2_INVERSE[i] = -Math.log(INVERSE[i]) * INV_LN2;
    }
  }

  private Log2() {}

  /** log2 of x &gt; 0. */
  static double log2(double x) {
    if (x < Double.MIN_NORMAL) {
      return Math.log(x) * INV_LN2; // subnormal: the exponent trick below assumes a normal
    }
    long bits = Double.doubleToRawLongBits(x);
    int exponent = (int) (bits >>> 52) - 1023;
    int bucket = (int) (bits >>> (52 - BITS)) & (INVERSE.length - 1);
    double m = Double.longBitsToDouble((bits & MANTISSA) | ONE_EXPONENT);
    double r = Math.fma(m, INVERSE[bucket], -1.0);
    double series = r - r * r * (1.0 / 2 - r * (1.0 / 3 - r * (1.0 / 4)));
    return exponent + (MINUS_LOG2_INVERSE[bucket] + series * INV_LN2);
  }

  /** x·log2 x, with 0·log2 0 = 0. */
  static double xlog2x(double x) {
    return x == 0 ? 0 : x * log2(x);
  }
}
