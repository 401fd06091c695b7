package org.ocelotl.store;

/** States of one chunk, sorted by start. */
public final class StateColumns extends Columns {
  public StateColumns(int capacity) {
    super(StoreLayout.STATES, capacity);
  }

  public double[] start() {
    return doubles[StoreLayout.STATE_START];
  }

  public double[] end() {
    return doubles[StoreLayout.STATE_END];
  }

  public int[] producer() {
    return ints[StoreLayout.STATE_PRODUCER];
  }

  public int[] type() {
    return ints[StoreLayout.STATE_TYPE];
  }

  public int[] depth() {
    return ints[StoreLayout.STATE_DEPTH];
  }

  /** The type of the state each lies in, −1 when none (see {@code TraceSink#state}). */
  public int[] outer() {
    return ints[StoreLayout.STATE_OUTER];
  }
}
