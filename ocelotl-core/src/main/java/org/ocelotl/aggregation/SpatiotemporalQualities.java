package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Spatiotemporal aggregation: aggregates are (node h, interval [i,j]) rectangles, every event
 * type a component, n = leaves(h)·(j−i+1).
 *
 * <p>Qualities: per node, the per-type sums and the Σ x·log2 x of each slice over its leaves
 * (bottom-up over the tree), then per node and first slice running sums along time; |U| logs per
 * aggregate, nodes in parallel.
 *
 * <p>One p: the three options of SPEC.md §4 folded into a segmentation. Let
 * V(h,[c,j]) = max(aggregate (h,[c,j]), Σ_children best(child,[c,j])); two temporal cuts in a row
 * are one finer segmentation, so best(h,[i,j]) = max over c in [i, j] of
 * best(h,[i,c−1]) + V(h,[c,j]) with best(h, empty) = 0. O(|T|³/6) per node, nodes of equal
 * height in parallel, children before parents; the root needs only intervals starting at 0.
 *
 * <p>Memory: qualities 16·H·|T|(|T|+1)/2 bytes for H tree nodes; each evaluation of a p another
 * 8·H·|T|(|T|+1)/2 bytes (one best value per aggregate), and the breakpoint search runs as many
 * evaluations at once as there are cores. The constructor refuses a model for which that total
 * exceeds the free heap.
 */
final class SpatiotemporalQualities extends Qualities {
  private final ProducerTree tree;
  private final int slices;
  private final double[][] gain;
  private final double[][] loss;
  private final int[][] levels;

  SpatiotemporalQualities(MicroscopicModel model) {
    super(model);
    tree = model.tree();
    slices = model.slices();
    int nodes = tree.size();
    int types = model.typeCount();
    int intervals = intervalArrayLength(slices);
    long perAggregate = 16 + 8L * ForkJoinPool.getCommonPoolParallelism();
    requireHeap(perAggregate * nodes * intervals + 8L * nodes * slices * (types + 1),
        String.format("spatiotemporal qualities of %d nodes × %d slices (%d bytes × nodes × |T|(|T|+1)/2)",
            nodes, slices, perAggregate));
    double[][] series = new double[nodes][];
    double[][] info = new double[nodes][];
    sumSeries(model, series, info);
    gain = new double[nodes][];
    loss = new double[nodes][];
    IntStream.range(0, nodes).parallel().forEach(node -> fillNode(node, series[node], info[node], types));
    levels = levels(tree);
  }

  /** Per node, the values of its leaves summed: series[h][t·types + u], info[h][t] = Σ x·log2 x. */
  private void sumSeries(MicroscopicModel model, double[][] series, double[][] info) {
    int types = model.typeCount();
    for (int node = 0; node < tree.size(); node++) {
      series[node] = new double[slices * types];
      info[node] = new double[slices];
    }
    double[] values = model.values();
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      int node = tree.leafNode(leaf);
      System.arraycopy(values, model.index(leaf, 0, 0), series[node], 0, slices * types);
      for (int t = 0; t < slices; t++) {
        for (int u = 0; u < types; u++) {
          info[node][t] += Log2.xlog2x(series[node][t * types + u]);
        }
      }
    }
    for (int node = tree.size() - 1; node > 0; node--) {
      int parent = tree.parent(node);
      for (int k = 0; k < series[node].length; k++) {
        series[parent][k] += series[node][k];
      }
      for (int t = 0; t < slices; t++) {
        info[parent][t] += info[node][t];
      }
    }
  }

  private void fillNode(int node, double[] series, double[] info, int types) {
    double[] g = new double[intervalArrayLength(slices)];
    double[] l = new double[g.length];
    double[] sums = new double[types];
    int leaves = tree.leafCount(node);
    for (int first = 0; first < slices; first++) {
      java.util.Arrays.fill(sums, 0);
      double mass = 0;
      double cellInfo = 0;
      for (int last = first; last < slices; last++) {
        double merged = 0;
        for (int u = 0; u < types; u++) {
          double s = sums[u] + series[last * types + u];
          sums[u] = s;
          merged += Log2.xlog2x(s);
          mass += series[last * types + u];
        }
        cellInfo += info[last];
        if (leaves > 1 || last > first) { // else one cell per component: gain = loss = 0
          int k = interval(first, last);
          double gk = merged - cellInfo;
          g[k] = Math.max(0, gk);
          l[k] = Math.max(0, Log2.log2((double) leaves * (last - first + 1)) * mass - gk);
        }
      }
    }
    gain[node] = g;
    loss[node] = l;
  }

  /** Nodes grouped by height (longest path down to a leaf), lowest first. */
  private static int[][] levels(ProducerTree tree) {
    int[] height = new int[tree.size()];
    for (int node = tree.size() - 1; node > 0; node--) {
      int parent = tree.parent(node);
      height[parent] = Math.max(height[parent], height[node] + 1);
    }
    int[][] levels = new int[height[0] + 1][];
    for (int h = 0; h <= height[0]; h++) {
      int level = h;
      levels[h] = IntStream.range(0, tree.size()).filter(n -> height[n] == level).toArray();
    }
    return levels;
  }

  @Override
  public Aggregation aggregation() {
    return Aggregation.SPATIOTEMPORAL;
  }

  @Override
  Partition optimum(double p) {
    Evaluation evaluation = new Evaluation(p);
    for (int[] level : levels) {
      IntStream.of(level).parallel().forEach(evaluation::solve);
    }
    return evaluation.partition();
  }

  /** The best values of one p: best[h][interval(i, j)]. */
  private final class Evaluation {
    private final double p;
    private final double q;
    private final double penalty;
    private final double[][] best;

    Evaluation(double p) {
      this.p = p;
      this.q = 1 - p;
      this.penalty = tolerance();
      this.best = new double[tree.size()][];
    }

    void solve(int node) {
      double[] whole = wholeOrSplit(node);
      double[] out = new double[whole.length];
      double[] row = new double[slices + 1];
      int lastFirst = node == 0 ? 0 : slices - 1;
      for (int first = 0; first <= lastFirst; first++) {
        for (int last = first; last < slices; last++) {
          int base = interval(0, last);
          double max = Double.NEGATIVE_INFINITY;
          for (int cut = first; cut <= last; cut++) {
            double candidate = row[cut - first] + whole[base + cut];
            max = candidate > max ? candidate : max;
          }
          row[last - first + 1] = max;
          out[base + first] = max;
        }
      }
      best[node] = out;
    }

    /** V(h, ·) of every interval of the node. */
    private double[] wholeOrSplit(int node) {
      double[] g = gain[node];
      double[] l = loss[node];
      double[] v = new double[g.length];
      if (tree.isLeaf(node)) {
        for (int k = 0; k < v.length; k++) {
          v[k] = p * g[k] - q * l[k] - penalty;
        }
        return v;
      }
      double[] split = childrenSum(node);
      for (int k = 0; k < v.length; k++) {
        double own = p * g[k] - q * l[k] - penalty;
        v[k] = own >= split[k] ? own : split[k];
      }
      return v;
    }

    private double[] childrenSum(int node) {
      double[] split = new double[gain[node].length];
      for (int i = 0; i < tree.childCount(node); i++) {
        double[] child = best[tree.child(node, i)];
        for (int k = 0; k < split.length; k++) {
          split[k] += child[k];
        }
      }
      return split;
    }

    Partition partition() {
      List<Part> parts = new ArrayList<>();
      double[] totals = new double[2];
      collect(0, 0, slices - 1, parts, totals);
      parts.sort(Comparator.comparingInt((Part part) -> tree.firstLeaf(part.node())).thenComparingInt(Part::first));
      return new Partition(parts, totals[0], totals[1]);
    }

    // Recomputes the candidates with the same expressions as solve(): floating point is
    // deterministic, so each maximum is found again by exact equality.
    private void collect(int node, int first, int lastOfAll, List<Part> parts, double[] totals) {
      int last = lastOfAll;
      while (last >= first) {
        int base = interval(0, last);
        double target = best[node][base + first];
        int cut = first;
        while (prefix(node, first, cut) + whole(node, base + cut) != target) {
          cut++;
        }
        double own = p * gain[node][base + cut] - q * loss[node][base + cut] - penalty;
        if (tree.isLeaf(node) || own >= split(node, base + cut)) {
          parts.add(new Part(node, cut, last));
          totals[0] += gain[node][base + cut];
          totals[1] += loss[node][base + cut];
        } else {
          for (int i = 0; i < tree.childCount(node); i++) {
            collect(tree.child(node, i), cut, last, parts, totals);
          }
        }
        last = cut - 1;
      }
    }

    private double prefix(int node, int first, int cut) {
      return cut == first ? 0 : best[node][interval(first, cut - 1)];
    }

    private double whole(int node, int k) {
      double own = p * gain[node][k] - q * loss[node][k] - penalty;
      if (tree.isLeaf(node)) {
        return own;
      }
      double split = split(node, k);
      return own >= split ? own : split;
    }

    private double split(int node, int k) {
      double sum = 0;
      for (int i = 0; i < tree.childCount(node); i++) {
        sum += best[tree.child(node, i)][k];
      }
      return sum;
    }
  }
}
