package org.ocelotl.store;

/** States of one chunk, sorted by start. */
public final class StateColumns extends Columns {
  public StateColumns(int capacity) {
    super(StoreLayout.STATES, capacity);
  }

  public double[] start() {
    return doubles[0];
  }

  public double[] end() {
    return doubles[1];
  }

  public int[] producer() {
    return ints[0];
  }

  public int[] type() {
    return ints[1];
  }

  public int[] depth() {
    return ints[2];
  }
}
