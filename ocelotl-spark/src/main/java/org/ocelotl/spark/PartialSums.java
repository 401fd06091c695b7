package org.ocelotl.spark;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * A task's partial model as the one byte array Spark moves: the runs of non-zero cells of each of
 * the sums' arrays, the zero cells between runs left out. Why: Spark moved the dense
 * {@code double[][]} (56 MB for 700 leaves × 1000 slices × 10 types) through Java serialisation,
 * one call per double, and that cost more CPU than the scan of 2·10⁷ states (docs/benchmarks.md);
 * a byte array is copied in bulk, and a task reading a contiguous share of the files (roughly a
 * time range of the trace) touches only its share of the slices, so most of its cells are zero.
 *
 * <p>Layout, little-endian: {@code int} arrays, {@code int} cells per array; then per array an
 * {@code int} count of runs and, per run, {@code int} zero cells skipped since the previous run's
 * end, {@code int} values, and the values as doubles. A run ends at two zero cells in a row (a
 * lone zero inside a run costs 8 bytes, a new run 8 bytes of header).
 *
 * <p>Adding a partial into a total adds each run's values to their cells and nothing to the others:
 * the same result as adding the dense arrays, since only +0.0 is left out and x + (+0.0) = x for
 * every x the total can hold (a total starts at +0.0 and a sum is never -0.0 unless both terms are).
 */
final class PartialSums {
  private static final int HEADER = 2 * Integer.BYTES;
  private static final int RUN_HEADER = 2 * Integer.BYTES;

  private PartialSums() {}

  /** The sums' non-zero runs as bytes. */
  static byte[] encode(double[][] sums) {
    long size = HEADER;
    for (double[] cells : sums) {
      size += Integer.BYTES;
      for (int at = skipZeros(cells, 0); at < cells.length; ) {
        int end = runEnd(cells, at);
        size += RUN_HEADER + (long) (end - at) * Double.BYTES;
        at = skipZeros(cells, end);
      }
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a partial model of " + size + " bytes: more than a Java array holds; "
          + "make the model smaller (--depth, fewer slices or types)");
    }
    ByteBuffer out = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(sums.length).putInt(sums[0].length);
    for (double[] cells : sums) {
      int runsAt = out.position();
      out.putInt(0);
      int runs = 0;
      int previousEnd = 0;
      for (int at = skipZeros(cells, 0); at < cells.length; ) {
        int end = runEnd(cells, at);
        out.putInt(at - previousEnd).putInt(end - at);
        out.asDoubleBuffer().put(cells, at, end - at);
        out.position(out.position() + (end - at) * Double.BYTES);
        runs++;
        previousEnd = end;
        at = skipZeros(cells, end);
      }
      out.putInt(runsAt, runs);
    }
    return out.array();
  }

  /**
   * Adds the partial {@code bytes} (from {@link #encode}) into {@code total}, cell by cell.
   *
   * @throws IllegalArgumentException when the partial is of another shape than {@code total}
   */
  static void addInto(double[][] total, byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int arrays = in.getInt();
    int cells = in.getInt();
    if (arrays != total.length || cells != total[0].length) {
      throw new IllegalArgumentException("partial sums of " + arrays + " × " + cells + " cells for a model of "
          + total.length + " × " + total[0].length);
    }
    for (double[] into : total) {
      int runs = in.getInt();
      int at = 0;
      for (int r = 0; r < runs; r++) {
        at += in.getInt();
        int count = in.getInt();
        DoubleBuffer values = in.asDoubleBuffer();
        for (int i = 0; i < count; i++) {
          into[at + i] += values.get(i);
        }
        in.position(in.position() + count * Double.BYTES);
        at += count;
      }
    }
  }

  /** The partials added in the iterator's order, from a total of zeros, as one partial (empty: none). */
  static Iterator<byte[]> sum(Iterator<byte[]> partials) {
    double[][] total = null;
    while (partials.hasNext()) {
      byte[] partial = partials.next();
      if (total == null) {
        ByteBuffer header = ByteBuffer.wrap(partial).order(ByteOrder.LITTLE_ENDIAN);
        total = new double[header.getInt()][header.getInt()];
      }
      addInto(total, partial);
    }
    return total == null ? Collections.emptyIterator() : List.of(encode(total)).iterator();
  }

  /** The first cell at or after {@code at} that is not +0.0 (its bits are not all zero), or the end. */
  private static int skipZeros(double[] cells, int at) {
    while (at < cells.length && Double.doubleToRawLongBits(cells[at]) == 0) {
      at++;
    }
    return at;
  }

  /** The end of the run starting at {@code at} (a non-zero cell): the first of two +0.0 cells in a row, or the end. */
  private static int runEnd(double[] cells, int at) {
    int end = at + 1;
    while (end < cells.length && !(isZero(cells, end) && (end + 1 == cells.length || isZero(cells, end + 1)))) {
      end++;
    }
    return end;
  }

  private static boolean isZero(double[] cells, int at) {
    return Double.doubleToRawLongBits(cells[at]) == 0;
  }
}
