package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * What each part of a partition hides (docs/aggregation.md, "What each aggregate hides"): the
 * cells a part merges that deviate most from it, ranked by the information the part loses on
 * them.
 *
 * <p>A cell C of a part P (n cells) is a node g of P's subtree over slices [a, b] of P's
 * interval, m = leaves(g)·(b − a + 1) cells; R = P \ C. Per event type u, with c_u, r_u, S_u the
 * values of C, R and P summed, the loss of P splits exactly as loss(P) = loss(C) + loss(R) +
 * score(C), where
 * <pre>
 *   score(C) = Σ_u c_u·log2((c_u/S_u)/(m/n)) + r_u·log2((r_u/S_u)/((n−m)/n))
 * </pre>
 * is what P loses by not telling C from R: the Kullback-Leibler divergence, weighted by the mass,
 * of how each type's value splits between C and R from how their cell counts split. It needs the
 * sums c_u alone, read from prefix sums along time of each node's per-type sums (folded up the
 * subtree): |U| pairs of x·log2 x per candidate. Telling C apart also gives up
 * gain(P) − gain(C) − gain(R) = D − score with D = Σ_u c_u·log2(n/m) + r_u·log2(n/(n−m)), so it
 * raises the pIC exactly when score &gt; p·D: a cell is hidden at p when that holds.
 *
 * <p>Listed: the hidden cells whose score no one-slice move of either end of their interval
 * raises (a deviation's near copies, shifted by a slice, are not listed beside it), highest
 * score first, each kept only when it overlaps no cell kept before it (a host's deviation is not
 * listed again as its cabinet's, or as one of its ranks') and is not the rest of its part beside
 * one (C and P \ C have the same score: it is one split, listed once).
 */
public final class Outliers {
  /** Scores below this × the part's scale (as {@link Qualities#scale()}) are rounding noise. */
  static final double RELATIVE_FLOOR = 1e-12;

  private Outliers() {}

  /**
   * The hidden cells of the parts, highest score first, none overlapping another.
   *
   * @param aggregation which cells are candidates: in spatiotemporal aggregation any subtree of
   *     a part's node over any stretch of its slices; in temporal (a phase, whose node is the
   *     root) and spatial aggregation a subtree over the part's whole interval
   * @param p the trade-off the partition was chosen for: only the cells worth telling apart at
   *     p are listed
   */
  public static List<Outlier> of(MicroscopicModel model, List<Part> parts, Aggregation aggregation, double p,
      Work work) {
    boolean stretches = aggregation == Aggregation.SPATIOTEMPORAL;
    Band[] bands = IntStream.range(0, parts.size()).parallel()
        .mapToObj(k -> new Band(model, k, parts.get(k), stretches)).toArray(Band[]::new);
    int tasks = 0;
    for (Band band : bands) {
      tasks += band.nodes.length;
    }
    int[] taskBand = new int[tasks];
    int[] taskNode = new int[tasks];
    for (int b = 0, t = 0; b < bands.length; b++) {
      for (int g = 0; g < bands[b].nodes.length; g++, t++) {
        taskBand[t] = b;
        taskNode[t] = g;
      }
    }
    List<Candidate> candidates = IntStream.range(0, tasks).parallel().mapToObj(t -> {
      work.check();
      return bands[taskBand[t]].candidates(taskNode[t], p);
    }).flatMap(List::stream).sorted(Candidate.order(RELATIVE_STEP * scale(model))).toList();
    return disjoint(model, bands, candidates);
  }

  /**
   * Scores are compared in steps of this × the model's scale: equal scores (a cell and the rest of
   * its part, always) computed in other orders differ by rounding, and must tie so that the order
   * below decides which is listed, the same way every time.
   */
  static final double RELATIVE_STEP = 1e-9;

  /** A hidden, locally maximal cell: local node g of a band over boundaries [a, b). */
  private record Candidate(Band band, int local, int a, int b, double score, double worthUpTo) {
    /** Highest score first; on a tie the smaller cell (the deviation, not its background), then the earlier. */
    static Comparator<Candidate> order(double step) {
      return Comparator.comparingDouble((Candidate c) -> -Math.rint(c.score / step))
          .thenComparingDouble(Candidate::cells).thenComparingInt(c -> c.band.index)
          .thenComparingInt(c -> c.band.nodes[c.local]).thenComparingInt(c -> c.a).thenComparingInt(c -> c.b);
    }

    double cells() {
      return (double) band.tree.leafCount(band.nodes[local]) * (band.positions[b] - band.positions[a]);
    }

    int first() {
      return band.part.first() + band.positions[a];
    }

    int last() {
      return band.part.first() + band.positions[b] - 1;
    }
  }

  /**
   * Greedy: each candidate in order, kept when none of its cells is already taken and it is not
   * the complement in its part of a kept cell (disjoint cells whose counts add up to the part's).
   */
  private static List<Outlier> disjoint(MicroscopicModel model, Band[] bands, List<Candidate> candidates) {
    ProducerTree tree = model.tree();
    int words = (model.slices() + 63) >>> 6;
    long[] taken = new long[model.leaves() * words];
    // Per part, the cell count of its first kept cell: any later kept cell lies in that cell's
    // complement, so no other complement can be disjoint from every kept cell.
    double[] keptCells = new double[bands.length];
    List<Outlier> kept = new ArrayList<>();
    for (Candidate c : candidates) {
      int node = c.band.nodes[c.local];
      int firstLeaf = tree.firstLeaf(node);
      int leaves = tree.leafCount(node);
      double cells = c.cells();
      if (!anyTaken(taken, words, firstLeaf, leaves, c.first(), c.last())
          && keptCells[c.band.index] + cells != c.band.cells) {
        take(taken, words, firstLeaf, leaves, c.first(), c.last());
        keptCells[c.band.index] = keptCells[c.band.index] == 0 ? cells : keptCells[c.band.index];
        kept.add(c.band.outlier(c));
      }
    }
    return List.copyOf(kept);
  }

  /** Total mass × (log2 of the cell count + |log2 of the mass| + 1), as {@link Qualities#scale()}; 1 when all zero. */
  private static double scale(MicroscopicModel model) {
    double mass = 0;
    for (double v : model.values()) {
      mass += v;
    }
    return mass == 0 ? 1 : mass * (Log2.log2((double) model.leaves() * model.slices()) + Math.abs(Log2.log2(mass)) + 1);
  }

  private static boolean anyTaken(long[] taken, int words, int firstLeaf, int leaves, int first, int last) {
    for (int leaf = firstLeaf; leaf < firstLeaf + leaves; leaf++) {
      for (int w = first >>> 6; w <= last >>> 6; w++) {
        if ((taken[leaf * words + w] & mask(w, first, last)) != 0) {
          return true;
        }
      }
    }
    return false;
  }

  private static void take(long[] taken, int words, int firstLeaf, int leaves, int first, int last) {
    for (int leaf = firstLeaf; leaf < firstLeaf + leaves; leaf++) {
      for (int w = first >>> 6; w <= last >>> 6; w++) {
        taken[leaf * words + w] |= mask(w, first, last);
      }
    }
  }

  /** The bits of slices [first, last] that fall in word w. */
  private static long mask(int w, int first, int last) {
    int from = Math.max(first, w << 6) & 63;
    int to = Math.min(last, (w << 6) + 63) & 63;
    return (-1L << from) & (-1L >>> (63 - to));
  }

  /** Scores of one node's intervals, reused by the thread that evaluates the next node. */
  private static final ThreadLocal<double[]> SCRATCH = ThreadLocal.withInitial(() -> new double[0]);

  /**
   * One part's subtree with, per node, the per-type sums of its leaves at each boundary of the
   * candidate intervals: prefix sums along the part's slices (every boundary) for stretches, the
   * part's whole sum otherwise.
   */
  private static final class Band {
    final int index;
    final Part part;
    final ProducerTree tree;
    final int types;
    /** The part's subtree, parents before children. */
    final int[] nodes;
    /** Slice offsets from the part's first slice of the boundaries a candidate may start or end at. */
    final int[] positions;
    /** Per local node, per boundary, per type: the sum over its leaves from the part's first slice. */
    final double[][] prefix;
    final double[] totals;
    /** Σ_u S_u·log2 S_u. */
    final double totalsInfo;
    final double mass;
    final double cells;
    final double floor;

    Band(MicroscopicModel model, int index, Part part, boolean stretches) {
      this.index = index;
      this.part = part;
      this.tree = model.tree();
      this.types = model.typeCount();
      int length = part.sliceCount();
      positions = stretches ? IntStream.rangeClosed(0, length).toArray() : new int[] {0, length};
      int[] parentOf = new int[tree.size()]; // local parent, filled as the walk meets each node
      nodes = subtree(tree, part.node(), parentOf);
      prefix = new double[nodes.length][positions.length * types];
      double[] values = model.values();
      for (int k = 0; k < nodes.length; k++) {
        if (tree.isLeaf(nodes[k])) {
          fillLeaf(model, values, tree.firstLeaf(nodes[k]), prefix[k], stretches);
        }
      }
      for (int k = nodes.length - 1; k > 0; k--) {
        double[] into = prefix[parentOf[k]];
        double[] from = prefix[k];
        for (int i = 0; i < from.length; i++) {
          into[i] += from[i];
        }
      }
      totals = new double[types];
      System.arraycopy(prefix[0], (positions.length - 1) * types, totals, 0, types);
      double sum = 0;
      double info = 0;
      for (double s : totals) {
        sum += s;
        info += Log2.xlog2x(s);
      }
      mass = sum;
      totalsInfo = info;
      cells = (double) tree.leafCount(part.node()) * length;
      floor = mass == 0 ? 0 : RELATIVE_FLOOR * mass * (Log2.log2(cells) + Math.abs(Log2.log2(mass)) + 1);
    }

    /** The subtree of root in preorder; parentOf[k] = the local index of node k's parent. */
    private static int[] subtree(ProducerTree tree, int root, int[] parentOf) {
      int[] order = new int[tree.size()];
      int[] stack = new int[tree.size()];
      int[] stackParent = new int[tree.size()];
      int size = 0;
      int top = 0;
      stack[top] = root;
      stackParent[top++] = -1;
      while (top > 0) {
        int node = stack[--top];
        parentOf[size] = stackParent[top];
        int local = size++;
        order[local] = node;
        for (int c = tree.childCount(node) - 1; c >= 0; c--) {
          stack[top] = tree.child(node, c);
          stackParent[top++] = local;
        }
      }
      return java.util.Arrays.copyOf(order, size);
    }

    private void fillLeaf(MicroscopicModel model, double[] values, int leaf, double[] into, boolean stretches) {
      int from = model.index(leaf, part.first(), 0);
      double[] running = new double[types];
      for (int t = 0; t < part.sliceCount(); t++) {
        for (int u = 0; u < types; u++) {
          running[u] += values[from + t * types + u];
        }
        if (stretches) {
          System.arraycopy(running, 0, into, (t + 1) * types, types);
        }
      }
      if (!stretches) {
        System.arraycopy(running, 0, into, types, types);
      }
    }

    /** Index of boundaries [a, b), a &lt; b, in a triangular array. */
    private static int pair(int a, int b) {
      return (b - 1) * b / 2 + a;
    }

    /**
     * The hidden cells of local node g that no one-slice move of an end improves. Every interval
     * is scored first, so that each can be compared with its four neighbours.
     */
    List<Candidate> candidates(int g, double p) {
      if (!(mass > 0)) {
        return List.of();
      }
      int last = positions.length - 1;
      int count = pair(0, last + 1);
      double[] score = SCRATCH.get();
      if (score.length < count) {
        score = new double[count];
        SCRATCH.set(score);
      }
      double[] sums = prefix[g];
      double leaves = tree.leafCount(nodes[g]);
      // log2(n/m) and log2(n/(n−m)) by the interval's width in slices
      int length = part.sliceCount();
      double[] inside = new double[length + 1];
      double[] outside = new double[length + 1];
      for (int w = 1; w <= length; w++) {
        double m = leaves * w;
        inside[w] = Log2.log2(cells / m);
        outside[w] = m < cells ? Log2.log2(cells / (cells - m)) : 0;
      }
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          score[pair(a, b)] = score(sums, a, b, inside, outside);
        }
      }
      List<Candidate> found = new ArrayList<>();
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          double s = score[pair(a, b)];
          if (s > floor && s > p * split(sums, a, b, inside, outside) && localMaximum(score, s, a, b, last)) {
            found.add(new Candidate(this, g, a, b, s, s / split(sums, a, b, inside, outside)));
          }
        }
      }
      return found;
    }

    private static boolean localMaximum(double[] score, double s, int a, int b, int last) {
      return (a == 0 || score[pair(a - 1, b)] <= s) && (a + 1 == b || score[pair(a + 1, b)] <= s)
          && (b - 1 == a || score[pair(a, b - 1)] <= s) && (b == last || score[pair(a, b + 1)] <= s);
    }

    /** score(C) for boundaries [a, b): Σ_u xlog c + xlog r − xlog S, plus C·log2(n/m) + R·log2(n/(n−m)). */
    private double score(double[] sums, int a, int b, double[] inside, double[] outside) {
      double info = 0;
      double in = 0;
      int from = a * types;
      int to = b * types;
      for (int u = 0; u < types; u++) {
        double c = Math.max(0, sums[to + u] - sums[from + u]); // a difference of running sums: clamp rounding
        double r = Math.max(0, totals[u] - c);
        info += Log2.xlog2x(c) + Log2.xlog2x(r);
        in += c;
      }
      int width = positions[b] - positions[a];
      double s = info - totalsInfo + in * inside[width] + Math.max(0, mass - in) * outside[width];
      return Math.max(0, s);
    }

    /** D: the score plus the gain that telling the cell apart gives up. */
    private double split(double[] sums, int a, int b, double[] inside, double[] outside) {
      double in = 0;
      for (int u = 0; u < types; u++) {
        in += Math.max(0, sums[b * types + u] - sums[a * types + u]);
      }
      int width = positions[b] - positions[a];
      return in * inside[width] + Math.max(0, mass - in) * outside[width];
    }

    /** The candidate as an outlier, with the type whose term of the score is largest. */
    Outlier outlier(Candidate c) {
      double[] sums = prefix[c.local];
      int width = positions[c.b] - positions[c.a];
      double m = (double) tree.leafCount(nodes[c.local]) * width;
      double inside = Log2.log2(cells / m);
      double outside = m < cells ? Log2.log2(cells / (cells - m)) : 0;
      double in = 0;
      int type = 0;
      double largest = Double.NEGATIVE_INFINITY;
      for (int u = 0; u < types; u++) {
        double cu = Math.max(0, sums[c.b * types + u] - sums[c.a * types + u]);
        double ru = Math.max(0, totals[u] - cu);
        double term = Log2.xlog2x(cu) + Log2.xlog2x(ru) - Log2.xlog2x(totals[u]) + cu * inside + ru * outside;
        in += cu;
        if (term > largest) {
          largest = term;
          type = u;
        }
      }
      double cu = Math.max(0, sums[c.b * types + type] - sums[c.a * types + type]);
      return new Outlier(index, nodes[c.local], c.first(), c.last(), c.score, c.worthUpTo, type,
          in > 0 ? cu / in : 0, totals[type] / mass);
    }
  }
}
