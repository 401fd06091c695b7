package org.ocelotl.model;

import java.util.List;

/**
 * Dense values M[leaf][slice][type] ≥ 0 over the leaves of a producer tree, N time slices and
 * a list of event types: the input of every aggregation.
 *
 * <p>The values live in one flat array, index {@code (leaf * slices + slice) * types + type},
 * so one leaf's time series of all types is contiguous (what the temporal and spatiotemporal
 * prefix sums walk).
 */
public final class MicroscopicModel {
  private final ProducerTree tree;
  private final int slices;
  private final List<String> types;
  private final double[] values;

  /**
   * @throws IllegalArgumentException if the sizes disagree, or a value is negative or not finite
   */
  public MicroscopicModel(ProducerTree tree, int slices, List<String> types, double[] values) {
    if (slices < 1) {
      throw new IllegalArgumentException("a model needs at least one slice, got " + slices);
    }
    if (types.isEmpty()) {
      throw new IllegalArgumentException("a model needs at least one event type");
    }
    long expected = (long) tree.leafCount() * slices * types.size();
    if (values.length != expected) {
      throw new IllegalArgumentException("a model of " + tree.leafCount() + " leaves × " + slices
          + " slices × " + types.size() + " types needs " + expected + " values, got " + values.length);
    }
    for (int i = 0; i < values.length; i++) {
      double v = values[i];
      if (!(v >= 0) || Double.isInfinite(v)) {
        int type = i % types.size();
        int slice = (i / types.size()) % slices;
        int leaf = i / types.size() / slices;
        throw new IllegalArgumentException("model values must be finite and ≥ 0; found " + v
            + " at producer " + tree.name(tree.leafNode(leaf)) + ", slice " + slice
            + ", type " + types.get(type));
      }
    }
    this.tree = tree;
    this.slices = slices;
    this.types = List.copyOf(types);
    this.values = values;
  }

  public ProducerTree tree() {
    return tree;
  }

  public int leaves() {
    return tree.leafCount();
  }

  public int slices() {
    return slices;
  }

  public int typeCount() {
    return types.size();
  }

  public List<String> types() {
    return types;
  }

  public double value(int leaf, int slice, int type) {
    return values[index(leaf, slice, type)];
  }

  public int index(int leaf, int slice, int type) {
    return (leaf * slices + slice) * types.size() + type;
  }

  /** The backing array, not a copy: callers on hot paths read it directly and must not write. */
  public double[] values() {
    return values;
  }
}
