package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Arrays;
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
 * best(h,[i,c−1]) + V(h,[c,j]) with best(h, empty) = 0. O(|T|³/6) per node at most (a cut c is
 * skipped at j where [c, j] is worth more cut than whole, see {@link #cutMargin}), subtrees in
 * parallel, children before parents; the root needs only intervals starting at 0.
 *
 * <p>Memory, for H tree nodes and I = |T|(|T|+1)/2 intervals: the qualities take 20·H·I bytes
 * (gain and loss of every aggregate, a reference to its shared Part); one evaluation of a p keeps
 * the decision of every subproblem, 4·H·I bytes, and while it runs the line (gain, loss, parts: 20
 * bytes) of every subproblem of the nodes solved whose parent is not, taken from and given back to
 * the evaluation's free list. The constructor reserves (20 + 24·(2 + P))·H·I bytes, P being the
 * fork/join parallelism: the qualities, and room for 2 + P evaluations and their lines.
 */
final class SpatiotemporalQualities extends Qualities {
  private final ProducerTree tree;
  private final int slices;
  private final double[][] gain;
  private final double[][] loss;
  // One Part object per aggregate, shared by every partition that uses it: the breakpoints of a
  // large model hold thousands of partitions that differ in a few parts. Parts are immutable, so
  // a racy first fill is harmless. A node's row is made when a partition first has one of its
  // parts: the breakpoint search builds no partition, and the rows (24 MB of references at 1,189
  // nodes × 100 slices) are not held while its envelopes need the heap.
  private final Part[][] parts;
  /**
   * How far the best of [c, j] must lie above V(c, j), its value as one part (or its children's
   * optima), for cut c to be skipped at j in every row before c: more than the rounding of the sums
   * that compare them, so a skipped cut is strictly below each row's maximum and the programme gives
   * the values and cuts it gives without skipping, bit for bit.
   *
   * <p>Why: write B for the computed best, u = 2^−53, M a bound of every sum's magnitude. Let row c's
   * optimum at j be cut at c* > c. For a row first &lt; c and any y ≥ c, B(first, y) ≥ B(first, c − 1) +
   * B(c, y) − 2k·u·M, k the number of segments of [c, y]'s optimum (by induction on k: its last
   * segment [x, y] is a candidate of row first at y, one rounding there and one in B(c, y)). So row
   * first's maximum at j is at least its candidate c, fl(B(first, c − 1) + V(c, j)), plus B(c, j) −
   * V(c, j) − (2·|T| + 1)·u·M. The sums are values of segmentations, p·Σgain − (1 − p)·Σloss −
   * τ·parts over disjoint aggregates; gains and losses of disjoint aggregates add up to at most
   * the {@link #scale()} (each is at most its mass × log2 of its cells), and τ·parts ≤ 10^−12 × cells ×
   * scale, so M ≤ 4 × scale for any model that fits in memory, and u·M ≤ ulp(4 × scale); one more
   * ulp for the rounding of V + margin in the test.
   *
   * <p>Skipping cut c drops a candidate in each earlier row (N³/6 per node in all): cuts that lose
   * to a finer cutting of their own interval are most of them at the p where partitions have many
   * parts, two to four times fewer candidates on the 768-leaf benchmark model (docs/benchmarks.md).
   */
  private final double cutMargin;

  SpatiotemporalQualities(MicroscopicModel model, Work work) {
    super(model, work);
    tree = model.tree();
    slices = model.slices();
    int nodes = tree.size();
    int types = model.typeCount();
    int intervals = intervalArrayLength(slices);
    requireHeap(BYTES_PER_AGGREGATE * nodes * intervals + 8L * nodes * slices * (types + 1),
        String.format("spatiotemporal qualities of %d nodes × %d slices (%d bytes × nodes × |T|(|T|+1)/2)",
            nodes, slices, BYTES_PER_AGGREGATE));
    double[][] series = new double[nodes][];
    double[][] info = new double[nodes][];
    sumSeries(model, series, info);
    gain = new double[nodes][];
    loss = new double[nodes][];
    java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
    IntStream.range(0, nodes).parallel().forEach(node -> {
      work.check();
      fillNode(node, series[node], info[node], types);
      work.advanced(done.incrementAndGet(), nodes);
    });
    parts = new Part[nodes][];
    cutMargin = (2.0 * slices + 2) * Math.ulp(4 * scale());
  }

  private SpatiotemporalQualities(SpatiotemporalQualities computed, Work work) {
    super(computed, work);
    tree = computed.tree;
    slices = computed.slices;
    gain = computed.gain;
    loss = computed.loss;
    parts = computed.parts;
    cutMargin = computed.cutMargin;
    requireHeap((BYTES_PER_AGGREGATE - QUALITY_BYTES) * tree.size() * gain[0].length,
        String.format("spatiotemporal evaluations of %d nodes × %d slices (%d bytes × nodes × |T|(|T|+1)/2)",
            tree.size(), slices, BYTES_PER_AGGREGATE - QUALITY_BYTES));
  }

  @Override
  public Qualities withWork(Work work) {
    return new SpatiotemporalQualities(this, work);
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
      Arrays.fill(sums, 0);
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

  /** The aggregate (node, [first, last]) as the Part shared by every partition that has it. */
  private Part part(int node, int first, int last) {
    int k = interval(first, last);
    Part[] row = parts[node];
    if (row == null) {
      row = partsOf(node);
    }
    Part part = row[k];
    if (part == null) {
      part = new Part(node, first, last);
      row[k] = part;
    }
    return part;
  }

  /**
   * The node's row of Parts, made once: two rows would lose the Parts put in the other. Locked on
   * the rows themselves, which the qualities {@link #withWork} shares.
   */
  private Part[] partsOf(int node) {
    synchronized (parts) {
      if (parts[node] == null) {
        parts[node] = new Part[intervalArrayLength(slices)];
      }
      return parts[node];
    }
  }

  /** Heap per (node, interval) of the qualities: gain, loss and a reference to its Part. */
  private static final long QUALITY_BYTES = 20;
  /** Heap per (node, interval): its qualities and 2 + P evaluations (24 bytes each). */
  private static final long BYTES_PER_AGGREGATE = QUALITY_BYTES + 24L * (2 + ForkJoinPool.getCommonPoolParallelism());

  @Override
  public Aggregation aggregation() {
    return Aggregation.SPATIOTEMPORAL;
  }

  /**
   * The envelopes, whatever the model: measured against the DP-based search (2K − 1
   * evaluations, the first ones nearly full), they cost less on every model of more than a few
   * milliseconds, including those with few optima (docs/aggregation.md, "Which search").
   */
  @Override
  List<Breakpoint> searchBreakpoints() {
    return envelopeBreakpoints();
  }

  /**
   * Every optimum at once from the envelopes of the subproblems (see {@link Envelopes}), then the
   * same search on them. The parts of each breakpoint are built on first request by one DP pass
   * at the middle of its range of p, where it alone is optimal, so they agree with {@link #best}.
   */
  List<Breakpoint> envelopeBreakpoints() {
    // The envelopes may take the heap that the computations running have not reserved, and the
    // share this one reserved for its evaluations: none is held while the envelopes are (the
    // programme runs before they are built, to find where one part wins, and after they are
    // dropped, to build a breakpoint's parts); its qualities stay reserved.
    long aggregates = (long) tree.size() * gain[0].length;
    return envelopeBreakpoints(Math.min(HeapBudget.unreserved() + (BYTES_PER_AGGREGATE - QUALITY_BYTES) * aggregates,
        Runtime.getRuntime().maxMemory() - QUALITY_BYTES * aggregates));
  }

  /** As {@link #envelopeBreakpoints()}, the envelopes holding at most budget bytes at once. */
  List<Breakpoint> envelopeBreakpoints(long budget) {
    Evaluation whole = atOne();
    double limit = wholeFrom(whole);
    if (limit == 0) { // one part optimal from p = 0 on: a model with nothing to tell apart
      return List.of(new Breakpoint(0, whole.partition()));
    }
    Envelopes envelopes = new Envelopes(tree, slices, gain, loss, tolerance(), limit, whole, budget, work());
    return withPartsOnDemand(BreakpointSearch.run(checked(envelopes::evaluate), tolerance()));
  }

  /**
   * The optimum at p = 1, without the programme: the whole model as one part. Its gain is the
   * largest of any partition (merging never lowers the gain) and it has the fewest parts, so the
   * programme gives it too, with the same gain and loss (those of the aggregate, not a sum); it
   * was the first of the evaluations the search made before building the envelopes.
   */
  @Override
  Evaluation atOne() {
    int k = interval(0, slices - 1);
    return new Built(new Partition(List.of(part(0, 0, slices - 1)), gain[0][k], loss[0][k]));
  }

  @Override
  Evaluation evaluate(double p) {
    return evaluate(p, cutMargin);
  }

  /**
   * The optimum at p, a cut skipped where the best of its interval lies more than margin above the
   * interval's whole value ({@link #cutMargin}; an infinite margin tries every cut).
   */
  Evaluation evaluate(double p, double margin) {
    Solution solution = new Solution(p, margin);
    solution.new Subtree(0).invoke(); // here, its forks in the common pool, as a parallel stream runs
    return solution;
  }

  /**
   * The line (gain, loss, parts) of the optimum of every subproblem best(h,[i,j]) of one node at one
   * p, by interval: its parent sums them, then they are done with.
   */
  private record Lines(double[] gain, double[] loss, int[] parts) {
    Lines(int length) {
      this(new double[length], new double[length], new int[length]);
    }
  }

  /**
   * Per-thread work arrays of one node's solution, reused: an evaluation touches every node. The
   * lines of V (the better of the aggregate and the children's optima) by interval, V itself, the
   * values of best by interval, and per row the best so far and its cut.
   */
  private record Scratch(Lines lines, double[] whole, double[] values, double[] best, int[] cuts) {
    Scratch(int intervals, int slices) {
      this(new Lines(intervals), new double[intervals], new double[intervals], new double[slices], new int[slices]);
    }
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(() -> new Scratch(0, 0));

  /**
   * The optimum of every subproblem best(h,[i,j]) at one p, by node: how it is made, decision =
   * cut·2 + 1 when V(h,[i,j]) is the aggregate itself rather than the children's optima (the flag
   * belongs to V at the same interval, the cut to best); the lines of a node's optima until its
   * parent has summed them; the root's line.
   */
  private final class Solution implements Evaluation {
    private final double p;
    private final double q;
    private final double penalty;
    private final double margin;
    private final int[][] decisions;
    private final Lines[] lines;
    /**
     * Lines done with, for the next node to solve: a node's lines live from its programme to its
     * parent's, and allocating them afresh for every node (20 bytes per subproblem, 120 MB a
     * programme at 768 leaves × 100 slices) had the collector copy them while they lived
     * (docs/benchmarks.md, "A far p"). Solved depth first, an evaluation holds at once the lines of
     * the children of the nodes on the paths being solved, a few tens; they go with it.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<Lines> freeLines =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private double rootGain;
    private double rootLoss;
    private Partition partition; // built on first request

    Solution(double p, double margin) {
      this.p = p;
      this.q = 1 - p;
      this.penalty = tolerance();
      this.margin = margin;
      this.decisions = new int[tree.size()][];
      this.lines = new Lines[tree.size()];
    }

    /**
     * A node's subtree solved depth first, the children's subtrees in parallel (they are
     * independent): every node's children are solved before it, and a node's lines are given back
     * as soon as its parent is solved, so that a few tens of them live at once, not a level's.
     */
    final class Subtree extends java.util.concurrent.RecursiveAction {
      private final int node;

      Subtree(int node) {
        this.node = node;
      }

      @Override
      protected void compute() {
        int children = tree.childCount(node);
        if (children > 0) {
          Subtree[] tasks = new Subtree[children];
          for (int i = 0; i < children; i++) {
            tasks[i] = new Subtree(tree.child(node, i));
          }
          invokeAll(tasks);
        }
        work().check();
        GatedPool.check(); // in a server's pool for the chain of parts, a request has come (decision 078)
        solveNode(node);
        if (node == 0) {
          rootGain = lines[0].gain[interval(0, slices - 1)];
          rootLoss = lines[0].loss[interval(0, slices - 1)];
          lines[0] = null;
        }
      }
    }

    @Override
    public double gain() {
      return rootGain;
    }

    @Override
    public double loss() {
      return rootLoss;
    }

    @Override
    public synchronized Partition partition() {
      if (partition == null) {
        partition = collect();
      }
      return partition;
    }

    private double value(Lines table, int k) {
      return p * table.gain[k] - q * table.loss[k] - penalty * table.parts[k];
    }

    /** Fills the node's decisions and lines, and gives back its children's lines. */
    private void solveNode(int node) {
      int length = gain[node].length;
      Scratch scratch = SCRATCH.get();
      if (scratch.whole.length != length) {
        scratch = new Scratch(length, slices);
        SCRATCH.set(scratch);
      }
      int[] decision = new int[length];
      Lines wholeLines = scratch.lines;
      double[] whole = wholeOrSplit(node, wholeLines, scratch.whole, decision);
      Lines free = freeLines.poll();
      Lines table = free != null ? free : new Lines(length);
      double[] values = scratch.values; // the value of best(node, [first, last]), by interval
      double[] best = scratch.best;
      int[] cuts = scratch.cuts;
      int lastFirst = node == 0 ? 0 : slices - 1; // nothing above the root asks for other rows
      // best(first, last) = max over cuts c of best(first, c − 1) + V(c, last), the lowest c on ties.
      // Cut by cut, for every first at once: the rows' maxima are independent (no chain through one
      // running maximum) and best(·, c − 1) is contiguous: 15–30 % less CPU per programme than row
      // by row at 768 leaves (docs/benchmarks.md, "A new p"). The cuts run down from last and a
      // candidate equal to the best so far replaces it, so each row keeps the lowest c among its
      // maxima, the same sum as the row-by-row loop's: the values and cuts are its own, bit for bit.
      // Going down, row c is complete as soon as cut c is tried (its candidates are the cuts from c
      // on), which tells whether cut c can win in any row before it (see cutMargin).
      for (int last = 0; last < slices; last++) {
        int base = interval(0, last);
        int firsts = Math.min(last, lastFirst);
        for (int first = 0; first <= firsts; first++) {
          best[first] = Double.NEGATIVE_INFINITY;
        }
        for (int c = last; c >= 0; c--) {
          double v = whole[base + c];
          if (c <= firsts) { // first = c: nothing before the cut, worth 0
            double candidate = 0.0 + v;
            if (candidate >= best[c]) {
              best[c] = candidate;
              cuts[c] = c;
            }
            if (best[c] > v + margin) {
              continue; // [c, last] is worth more cut than whole: no row chooses cut c
            }
          }
          int before = c == 0 ? 0 : interval(0, c - 1);
          int top = Math.min(c - 1, firsts);
          for (int first = 0; first <= top; first++) {
            double candidate = values[before + first] + v;
            if (candidate >= best[first]) {
              best[first] = candidate;
              cuts[first] = c;
            }
          }
        }
        for (int first = 0; first <= firsts; first++) {
          values[base + first] = best[first];
          record(table, decision, wholeLines, base + first, cuts[first], first, last);
        }
      }
      decisions[node] = decision;
      lines[node] = table;
    }

    /** Line and decision of best(node,[first,last]) made of best(node,[first,cut−1]) and V(node,[cut,last]). */
    private void record(Lines table, int[] decision, Lines wholeLines, int k, int cut, int first, int last) {
      int whole = interval(cut, last);
      double g = wholeLines.gain[whole];
      double l = wholeLines.loss[whole];
      int parts = wholeLines.parts[whole];
      if (cut > first) {
        int before = interval(first, cut - 1);
        g += table.gain[before];
        l += table.loss[before];
        parts += table.parts[before];
      }
      table.gain[k] = g;
      table.loss[k] = l;
      table.parts[k] = parts;
      decision[k] |= cut << 1;
    }

    /**
     * V(node, ·) of every interval, into lines the line of each V, and decision 1 where the aggregate
     * itself is the better (on equal values, as the coarser; the root's V is read beyond row 0). The
     * children's lines, summed, are given back.
     */
    private double[] wholeOrSplit(int node, Lines lines, double[] v, int[] decision) {
      double[] g = gain[node];
      double[] l = loss[node];
      for (int k = 0; k < v.length; k++) {
        v[k] = p * g[k] - q * l[k] - penalty;
      }
      Arrays.fill(lines.gain, 0);
      Arrays.fill(lines.loss, 0);
      Arrays.fill(lines.parts, 0);
      for (int i = 0; i < tree.childCount(node); i++) {
        int childNode = tree.child(node, i);
        Lines child = this.lines[childNode];
        for (int k = 0; k < v.length; k++) {
          lines.gain[k] += child.gain[k];
          lines.loss[k] += child.loss[k];
          lines.parts[k] += child.parts[k];
        }
        this.lines[childNode] = null;
        freeLines.add(child);
      }
      for (int k = 0; k < v.length; k++) {
        double split = tree.isLeaf(node) ? Double.NEGATIVE_INFINITY : value(lines, k);
        if (v[k] >= split) {
          lines.gain[k] = g[k];
          lines.loss[k] = l[k];
          lines.parts[k] = 1;
          decision[k] = 1;
        } else {
          v[k] = split;
        }
      }
      return v;
    }

    // Parts do not overlap, so (first leaf, first slice) is a slot of its own: filling the slots
    // and reading them in order sorts the parts in O(leaves × slices).
    private Partition collect() {
      Part[] slots = new Part[tree.leafCount() * slices];
      double[] totals = new double[2];
      collect(0, 0, slices - 1, slots, totals);
      List<Part> parts = new ArrayList<>();
      for (Part part : slots) {
        if (part != null) {
          parts.add(part);
        }
      }
      return new Partition(parts, totals[0], totals[1]);
    }

    private void collect(int node, int first, int lastOfAll, Part[] parts, double[] totals) {
      int[] decision = decisions[node];
      int last = lastOfAll;
      while (last >= first) {
        int cut = decision[interval(first, last)] >> 1;
        int whole = interval(cut, last);
        if ((decision[whole] & 1) == 1) {
          parts[tree.firstLeaf(node) * slices + cut] = part(node, cut, last);
          totals[0] += gain[node][whole];
          totals[1] += loss[node][whole];
        } else {
          for (int i = 0; i < tree.childCount(node); i++) {
            collect(tree.child(node, i), cut, last, parts, totals);
          }
        }
        last = cut - 1;
      }
    }
  }
}
