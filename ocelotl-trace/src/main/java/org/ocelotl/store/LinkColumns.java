package org.ocelotl.store;

/** Links of one chunk, grouped by source: from producer {@code from} at start to {@code to} at end. */
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

  /** What each link carried (bytes for messages) where the trace says, else NaN. */
  public double[] volume() {
    return doubles[StoreLayout.LINK_VOLUME];
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
