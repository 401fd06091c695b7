package org.ocelotl.store;

/** Links of one chunk, sorted by start: from producer {@code from} at start to {@code to} at end. */
public final class LinkColumns extends Columns {
  public LinkColumns(int capacity) {
    super(StoreLayout.LINKS, capacity);
  }

  public double[] start() {
    return doubles[0];
  }

  public double[] end() {
    return doubles[1];
  }

  public int[] type() {
    return ints[0];
  }

  public int[] from() {
    return ints[1];
  }

  public int[] to() {
    return ints[2];
  }
}
