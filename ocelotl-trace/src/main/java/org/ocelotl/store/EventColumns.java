package org.ocelotl.store;

/** Punctual events of one chunk, sorted by time. */
public final class EventColumns extends Columns {
  public EventColumns(int capacity) {
    super(StoreLayout.EVENTS, capacity);
  }

  public double[] time() {
    return doubles[StoreLayout.EVENT_TIME];
  }

  public int[] producer() {
    return ints[StoreLayout.EVENT_PRODUCER];
  }

  public int[] type() {
    return ints[StoreLayout.EVENT_TYPE];
  }
}
