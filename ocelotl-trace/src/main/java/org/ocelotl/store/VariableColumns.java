package org.ocelotl.store;

/** Variable steps of one chunk, sorted by start: the variable of {@code producer} has {@code value} during [start, end). */
public final class VariableColumns extends Columns {
  public VariableColumns(int capacity) {
    super(StoreLayout.VARIABLES, capacity);
  }

  public double[] start() {
    return doubles[StoreLayout.VARIABLE_START];
  }

  public double[] end() {
    return doubles[StoreLayout.VARIABLE_END];
  }

  public double[] value() {
    return doubles[StoreLayout.VARIABLE_VALUE];
  }

  public int[] producer() {
    return ints[StoreLayout.VARIABLE_PRODUCER];
  }

  public int[] type() {
    return ints[StoreLayout.VARIABLE_TYPE];
  }
}
