package org.ocelotl.primitive;

import java.util.Arrays;

/**
 * A growable column of {@code boolean}: appended to while a reader buffers records, read by index
 * afterwards, never boxed. Doubles its capacity when full (amortised O(1) per value).
 */
public final class BooleanColumn {
  private boolean[] values;
  private int size;

  public BooleanColumn() {
    this(16);
  }

  public BooleanColumn(int capacity) {
    values = new boolean[Math.max(1, capacity)];
  }

  public void add(boolean value) {
    if (size == values.length) {
      // By hand: every buffering reader appends here per record (hot; no such list in fastutil-core, decision 032).
      values = Arrays.copyOf(values, DoubleColumn.checkedGrowth(size));
    }
    values[size++] = value;
  }

  public boolean get(int index) {
    return values[index];
  }

  public void set(int index, boolean value) {
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
  public boolean[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
