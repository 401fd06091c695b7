package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Spatial aggregation: aggregates are nodes of the producer tree over the whole window, each
 * leaf's values integrated over time, every event type a component, n = leaves(h).
 *
 * <p>Per node: S_u = Σ of its children's S_u, I = Σ of its children's I (one bottom-up pass
 * over the node ids, children being numbered after their parent), gain = Σ_u S_u·log2 S_u − I,
 * loss = log2(leaves)·Σ_u S_u − gain. Memory O(nodes × types); one p is an O(nodes) pass.
 */
final class SpatialQualities extends Qualities {
  private final ProducerTree tree;
  private final int slices;
  private final double[] gain;
  private final double[] loss;

  private SpatialQualities(SpatialQualities computed, Work work) {
    super(computed, work);
    tree = computed.tree;
    slices = computed.slices;
    gain = computed.gain;
    loss = computed.loss;
  }

  /** Its evaluations take a few arrays of one value per node: nothing to reserve. */
  @Override
  public Qualities withWork(Work work) {
    return new SpatialQualities(this, work);
  }

  SpatialQualities(MicroscopicModel model, Work work) {
    super(model, work);
    tree = model.tree();
    slices = model.slices();
    int nodes = tree.size();
    int types = model.typeCount();
    requireHeap(8L * nodes * (types + 3), "spatial qualities of " + nodes + " nodes × " + types + " types");
    double[] sums = new double[nodes * types];
    double[] info = new double[nodes];
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      int node = tree.leafNode(leaf);
      for (int u = 0; u < types; u++) {
        double x = 0;
        for (int t = 0; t < slices; t++) {
          x += model.value(leaf, t, u);
        }
        sums[node * types + u] = x;
        info[node] += Log2.xlog2x(x);
      }
    }
    for (int node = nodes - 1; node > 0; node--) {
      int parent = tree.parent(node);
      for (int u = 0; u < types; u++) {
        sums[parent * types + u] += sums[node * types + u];
      }
      info[parent] += info[node];
    }
    gain = new double[nodes];
    loss = new double[nodes];
    for (int node = 0; node < nodes; node++) {
      if (tree.isLeaf(node)) {
        continue; // one cell per component: gain = loss = 0 exactly
      }
      double merged = 0;
      double mass = 0;
      for (int u = 0; u < types; u++) {
        double s = sums[node * types + u];
        merged += Log2.xlog2x(s);
        mass += s;
      }
      double g = merged - info[node];
      gain[node] = Math.max(0, g);
      loss[node] = Math.max(0, Log2.log2(tree.leafCount(node)) * mass - g);
    }
  }

  @Override
  public Aggregation aggregation() {
    return Aggregation.SPATIAL;
  }

  @Override
  Evaluation evaluate(double p) {
    return new Built(optimum(p));
  }

  private Partition optimum(double p) {
    double q = 1 - p;
    double penalty = tolerance();
    double[] best = new double[tree.size()];
    for (int node = tree.size() - 1; node >= 0; node--) {
      double whole = own(node, p, q, penalty);
      if (tree.isLeaf(node)) {
        best[node] = whole;
      } else {
        double split = childrenSum(node, best);
        best[node] = whole >= split ? whole : split;
      }
    }
    List<Part> parts = new ArrayList<>();
    double[] totals = new double[2];
    collect(0, best, p, q, penalty, parts, totals);
    return new Partition(parts, totals[0], totals[1]);
  }

  private double own(int node, double p, double q, double penalty) {
    return p * gain[node] - q * loss[node] - penalty;
  }

  private double childrenSum(int node, double[] best) {
    double sum = 0;
    for (int i = 0; i < tree.childCount(node); i++) {
      sum += best[tree.child(node, i)];
    }
    return sum;
  }

  // Depth-first in child order, so parts come out ordered by first leaf.
  private void collect(int node, double[] best, double p, double q, double penalty,
      List<Part> parts, double[] totals) {
    if (tree.isLeaf(node) || own(node, p, q, penalty) >= childrenSum(node, best)) {
      parts.add(new Part(node, 0, slices - 1));
      totals[0] += gain[node];
      totals[1] += loss[node];
      return;
    }
    for (int i = 0; i < tree.childCount(node); i++) {
      collect(tree.child(node, i), best, p, q, penalty, parts, totals);
    }
  }
}
