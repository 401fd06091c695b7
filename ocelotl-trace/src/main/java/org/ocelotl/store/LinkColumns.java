package org.ocelotl.store;

/** Links of one chunk, sorted by start: from producer {@code from} at start to {@code to} at end. */
public final class LinkColumns extends Columns {
  public LinkColumns(int capacity) {
    super(StoreLayout.LINKS, capacity);
  }

  public double[] start() {
    return doubles[StoreLayout.LINK_START];
  }

  public double[] end() {
    return doubles[StoreLayout.LINK_END];
  }

  public int[] type() {
    return ints[StoreLayout.LINK_TYPE];
  }

  public int[] from() {
    return ints[StoreLayout.LINK_FROM];
  }

  public int[] to() {
    return ints[StoreLayout.LINK_TO];
  }
}
