package org.ocelotl.format.paje;

import java.nio.charset.StandardCharsets;

/**
 * Parses a decimal number ({@code [+-]digits[.digits][(e|E)[+-]digits]}) from a byte range,
 * giving exactly what {@link Double#parseDouble} gives for the same text, without allocating
 * in the common case.
 *
 * <p>Why it is exact: when the decimal significand m (all digits, point removed) is below 2^53
 * it is an exact double, and so is 10^k for k ≤ 22 (5^22 < 2^53). IEEE multiplication and
 * division are correctly rounded, so m·10^k and m/10^k are each rounded once from the exact
 * value — the correctly rounded result that {@code parseDouble} also returns. Any other input
 * (more digits, larger exponents) goes to {@code parseDouble} itself.
 */
final class DecimalParser {
  /** Returned for text that is not a decimal number (the text "NaN" is not accepted). */
  static final double INVALID = Double.NaN;

  private static final long EXACT_LIMIT = 1L << 53;
  private static final int MAX_EXACT_POWER = 22;
  /** More significant digits than this may overflow a long: 10^18 < 2^63. */
  private static final int MAX_DIGITS = 18;
  private static final double[] POWERS = new double[MAX_EXACT_POWER + 1];

  static {
    double p = 1;
    for (int i = 0; i <= MAX_EXACT_POWER; i++) {
      POWERS[i] = p;
      p *= 10;
    }
  }

  private DecimalParser() {}

  /** The value of {@code bytes[from, to)}, or {@link #INVALID} if it is not a decimal number. */
  static double parse(byte[] bytes, int from, int to) {
    int i = from;
    boolean negative = false;
    if (i < to && (bytes[i] == '-' || bytes[i] == '+')) {
      negative = bytes[i] == '-';
      i++;
    }
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean overflow = false;
    int start = i;
    for (; i < to && isDigit(bytes[i]); i++) {
      if (digits < MAX_DIGITS) {
        mantissa = mantissa * 10 + (bytes[i] - '0');
        if (mantissa != 0) {
          digits++;
        }
      } else {
        overflow = true;
      }
    }
    int integerDigits = i - start;
    int fractionDigits = 0;
    if (i < to && bytes[i] == '.') {
      i++;
      int fractionStart = i;
      for (; i < to && isDigit(bytes[i]); i++) {
        if (digits < MAX_DIGITS) {
          mantissa = mantissa * 10 + (bytes[i] - '0');
          if (mantissa != 0) {
            digits++;
          }
          scale--;
        } else {
          overflow = true;
        }
      }
      fractionDigits = i - fractionStart;
    }
    if (integerDigits + fractionDigits == 0) {
      return INVALID;
    }
    int exponent = 0;
    if (i < to && (bytes[i] == 'e' || bytes[i] == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < to && (bytes[i] == '-' || bytes[i] == '+')) {
        negativeExponent = bytes[i] == '-';
        i++;
      }
      int exponentStart = i;
      for (; i < to && isDigit(bytes[i]); i++) {
        if (exponent < 100_000) {
          exponent = exponent * 10 + (bytes[i] - '0');
        }
      }
      if (i == exponentStart) {
        return INVALID;
      }
      exponent = negativeExponent ? -exponent : exponent;
    }
    if (i != to) {
      return INVALID;
    }
    int power = scale + exponent;
    if (overflow || mantissa >= EXACT_LIMIT || Math.abs(power) > MAX_EXACT_POWER) {
      return mantissa == 0 && !overflow ? signedZero(negative) : slow(bytes, from, to);
    }
    double value = power < 0 ? mantissa / POWERS[-power] : mantissa * POWERS[power];
    return negative ? -value : value;
  }

  private static double signedZero(boolean negative) {
    return negative ? -0.0 : 0.0;
  }

  private static double slow(byte[] bytes, int from, int to) {
    return Double.parseDouble(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1));
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }
}
