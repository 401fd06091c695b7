package org.ocelotl.scan;

/**
 * Where a record of the store lands in a microscopic model: the model leaf of each store
 * producer and the model type of each store event type (-1 where a filter leaves it out),
 * and the slice grid. Cell index = (leaf · slices + slice) · types + type, as in
 * {@link org.ocelotl.model.MicroscopicModel}.
 */
public record ModelLayout(int[] leafOf, int[] typeOf, int leaves, int types, SliceGrid grid) {
  public int cells() {
    return leaves * grid.slices() * types;
  }

  /** Cell of slice 0 for (leaf, type); the next slice is {@link #types()} further. */
  public int base(int leaf, int type) {
    return leaf * grid.slices() * types + type;
  }
}
