package org.ocelotl.primitive;

import java.util.Arrays;

/**
 * A growable column of {@code int}: appended to while a reader buffers records, read by index
 * afterwards, never boxed. Doubles its capacity when full (amortised O(1) per value).
 */
public final class IntColumn {
  private int[] values;
  private int size;

  public IntColumn() {
    this(16);
  }

  public IntColumn(int capacity) {
    values = new int[Math.max(1, capacity)];
  }

  public void add(int value) {
    if (size == values.length) {
      // By hand: every buffering reader appends here per record (hot; fastutil 3.4x slower, decision 032).
      values = Arrays.copyOf(values, DoubleColumn.checkedGrowth(size));
    }
    values[size++] = value;
  }

  public int get(int index) {
    return values[index];
  }

  public void set(int index, int value) {
    values[index] = value;
  }

  public int size() {
    return size;
  }

  /** Drops the last value (a column used as a stack). */
  public void removeLast() {
    if (size == 0) {
      throw new IllegalStateException("the column is empty");
    }
    size--;
  }

  /** Forgets the values, keeping the capacity. */
  public void clear() {
    size = 0;
  }

  /** A copy of the values, exactly {@link #size()} long. */
  public int[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
