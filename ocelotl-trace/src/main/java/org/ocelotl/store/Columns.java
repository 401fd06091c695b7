package org.ocelotl.store;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.ocelotl.model.EventCategory;

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

  /** Empty columns of a category, holding up to {@code capacity} records. */
  public static Columns of(EventCategory category, int capacity) {
    return switch (category) {
      case STATE -> new StateColumns(capacity);
      case EVENT -> new EventColumns(capacity);
      case VARIABLE -> new VariableColumns(capacity);
      case LINK -> new LinkColumns(capacity);
    };
  }

  /**
   * Makes the first {@code count} entries of the live arrays the current batch: how an engine that
   * reads records from elsewhere (Spark's Parquet rows) hands them to the scan kernels in the
   * arrays the store would fill. The batch belongs to no chunk.
   */
  public final void setSize(int count) {
    if (count < 0 || count > capacity()) {
      throw new IllegalArgumentException("a batch of " + count + " records in columns of capacity " + capacity());
    }
    this.size = count;
    this.chunk = null;
  }

  /** How many records the arrays hold at most. */
  public final int capacity() {
    return doubles[0].length;
  }

  /** Number of records of the current chunk. */
  public final int size() {
    return size;
  }

  /** The chunk currently held, or null before the first read. */
  public final Chunk chunk() {
    return chunk;
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
