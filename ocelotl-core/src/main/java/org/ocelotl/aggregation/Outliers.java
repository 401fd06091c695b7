package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * What each part of a partition hides (docs/aggregation.md, "What each aggregate hides"): the
 * cells a part merges that deviate most from it, ranked by the information the part loses on
 * them.
 *
 * <p>The split score. For an aggregate A of n cells and a cell C ⊂ A of m cells, with c_u and S_u
 * the values of event type u summed over C and over A, and r_u = S_u − c_u, the loss of A splits
 * exactly as loss(A) = loss(C) + loss(A \ C) + score(C | A), where
 * <pre>
 *   score(C | A) = Σ_u c_u·log2((c_u/S_u)/(m/n)) + r_u·log2((r_u/S_u)/((n−m)/n))
 * </pre>
 * is what A loses by not telling C from the rest: how each type's value splits between C and the
 * rest, measured against how their cell counts split (a Kullback-Leibler divergence weighted by
 * the value). It needs the sums c_u alone. Telling C apart also gives up gain(A) − gain(C) −
 * gain(A \ C) = D − score with D = Σ_u c_u·log2(n/m) + r_u·log2(n/(n−m)), so it raises the pIC
 * exactly when score &gt; p·D: C is worth telling apart for p below score / D.
 *
 * <p>The cells of a part P = (h, [i, j]), two kinds: a <em>stretch</em> (h, [a, b]) of P's slices,
 * scored against P; a <em>subtree</em> (g, [a, b]), g strictly below h, scored against the stretch
 * (h, [a, b]) it lies in — how g departs from the other producers of the part over the same slices.
 * By the chain rule, score(stretch | P) + score(subtree | stretch) is what P loses on the split of P
 * into the subtree, the rest of its stretch and the rest of P. In temporal aggregation (a phase,
 * over the root) and spatial aggregation the cells are the subtrees over the part's whole interval.
 * Sums come from prefix sums along the part's slices of each node's per-type sums (folded up the
 * subtree): |U| pairs of x·log2 x per candidate, nodes of all parts in parallel.
 *
 * <p>Listed, highest score first: the cells whose score no one-slice move of either end of their
 * interval raises (a deviation's copies shifted by a slice are not listed beside it), each kept
 * unless it repeats a kept cell of its kind in its part: it meets one without lying inside it (a
 * host's deviation is not listed again as its cabinet's), or lies inside one, K, but tells less
 * than half of its score anew — score(C | K), what K loses on C (a rank of a slowed host is not
 * listed under it; a host computing while the rest of its cabinet waits for it is listed under the
 * cabinet) — or it is the rest of one's aggregate (C and A \ C have the same score: one split,
 * listed once). Stretches of one part never nest: they are kept only apart.
 */
public final class Outliers {
  /** Scores below this × the part's scale (as {@link Qualities#scale()}) are rounding noise. */
  static final double RELATIVE_FLOOR = 1e-12;
  /**
   * Scores are compared in steps of this × the model's scale: equal scores (a cell and the rest of
   * its aggregate, always) computed in other orders differ by rounding, and must tie so that the
   * order below decides which is listed, the same way every time.
   */
  static final double RELATIVE_STEP = 1e-9;

  private Outliers() {}

  /**
   * The cells that the parts hide, highest score first (see the class comment); {@link
   * Outlier#worthUpTo()} says up to which p each is worth telling apart.
   *
   * @param aggregation which cells are candidates: stretches and subtrees over any stretch in
   *     spatiotemporal aggregation; subtrees over the part's whole interval otherwise
   */
  public static List<Outlier> of(MicroscopicModel model, List<Part> parts, Aggregation aggregation, Work work) {
    boolean stretches = aggregation == Aggregation.SPATIOTEMPORAL;
    double step = RELATIVE_STEP * scale(model);
    Band[] bands = IntStream.range(0, parts.size()).parallel()
        .mapToObj(k -> new Band(model, k, parts.get(k), stretches, step)).toArray(Band[]::new);
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
      return bands[taskBand[t]].candidates(taskNode[t]);
    }).flatMap(List::stream).sorted(Candidate.ORDER).toList();
    return listed(bands, mostSpecificFirst(candidates, bands.length, step));
  }

  /**
   * The candidates in the order they are listed: by score, except that a cell of a descendant node
   * of fewer leaves meeting a subtree cell with at least half its score explains it — the deviation carried
   * rather than made — and the one that explains (the most specific of a chain) moves up to just
   * before the first cell it explains; the greedy choice then keeps it there and drops the cells
   * it explains that meet it: a cabinet whose departure is one host's is listed as the host, at
   * the cabinet's rank.
   */
  private static List<Candidate> mostSpecificFirst(List<Candidate> ordered, int bandCount, double step) {
    // Candidates by their rank in ordered: "scores higher in the order's steps, or as high and comes
    // first" is a lower rank, since ordered is sorted by those steps first. At 768 leaves there are
    // hundreds of thousands of candidates: everything here is arrays of ranks, linear or nearly.
    int n = ordered.size();
    // Per band and local node, the ranks of its subtree candidates, ascending.
    List<List<List<Integer>>> byNode = new ArrayList<>(java.util.Collections.nCopies(bandCount, null));
    int deepest = 0;
    for (int i = 0; i < n; i++) {
      Candidate c = ordered.get(i);
      deepest = Math.max(deepest, c.local);
      if (!c.stretch()) {
        if (byNode.get(c.band.index) == null) {
          byNode.set(c.band.index, new ArrayList<>(java.util.Collections.nCopies(c.band.nodes.length, null)));
        }
        List<List<Integer>> nodes = byNode.get(c.band.index);
        if (nodes.get(c.local) == null) {
          nodes.set(c.local, new ArrayList<>());
        }
        nodes.get(c.local).add(i);
      }
    }
    // Per candidate, what it follows (itself when nothing explains it): the deepest nodes first (a
    // node's descendants come after it in its band's preorder), so that a chain resolves to its end.
    int[][] byLocal = new int[deepest + 1][];
    int[] count = new int[deepest + 1];
    for (Candidate c : ordered) {
      count[c.local]++;
    }
    for (int g = 0; g <= deepest; g++) {
      byLocal[g] = new int[count[g]];
      count[g] = 0;
    }
    for (int i = 0; i < n; i++) {
      int g = ordered.get(i).local;
      byLocal[g][count[g]++] = i;
    }
    // Which cell explains each is independent of the others' (every core); the chains are then
    // followed deepest first.
    int[] explains = IntStream.range(0, n).parallel().map(i -> ordered.get(i).stretch() ? -1
        : explaining(ordered, byNode.get(ordered.get(i).band.index), i, step)).toArray();
    int[] anchor = new int[n];
    for (int g = deepest; g >= 0; g--) {
      for (int i : byLocal[g]) {
        anchor[i] = explains[i] < 0 ? i : anchor[explains[i]];
      }
    }
    // A cell that explains others moves up to the place of the first of them, just before it; the
    // cells explained keep theirs (those meeting it are then dropped, the others listed as before).
    int[] place = new int[n];
    java.util.Arrays.fill(place, -1);
    for (int i = 0; i < n; i++) {
      if (place[anchor[i]] < 0) {
        place[anchor[i]] = i;
      }
    }
    // Keys in halves, all distinct: a promoted cell at 2·place, a cell at its own rank at 2·rank + 1.
    Candidate[] byKey = new Candidate[2 * n + 2];
    for (int i = 0; i < n; i++) {
      byKey[place[i] >= 0 && place[i] < i ? 2 * place[i] : 2 * i + 1] = ordered.get(i);
    }
    List<Candidate> result = new ArrayList<>(n);
    for (Candidate c : byKey) {
      if (c != null) {
        result.add(c);
      }
    }
    return result;
  }

  /**
   * The rank of the candidate that explains the subtree cell of rank i — of a node below its own
   * with fewer leaves (a node of a one-child chain is the same cells as its child, not a cause
   * inside it), meeting it, scoring at least half as much, the first in rank of those — or −1.
   * Each node's candidates come in rank order, so a node is read up to its first that explains,
   * or to the rank found so far, or to the score steps below half.
   */
  private static int explaining(List<Candidate> ordered, List<List<Integer>> nodes, int i, double step) {
    Candidate c = ordered.get(i);
    double half = c.score / 2;
    int leaves = c.leaves();
    int explains = -1;
    for (int d = c.local + 1; d < c.band.nodes.length && c.band.below(d, c.local); d++) {
      if (nodes.get(d) == null || c.band.tree.leafCount(c.band.nodes[d]) >= leaves) {
        continue;
      }
      for (int j : nodes.get(d)) {
        Candidate e = ordered.get(j);
        if (explains >= 0 && j >= explains || (e.steps + 1) * step < half) {
          break;
        }
        if (e.score >= half && e.meets(c)) {
          explains = j;
          break;
        }
      }
    }
    return explains;
  }

  /**
   * The parts of a spatial view's cut (the treemap's and the topology graph's, at p or at a depth,
   * for the window or one time step), to rank as {@link #of} ranks a spatial partition's: the shown
   * nodes with more than one leaf (a leaf hides nothing), in node order, each over [first, last].
   */
  public static List<Part> shownParts(ProducerTree tree, boolean[] shown, int first, int last) {
    List<Part> parts = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      if (shown[node] && tree.leafCount(node) > 1) {
        parts.add(new Part(node, first, last));
      }
    }
    return parts;
  }

  /** A locally maximal cell: local node g of a band over boundaries [a, b); a stretch when g is the part's node. */
  /**
   * A cell of a part, and its score; steps = its score in steps of the order (equal scores differ by
   * rounding), cells = its count of cells, both kept for the sort of hundreds of thousands.
   */
  private record Candidate(Band band, int local, int a, int b, double score, double worthUpTo, double steps,
      double cells) {
    Candidate(Band band, int local, int a, int b, double score, double worthUpTo) {
      this(band, local, a, b, score, worthUpTo, Math.rint(score / band.step),
          (double) band.tree.leafCount(band.nodes[local]) * (band.positions[b] - band.positions[a]));
    }

    /** Highest score first; on a tie the smaller cell (the deviation, not the rest), then the earlier. */
    static final Comparator<Candidate> ORDER = Comparator.comparingDouble((Candidate c) -> -c.steps)
        .thenComparingDouble(Candidate::cells).thenComparingInt(c -> c.band.index)
        .thenComparingInt(c -> c.band.nodes[c.local]).thenComparingInt(c -> c.a).thenComparingInt(c -> c.b);

    boolean stretch() {
      return local == 0;
    }

    int leaves() {
      return band.tree.leafCount(band.nodes[local]);
    }

    int first() {
      return band.part.first() + band.positions[a];
    }

    int last() {
      return band.part.first() + band.positions[b] - 1;
    }

    int firstLeaf() {
      return band.tree.firstLeaf(band.nodes[local]);
    }

    int lastLeaf() {
      return firstLeaf() + leaves() - 1;
    }

    /** Whether the two cells (of one part) share a leaf over a slice. */
    boolean meets(Candidate o) {
      return first() <= o.last() && o.first() <= last() && firstLeaf() <= o.lastLeaf() && o.firstLeaf() <= lastLeaf();
    }

    /** Whether every cell of this one is in o (a subtree's leaves are a range). */
    boolean inside(Candidate o) {
      return o.first() <= first() && last() <= o.last() && o.firstLeaf() <= firstLeaf() && lastLeaf() <= o.lastLeaf();
    }
  }

  /**
   * Greedy: each candidate in order, kept unless it repeats a kept cell of its kind (see the class
   * comment). Parts are disjoint and a candidate is only ever compared with cells of its own part,
   * so each part makes its choice on its own (every core), on its candidates in the list's order;
   * the kept ones are listed in that order.
   */
  private static List<Outlier> listed(Band[] bands, List<Candidate> candidates) {
    int n = candidates.size();
    int[] count = new int[bands.length];
    for (Candidate c : candidates) {
      count[c.band.index]++;
    }
    int[][] byBand = new int[bands.length][];
    for (int b = 0; b < bands.length; b++) {
      byBand[b] = new int[count[b]];
      count[b] = 0;
    }
    for (int i = 0; i < n; i++) {
      int b = candidates.get(i).band.index;
      byBand[b][count[b]++] = i;
    }
    boolean[] keep = new boolean[n];
    IntStream.range(0, bands.length).parallel().forEach(b -> choose(bands[b], candidates, byBand[b], keep));
    return IntStream.range(0, n).parallel().filter(i -> keep[i])
        .mapToObj(i -> candidates.get(i).band.outlier(candidates.get(i))).toList();
  }

  /**
   * One part's greedy choice among its candidates (ranks in the list, in order), into keep.
   * Subtrees: a bitmap of the part's leaves × slices taken says whether one meets a kept subtree, a
   * set of (slices, leaves) whether its complement in its stretch is kept. Stretches: the part's
   * kept stretches, few, are looked at.
   */
  private static void choose(Band band, List<Candidate> candidates, int[] ranks, boolean[] keep) {
    int firstOfPart = band.tree.firstLeaf(band.part.node());
    int words = (band.part.sliceCount() + 63) >>> 6;
    long[] taken = new long[band.leaves * words];
    Set<List<Integer>> keptSubtrees = new HashSet<>();
    Kept keptSubtreesOf = new Kept(band);
    List<Candidate> keptStretches = new ArrayList<>();
    for (int i : ranks) {
      Candidate c = candidates.get(i);
      boolean fresh;
      if (c.stretch()) {
        fresh = keptStretches.stream().noneMatch(k -> k.first() <= c.last() && c.first() <= k.last()
            || k.cells() + c.cells() == band.cells);
        if (fresh) {
          keptStretches.add(c);
        }
      } else {
        int firstLeaf = c.firstLeaf() - firstOfPart;
        int first = c.first() - band.part.first();
        int last = c.last() - band.part.first();
        fresh = (!anyTaken(taken, words, firstLeaf, c.leaves(), first, last) || keptSubtreesOf.toldAnew(c))
            && !keptSubtrees.contains(complement(c));
        if (fresh) {
          take(taken, words, firstLeaf, c.leaves(), first, last);
          keptSubtrees.add(List.of(c.band.index, c.first(), c.last(), c.firstLeaf(), c.leaves()));
          keptSubtreesOf.add(c);
        }
      }
      keep[i] = fresh;
    }
  }

  /**
   * The key (part, slices, first leaf, leaves) of the rest of a subtree's stretch when that rest is
   * one band of leaves (the subtree takes the first or the last leaves of the part's node).
   */
  private static List<Integer> complement(Candidate c) {
    int h0 = c.band.tree.firstLeaf(c.band.part.node());
    int rest = c.band.leaves - c.leaves();
    if (c.firstLeaf() != h0 && c.lastLeaf() != h0 + c.band.leaves - 1) {
      return List.of(); // in the middle: its rest is two bands, no kept cell
    }
    int first = c.firstLeaf() == h0 ? c.lastLeaf() + 1 : h0;
    return List.of(c.band.index, c.first(), c.last(), first, rest);
  }

  /**
   * The subtree cells kept so far in one part, by node: only those of the candidate's node, its
   * ancestors and its descendants can meet it (other nodes' leaves are disjoint from its), so a
   * candidate is compared with those alone — at 768 leaves the part of the default p keeps
   * thousands of cells, and comparing each candidate with all of them made the list cost more than
   * the overview (docs/benchmarks.md).
   */
  private static final class Kept {
    private final Band band;
    /** Per local node, the kept cells at it, and those at its strict descendants. */
    private final List<List<Candidate>> at;
    private final List<List<Candidate>> below;

    Kept(Band band) {
      this.band = band;
      at = new ArrayList<>(java.util.Collections.nCopies(band.nodes.length, null));
      below = new ArrayList<>(java.util.Collections.nCopies(band.nodes.length, null));
    }

    void add(Candidate c) {
      listAt(at, c.local).add(c);
      for (int g = band.parent[c.local]; g >= 0; g = band.parent[g]) {
        listAt(below, g).add(c);
      }
    }

    private static List<Candidate> listAt(List<List<Candidate>> lists, int g) {
      List<Candidate> list = lists.get(g);
      if (list == null) {
        list = new ArrayList<>();
        lists.set(g, list);
      }
      return list;
    }

    /**
     * Whether a subtree meeting kept subtrees of its part lies inside each and tells at least half
     * of its score anew inside each.
     */
    boolean toldAnew(Candidate c) {
      for (int g = c.local; g >= 0; g = band.parent[g]) {
        if (!toldAnew(c, at.get(g))) {
          return false;
        }
      }
      return toldAnew(c, below.get(c.local));
    }

    private static boolean toldAnew(Candidate c, List<Candidate> kept) {
      if (kept != null) {
        for (Candidate k : kept) {
          if (c.meets(k) && !(c.inside(k) && c.band.within(c, k) >= c.score / 2)) {
            return false;
          }
        }
      }
      return true;
    }
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
    /** The part's subtree, parents before children: local 0 is the part's node. */
    final int[] nodes;
    /** Per local node, the local index of its parent; −1 for the part's node. */
    final int[] parent;
    /** Slice offsets from the part's first slice of the boundaries a candidate may start or end at. */
    final int[] positions;
    /** Per local node, per boundary, per type: the sum over its leaves from the part's first slice. */
    final double[][] prefix;
    /** Per interval of boundaries [a, b) of the part's node: its value and Σ_u S_u·log2 S_u. */
    final double[] stretchMass;
    final double[] stretchInfo;
    final int leaves;
    final double cells;
    final double floor;
    /** The order's step: scores closer than this are equal. */
    final double step;

    Band(MicroscopicModel model, int index, Part part, boolean stretches, double step) {
      this.index = index;
      this.step = step;
      this.part = part;
      this.tree = model.tree();
      this.types = model.typeCount();
      int length = part.sliceCount();
      positions = stretches ? IntStream.rangeClosed(0, length).toArray() : new int[] {0, length};
      int[] parentOf = new int[tree.size()]; // local parent, filled as the walk meets each node
      nodes = subtree(tree, part.node(), parentOf);
      parent = java.util.Arrays.copyOf(parentOf, nodes.length);
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
      int last = positions.length - 1;
      stretchMass = new double[pair(0, last + 1)];
      stretchInfo = new double[stretchMass.length];
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          double mass = 0;
          double info = 0;
          for (int u = 0; u < types; u++) {
            double s = sum(prefix[0], a, b, u);
            mass += s;
            info += Log2.xlog2x(s);
          }
          stretchMass[pair(a, b)] = mass;
          stretchInfo[pair(a, b)] = info;
        }
      }
      leaves = tree.leafCount(part.node());
      cells = (double) leaves * length;
      double mass = stretchMass[pair(0, last)];
      floor = mass == 0 ? 0 : RELATIVE_FLOOR * mass * (Log2.log2(cells) + Math.abs(Log2.log2(mass)) + 1);
    }

    /** Whether local node d, after g in preorder, is below g: the nodes after g up to its last descendant. */
    boolean below(int d, int g) {
      int first = tree.firstLeaf(nodes[g]);
      int leaf = tree.firstLeaf(nodes[d]);
      return leaf >= first && leaf < first + tree.leafCount(nodes[g]);
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

    /** Type u summed between boundaries a and b; a difference of running sums, clamped at 0 (rounding). */
    private double sum(double[] sums, int a, int b, int u) {
      return Math.max(0, sums[b * types + u] - sums[a * types + u]);
    }

    /**
     * The cells of local node g that deviate (above rounding) and that no one-slice move of an end
     * improves. Every interval is scored first, so that each can be compared with its neighbours.
     */
    List<Candidate> candidates(int g) {
      int last = positions.length - 1;
      boolean stretch = g == 0;
      int leavesOfG = tree.leafCount(nodes[g]);
      if (stretchMass[pair(0, last)] == 0 || !stretch && leavesOfG == leaves || stretch && last == 1) {
        return List.of(); // nothing to tell apart: no value, the same leaves as the part's node, one interval
      }
      int count = pair(0, last + 1);
      double[] score = SCRATCH.get();
      if (score.length < count) {
        score = new double[count];
        SCRATCH.set(score);
      }
      double[] inside = new double[last + 1];
      double[] outside = new double[last + 1];
      logRatios(stretch, leavesOfG, inside, outside);
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          score[pair(a, b)] = score(g, a, b, inside, outside);
        }
      }
      List<Candidate> found = new ArrayList<>();
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          double s = score[pair(a, b)];
          if (s > floor && localMaximum(score, s, a, b, last)) {
            found.add(new Candidate(this, g, a, b, s, s / split(g, a, b, inside, outside)));
          }
        }
      }
      return found;
    }

    /**
     * log2(n/m) and log2(n/(n−m)) by the cell's width in boundaries: for a stretch against the part,
     * n/m = the part's slices over the stretch's; for a subtree against its stretch, the part's
     * node's leaves over g's, whatever the width.
     */
    private void logRatios(boolean stretch, int leavesOfG, double[] inside, double[] outside) {
      int length = part.sliceCount();
      for (int w = 1; w < inside.length; w++) {
        int width = positions[w] - positions[0];
        double n = stretch ? length : leaves;
        double m = stretch ? width : leavesOfG;
        inside[w] = Log2.log2(n / m);
        outside[w] = m < n ? Log2.log2(n / (n - m)) : 0;
      }
    }

    /** The boundaries of the aggregate a cell is scored against: the part for a stretch, else its stretch. */
    private int referenceA(int g, int a) {
      return g == 0 ? 0 : a;
    }

    private int referenceB(int g, int b) {
      return g == 0 ? positions.length - 1 : b;
    }

    /** score(C | A): Σ_u xlog c + xlog r, − Σ_u xlog S, + C·log2(n/m) + R·log2(n/(n−m)). */
    private double score(int g, int a, int b, double[] inside, double[] outside) {
      double[] cs = prefix[g];
      double[] rs = prefix[0];
      int ra = referenceA(g, a);
      int rb = referenceB(g, b);
      double info = 0;
      double in = 0;
      for (int u = 0; u < types; u++) {
        double s = sum(rs, ra, rb, u);
        double c = Math.min(s, sum(cs, a, b, u));
        info += Log2.xlog2x(c) + Log2.xlog2x(s - c);
        in += c;
      }
      int k = pair(ra, rb);
      int w = b - a;
      return Math.max(0, info - stretchInfo[k] + in * inside[w] + Math.max(0, stretchMass[k] - in) * outside[w]);
    }

    /** D: the score plus the gain that telling the cell apart gives up. */
    private double split(int g, int a, int b, double[] inside, double[] outside) {
      double in = 0;
      for (int u = 0; u < types; u++) {
        in += sum(prefix[g], a, b, u);
      }
      int w = b - a;
      return in * inside[w] + Math.max(0, stretchMass[pair(referenceA(g, a), referenceB(g, b))] - in) * outside[w];
    }

    private static boolean localMaximum(double[] score, double s, int a, int b, int last) {
      return (a == 0 || score[pair(a - 1, b)] <= s) && (a + 1 == b || score[pair(a + 1, b)] <= s)
          && (b - 1 == a || score[pair(a, b - 1)] <= s) && (b == last || score[pair(a, b + 1)] <= s);
    }

    /** score(C | K) for C inside K, both of this part: the split score with K as the aggregate. */
    double within(Candidate c, Candidate k) {
      double n = k.cells();
      double m = c.cells();
      if (m >= n) {
        return 0;
      }
      double inside = Log2.log2(n / m);
      double outside = Log2.log2(n / (n - m));
      double s = 0;
      for (int u = 0; u < types; u++) {
        double total = sum(prefix[k.local], k.a, k.b, u);
        double cu = Math.min(total, sum(prefix[c.local], c.a, c.b, u));
        s += Log2.xlog2x(cu) + Log2.xlog2x(total - cu) - Log2.xlog2x(total) + cu * inside + (total - cu) * outside;
      }
      return Math.max(0, s);
    }

    /** The candidate as an outlier, with the type whose term of the score is largest. */
    Outlier outlier(Candidate c) {
      double[] inside = new double[positions.length];
      double[] outside = new double[positions.length];
      logRatios(c.stretch(), c.leaves(), inside, outside);
      int w = c.b - c.a;
      int ra = referenceA(c.local, c.a);
      int rb = referenceB(c.local, c.b);
      double in = 0;
      int type = 0;
      double largest = Double.NEGATIVE_INFINITY;
      for (int u = 0; u < types; u++) {
        double s = sum(prefix[0], ra, rb, u);
        double cu = Math.min(s, sum(prefix[c.local], c.a, c.b, u));
        double term = Log2.xlog2x(cu) + Log2.xlog2x(s - cu) - Log2.xlog2x(s) + cu * inside[w] + (s - cu) * outside[w];
        in += cu;
        if (term > largest) {
          largest = term;
          type = u;
        }
      }
      double cu = sum(prefix[c.local], c.a, c.b, type);
      double mass = stretchMass[pair(ra, rb)];
      return new Outlier(index, nodes[c.local], c.first(), c.last(), c.score, c.worthUpTo, type,
          in > 0 ? cu / in : 0, sum(prefix[0], ra, rb, type) / mass);
    }
  }
}
