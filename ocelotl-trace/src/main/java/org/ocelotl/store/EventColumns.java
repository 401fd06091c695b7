package org.ocelotl.store;

/** Punctual events of one chunk, sorted by time. */
public final class EventColumns extends Columns {
  public EventColumns(int capacity) {
    super(StoreLayout.EVENTS, capacity);
  }

  public double[] time() {
    return doubles[0];
  }

  public int[] producer() {
    return ints[0];
  }

  public int[] type() {
    return ints[1];
  }
}
