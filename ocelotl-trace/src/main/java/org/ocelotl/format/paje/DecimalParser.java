package org.ocelotl.format.paje;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 *
 * <p>The common shape in traces, {@code [-]digits[.digits]} with at most 15 digits before the
 * point and 15 after ({@code 26.438013}, {@code 1000000000.000000}, nanoseconds {@code
 * 0.132886506}), at most 18 in all, is read eight bytes at a time
 * ({@link #parseShort}): the same significand and power of ten as the digit loop, so the same
 * double, with a handful of word operations instead of a branchy loop per digit.
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

  private static final VarHandle WORD =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ZEROS = 0x3030303030303030L;
  private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;
  private static final long SIXES = 0x0606060606060606L;
  /** The word reads of {@link #parseShort} stay in the array when it starts this far from the end. */
  private static final int WORD_SLACK = 4 * Long.BYTES + 2;

  private DecimalParser() {}

  /** The value of {@code bytes[from, to)}, or {@link #INVALID} if it is not a decimal number. */
  static double parse(byte[] bytes, int from, int to) {
    if (bytes.length - from >= WORD_SLACK) {
      double value = parseShort(bytes, from, to);
      if (value == value) { // not NaN: the short shape applied
        return value;
      }
    }
    return parseGeneral(bytes, from, to);
  }

  /**
   * {@code [-]d{0,15}[.d{0,15}]} (at least one digit), the text ending exactly at {@code to}, whose
   * significand (all its digits, at most 18 of them so the long cannot overflow) is below 2^53;
   * NaN for any other text, which {@link #parseGeneral} then reads. The power of ten is -15 to 0,
   * so the result is the correctly rounded {@code significand / 10^fractionDigits} that
   * {@link #parseGeneral} computes too.
   */
  private static double parseShort(byte[] bytes, int from, int to) {
    int i = from;
    boolean negative = bytes[i] == '-';
    if (negative) {
      i++;
    }
    long word = (long) WORD.get(bytes, i);
    int integerDigits = leadingDigits(word);
    long significand = digitsValue(word, integerDigits);
    i += integerDigits;
    if (integerDigits == Long.BYTES) {
      word = (long) WORD.get(bytes, i);
      int more = leadingDigits(word);
      if (more == Long.BYTES) {
        return Double.NaN;
      }
      significand = significand * (long) POWERS[more] + digitsValue(word, more);
      integerDigits += more;
      i += more;
    }
    int fractionDigits = 0;
    if (i < to && bytes[i] == '.') {
      i++;
      word = (long) WORD.get(bytes, i);
      fractionDigits = leadingDigits(word);
      if (integerDigits + fractionDigits > MAX_DIGITS) {
        return Double.NaN;
      }
      significand = significand * (long) POWERS[fractionDigits] + digitsValue(word, fractionDigits);
      i += fractionDigits;
      if (fractionDigits == Long.BYTES) {
        word = (long) WORD.get(bytes, i);
        int more = leadingDigits(word);
        if (more == Long.BYTES || integerDigits + fractionDigits + more > MAX_DIGITS) {
          return Double.NaN;
        }
        significand = significand * (long) POWERS[more] + digitsValue(word, more);
        fractionDigits += more;
        i += more;
      }
    }
    if (i != to || integerDigits + fractionDigits == 0 || significand >= EXACT_LIMIT) {
      return Double.NaN;
    }
    double value = significand / POWERS[fractionDigits];
    return negative ? -value : value;
  }

  /**
   * How many of the word's bytes, from its first (lowest) one, are ASCII digits, 0 to 8. A byte
   * is a digit when its high nibble is 3 and adding 6 leaves it 3 (0x30–0x39). Adding 6 to a
   * byte of 0xFA or more carries into the next byte, but such a byte is itself flagged (its sum's
   * high nibble is 0), so the first flagged byte is exact; later ones do not matter.
   */
  private static int leadingDigits(long word) {
    long notDigit = ((word & HIGH_NIBBLES) ^ ZEROS) | (((word + SIXES) & HIGH_NIBBLES) ^ ZEROS);
    return Long.numberOfTrailingZeros(notDigit) >>> 3;
  }

  /**
   * The value of the word's first {@code count} bytes (digits, count ≤ 8) as a decimal number.
   * Subtracting '0' from every byte may borrow only out of the bytes after the digits, whose
   * borrows go further up and are shifted out with them. Shifting the digits to the top of the
   * word puts zero digits in front, which changes nothing; then adjacent digits combine into
   * pairs (10·a + b ≤ 99 fits a byte, no carry), and the pairs p0..p3 into the 8-digit number in
   * two multiplications whose upper 32 bits collect 10^6·p0 + 10^4·p1 + 100·p2 + p3 (&lt; 2^32)
   * while their lower 32 bits (≤ 9999) never carry into them.
   */
  private static long digitsValue(long word, int count) {
    if (count == 0) { // the shift below would be by 64, which Java takes as 0
      return 0;
    }
    long digits = (word - ZEROS) << (Long.SIZE - Byte.SIZE * count);
    digits = digits * 10 + (digits >>> 8);
    long pairs02 = digits & 0x000000FF000000FFL;
    long pairs13 = (digits >>> 16) & 0x000000FF000000FFL;
    return (pairs02 * (100 + (1_000_000L << 32)) + pairs13 * (1 + (10_000L << 32))) >>> 32;
  }

  private static double parseGeneral(byte[] bytes, int from, int to) {
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
