package org.ocelotl.format.paje;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Parses the numbers of one field of a trace's lines (the dates, or the variable values) with
 * {@link DecimalParser}, remembering the last text and its value: traces repeat them line after
 * line. In SimGrid's 292 MB {@code smpi_large_flat.trace}, 97 % of the lines carry the date of the
 * line before, and 91 % of the variable lines the value of the variable line before, so most
 * numbers cost a comparison of up to three words instead of a parse. The value returned is
 * {@link DecimalParser#parse}'s for the same text, whatever the text: a repeat is recognised by
 * equal length and equal bytes only.
 */
final class LastDecimal {
  private static final VarHandle WORD =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** Texts up to this long are remembered, as three words; longer ones are parsed every time. */
  static final int MAX_LENGTH = 3 * Long.BYTES;

  /** The remembered text's length, -1 while nothing is remembered. */
  private int length = -1;
  private long word0;
  private long word1;
  private long word2;
  private double value;

  /** {@link DecimalParser#parse}{@code (bytes, from, to)}. */
  double parse(byte[] bytes, int from, int to) {
    int n = to - from;
    if (n > MAX_LENGTH || bytes.length - from < MAX_LENGTH) { // the three words would leave the array
      return DecimalParser.parse(bytes, from, to);
    }
    // Bytes past the text (the rest of the line) are masked off: only the text is compared.
    long w0 = (long) WORD.get(bytes, from) & lowBytes(n);
    long w1 = (long) WORD.get(bytes, from + Long.BYTES) & lowBytes(n - Long.BYTES);
    long w2 = (long) WORD.get(bytes, from + 2 * Long.BYTES) & lowBytes(n - 2 * Long.BYTES);
    if (n != length || w0 != word0 || w1 != word1 || w2 != word2) {
      value = DecimalParser.parse(bytes, from, to);
      length = n;
      word0 = w0;
      word1 = w1;
      word2 = w2;
    }
    return value;
  }

  /**
   * A mask of a word's first {@code count} bytes (its low ones, little-endian): none for a count
   * of 0 or less, all of them for 8 or more.
   */
  static long lowBytes(int count) {
    if (count <= 0) {
      return 0;
    }
    return -1L >>> (Long.SIZE - Byte.SIZE * Math.min(count, Long.BYTES));
  }
}
