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

  /**
   * The model of slices [from, to) alone: the same leaves and types, exactly the values of those
   * slices (a zoom on a model file, whose slices are its only time axis, needs no rebinning).
   *
   * @throws IllegalArgumentException unless 0 ≤ from &lt; to ≤ slices
   */
  public MicroscopicModel window(int from, int to) {
    if (from < 0 || from >= to || to > slices) {
      throw new IllegalArgumentException("slices [" + from + ", " + to + ") are not a window of a model of "
          + slices + " slices");
    }
    int perSlice = types.size();
    int width = to - from;
    double[] kept = new double[leaves() * width * perSlice];
    // One leaf's slices are contiguous: one copy per leaf.
    for (int leaf = 0; leaf < leaves(); leaf++) {
      System.arraycopy(values, index(leaf, from, 0), kept, leaf * width * perSlice, width * perSlice);
    }
    return new MicroscopicModel(tree, width, types, kept);
  }

  /**
   * The same model without the leaves whose every value is 0, and without the inner nodes
   * left with no leaf; this very model when no leaf is empty, or when every leaf is (a model
   * needs at least one). For producers that hold none of the selected event types.
   */
  public MicroscopicModel withoutEmptyLeaves() {
    int perLeaf = slices * types.size();
    boolean[] keep = new boolean[tree.size()];
    int kept = 0;
    for (int leaf = 0; leaf < leaves(); leaf++) {
      for (int i = leaf * perLeaf; i < (leaf + 1) * perLeaf; i++) {
        if (values[i] != 0) {
          keep[tree.leafNode(leaf)] = true;
          kept++;
          break;
        }
      }
    }
    if (kept == leaves() || kept == 0) {
      return this;
    }
    // Parents come before children: one backward pass marks every ancestor of a kept leaf.
    for (int node = tree.size() - 1; node > 0; node--) {
      if (keep[node]) {
        keep[tree.parent(node)] = true;
      }
    }
    int[] newId = new int[tree.size()];
    java.util.List<String> names = new java.util.ArrayList<>();
    java.util.List<Integer> parents = new java.util.ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      if (keep[node]) {
        newId[node] = names.size();
        names.add(tree.name(node));
        parents.add(node == 0 ? -1 : newId[tree.parent(node)]);
      }
    }
    ProducerTree pruned = new ProducerTree(names.toArray(String[]::new),
        parents.stream().mapToInt(Integer::intValue).toArray());
    int[] oldNode = new int[pruned.size()];
    for (int node = 0; node < tree.size(); node++) {
      if (keep[node]) {
        oldNode[newId[node]] = node;
      }
    }
    double[] prunedValues = new double[pruned.leafCount() * perLeaf];
    for (int leaf = 0; leaf < pruned.leafCount(); leaf++) {
      int old = tree.firstLeaf(oldNode[pruned.leafNode(leaf)]);
      System.arraycopy(values, old * perLeaf, prunedValues, leaf * perLeaf, perLeaf);
    }
    return new MicroscopicModel(pruned, slices, types, prunedValues);
  }
}
