package org.ocelotl.store;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

/**
 * Reused primitive arrays holding one chunk of one category; {@link TraceStore#read} refills
 * them. The arrays have the chunk capacity as length; only the first {@link #size()} entries
 * belong to the current chunk. The arrays returned by the accessors of the subclasses are the
 * live arrays (no copy): that is the point, the scan loop reads them directly.
 */
public abstract class Columns {
  final StoreLayout.Columns layout;
  final double[][] doubles;
  final int[][] ints;
  private int size;
  private Chunk chunk;

  Columns(StoreLayout.Columns layout, int capacity) {
    this.layout = layout;
    this.doubles = new double[layout.doubles()][capacity];
    this.ints = new int[layout.ints()][capacity];
  }

  /** Number of records of the current chunk. */
  public final int size() {
    return size;
  }

  /** The chunk currently held, or null before the first read. */
  public final Chunk chunk() {
    return chunk;
  }

  final int capacity() {
    return doubles[0].length;
  }

  /**
   * Copies records [first, first + count) of a chunk out of its mapped bytes (one bulk copy per
   * column).
   */
  final void fill(Chunk chunk, ByteBuffer bytes, int first, int count) {
    int n = chunk.size();
    for (int c = 0; c < doubles.length; c++) {
      DoubleBuffer column = bytes.slice(layout.doubleColumnOffset(c, n) + first * Double.BYTES, count * Double.BYTES)
          .order(StoreLayout.ORDER).asDoubleBuffer();
      column.get(doubles[c], 0, count);
    }
    for (int c = 0; c < ints.length; c++) {
      IntBuffer column = bytes.slice(layout.intColumnOffset(c, n) + first * Integer.BYTES, count * Integer.BYTES)
          .order(StoreLayout.ORDER).asIntBuffer();
      column.get(ints[c], 0, count);
    }
    this.size = count;
    this.chunk = chunk;
  }
}
