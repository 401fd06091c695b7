package org.ocelotl.split;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Routed lines bound for one partition, as bytes ({@link RoutedLines#addTo}): each line's number
 * in the trace (8 bytes), its length (4 bytes) and its UTF-8 bytes, one after the other. Lines
 * travel in batches so that an engine moves a few large arrays rather than a record per line,
 * and {@link RangeSplit#interpret} reads them back ({@link #number}, {@link #length}) without
 * decoding them into strings.
 */
public final class LineBatch {
  /** Bytes before a line's text: its number and its length. */
  public static final int LINE_HEADER = 12;
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private byte[] bytes;
  private int size;

  public LineBatch(int capacity) {
    bytes = new byte[capacity];
  }

  /** Bytes held. */
  public int size() {
    return size;
  }

  /** Adds a line: its number in the trace and its bytes {@code text[offset, offset + length)}. */
  public void add(long number, byte[] text, int offset, int length) {
    // Kept by hand: every routed line of a Pajé trace passes here (decision 032: on the import's hot path).
    if (size + LINE_HEADER + length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + LINE_HEADER + length));
    }
    LONG.set(bytes, size, number);
    INT.set(bytes, size + 8, length);
    System.arraycopy(text, offset, bytes, size + LINE_HEADER, length);
    size += LINE_HEADER + length;
  }

  /** The lines added since the last call, and the batch emptied. */
  public byte[] take() {
    byte[] taken = Arrays.copyOf(bytes, size);
    size = 0;
    return taken;
  }

  /** The number in the trace of the line at {@code at} of a taken batch. */
  public static long number(byte[] batch, int at) {
    return (long) LONG.get(batch, at);
  }

  /** The length of the line at {@code at} of a taken batch; its text follows its {@link #LINE_HEADER}. */
  public static int length(byte[] batch, int at) {
    return (int) INT.get(batch, at + 8);
  }
}
