package org.ocelotl.store;

/** Variable steps of one chunk, sorted by start: the variable of {@code producer} has {@code value} during [start, end). */
public final class VariableColumns extends Columns {
  public VariableColumns(int capacity) {
    super(StoreLayout.VARIABLES, capacity);
  }

  public double[] start() {
    return doubles[0];
  }

  public double[] end() {
    return doubles[1];
  }

  public double[] value() {
    return doubles[2];
  }

  public int[] producer() {
    return ints[0];
  }

  public int[] type() {
    return ints[1];
  }
}
