package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.ocelotl.model.ProducerTree;

/**
 * The optimal pIC of the whole spatiotemporal model as a function of p, computed once for all p
 * (output-sensitive breakpoints, SPEC.md §5).
 *
 * <p>At one p the dynamic programme of {@link SpatiotemporalQualities} maximises, over lines
 * value(p) = p·gain − (1−p)·loss − τ·parts, the options of each subproblem. As a function of p, a
 * maximum of lines is convex and piecewise linear (an upper envelope); a sum of two such functions
 * is too, with the union of their breakpoints. So the same recurrences run on envelopes instead of
 * numbers give every optimum for every p at once: V(h,[c,j]) = envelope(aggregate line,
 * Σ_children B(child,[c,j])) and B(h,[i,j]) = envelope over c of B(h,[i,c−1]) + V(h,[c,j]) (c = i:
 * V(h,[i,j]) alone). The root's B over all slices lists the optimal lines, p ascending. The tie
 * penalty τ·parts sits in each line's intercept, so coarser wins ties as in the programme. Sums
 * are not made in the programme's order (children are summed as a balanced tree), so a line can
 * differ from the programme's by a few ulps; where two lines cross, rounding can leave a piece a
 * few ulps wide; the search drops ranges that narrow ({@link BreakpointSearch#POINT}).
 *
 * <p>Cost: proportional to the pieces handled (Σ over subproblems and cuts of the pieces walked)
 * instead of one full programme per optimum. Envelopes are cut to p ∈ [0, limit] where limit is
 * the p from which the whole model as one part is optimal: at a p the programme compares
 * subproblems at that p only, so above limit, where the answer is known, their pieces would be
 * work for nothing. Each cut c of B(h,[i,j]) is walked only over the range of p where it can win
 * (see {@link #solve}): where V(h,[c,j]) is itself optimal for [c,j], and either is the aggregate
 * or follows a prefix that ends with the aggregate; and only until the aggregate of [i,j], the
 * steepest line of the interval, rises above it. On the 720-leaf × 100-slice benchmark model this
 * walks 240 M pieces instead of 4.7 G.
 *
 * <p>Temporal aggregation is the programme of a one-node tree whose node is a leaf and the
 * root; it has its own build ({@link #suffixes}), which keeps one envelope per first slice instead
 * of one per interval.
 *
 * <p>Memory: the envelopes of one node live until its parent has built its V's of the same
 * intervals, column by column (see {@link #solve}); the tree is built depth first, so only the
 * subtrees under way and the finished children of their ancestors hold envelopes. The parts of
 * the optima are not kept: the caller builds those it needs by the programme.
 */
final class Envelopes {
  private final ProducerTree tree; // null for one series of slices (temporal)
  private final int slices;
  private final double[][] gain;
  private final double[][] loss;
  private final double penalty;
  private final double limit;
  private final Qualities.Evaluation beyond;
  private final Env[][] best; // B(h, interval) until the parent of h has read it; null for one series
  private final AtomicLong held = new AtomicLong();
  private final long budget;
  private volatile String overBudget; // why the build stopped, said by the caller's thread
  private final Env root;

  /**
   * @param limit  the envelopes cover [0, limit]
   * @param beyond the optimum on [limit, 1]: the whole model as one part
   * @param budget bytes the envelopes may hold at once
   */
  Envelopes(ProducerTree tree, int slices, double[][] gain, double[][] loss, double penalty, double limit,
      Qualities.Evaluation beyond, long budget, Work work) {
    this.limit = limit;
    this.beyond = beyond;
    this.tree = tree;
    this.slices = slices;
    this.gain = gain;
    this.loss = loss;
    this.penalty = penalty;
    best = new Env[tree.size()][];
    this.budget = budget;
    // A pool of every core, the caller waiting: in the common pool (cores − 1 workers, the caller
    // meant to be the last one) the caller, not a worker, waits instead of helping when it joins a
    // subtree that a worker took, and a core stayed idle while that worker finished the subtree
    // alone (measured on the 720-leaf model: 1.6–2.0 of 2 cores wanted, docs/benchmarks.md).
    ForkJoinPool pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors());
    try {
      pool.invoke(new Build(0, work, new AtomicLong()));
    } finally {
      pool.shutdown();
    }
    if (overBudget != null) {
      throw new IllegalArgumentException(overBudget);
    }
    root = best[0][Qualities.interval(0, slices - 1)];
    best[0] = null;
  }

  /**
   * The envelopes of one series of slices (temporal aggregation: intervals only, gain and loss
   * indexed by {@link Qualities#interval}); see {@link #suffixes}.
   *
   * @param limit  the envelopes cover [0, limit]
   * @param beyond the optimum on [limit, 1]: all slices as one part
   * @param budget bytes the envelopes may hold at once
   */
  Envelopes(int slices, double[] gain, double[] loss, double penalty, double limit, Qualities.Evaluation beyond,
      long budget, Work work) {
    this.tree = null;
    this.slices = slices;
    this.gain = new double[][] {gain};
    this.loss = new double[][] {loss};
    this.penalty = penalty;
    this.limit = limit;
    this.beyond = beyond;
    this.best = null;
    this.budget = budget;
    ForkJoinPool pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors()); // as above
    try {
      root = pool.invoke(ForkJoinTask.adapt(() -> suffixes(gain, loss, work)));
    } finally {
      pool.shutdown();
    }
    if (overBudget != null) {
      throw new IllegalArgumentException(overBudget);
    }
  }

  /**
   * The temporal optimum of slices [c, |T|−1] for every c, last slice first: S_c = max(line of [c,
   * |T|−1] as one part, max over j of line([c,j]) + S_{j+1}), the programme's recurrence run on
   * envelopes and on suffixes instead of prefixes. Suffixes so that every line's gain and loss
   * are the programme's bit for bit: the programme totals a partition's parts from the last one
   * back, ((g_K + g_K−1) + …) + g_1, and S_c's line is g_1 + S_{j+1}'s, the same additions (an
   * addition of two doubles commutes exactly).
   *
   * <p>Cut j is walked only from where [c,j] can be a part of an optimum: below (loss − τ·n)/(gain
   * + loss) the interval as one part is worse by more than τ than its single slices (see {@link
   * TemporalQualities}' reach), below {@link #split} worse than its split into a single slice and
   * the rest; the cut is then below another partition by more than τ, far above rounding, and the
   * hull holds one at least as high. It is walked, as every cut of {@link #maxOfSum}, only until the
   * aggregate of [c, |T|−1] rises above it, and not over the runs where it is below the hull (see
   * {@link #cut}). Every S_c is kept until the end: on real traces nearly every interval can be a
   * part somewhere below limit, so no suffix could be released early.
   *
   * <p>Each S_c needs every S_m after it, so the suffixes are built one after the other; each one
   * is built in ranges of p in parallel, as the root of a tree is ({@link #solveRoot}): every step
   * of a cut's walk is pointwise in p, so a range's pieces are those of the whole walk there, and
   * a piece that spans a boundary is joined again when the ranges are put end to end. The ranges
   * hold equal numbers of S_(c+1)'s pieces (pieces and work crowd at small p).
   */
  private Env suffixes(double[] g, double[] l, Work work) {
    Env[] suffix = new Env[slices + 1];
    Samples samples = new Samples(slices);
    Columns columns = new Columns(g, l);
    held.addAndGet(samples.bytes() + columns.bytes());
    for (int c = slices - 1; c >= 0; c--) {
      work.check();
      columns.load(c);
      int start = c;
      double[] bounds = ranges(suffix[c + 1]);
      Env[] pieces = new Env[bounds.length - 1];
      if (pieces.length == 1) {
        pieces[0] = suffixRange(start, g, l, suffix, samples, columns, 0, limit);
      } else {
        IntStream.range(0, pieces.length).parallel()
            .forEach(r -> pieces[r] = suffixRange(start, g, l, suffix, samples, columns, bounds[r], bounds[r + 1]));
      }
      Lines joined = SCRATCH.get().lines[0];
      joined.clear();
      joined.limit = limit;
      for (Env piece : pieces) {
        joined.append(piece);
      }
      suffix[c] = joined.toEnv();
      samples.take(suffix[c], c);
      if (check(suffix[c].bytes())) {
        return null;
      }
      held.addAndGet(suffix[c].bytes());
      work.advanced(slices - c, slices);
    }
    return suffix[0];
  }

  /** S_c on [from, to): the cuts of {@link #suffixes}, each walked on its range's part of [from, to). */
  private Env suffixRange(int c, double[] g, double[] l, Env[] suffix, Samples samples, Columns columns, double from,
      double to) {
    Scratch scratch = SCRATCH.get();
    Lines hull = scratch.lines[0];
    Lines tail = scratch.lines[1];
    hull.limit = to;
    tail.limit = to;
    Env first = new Env(limit);
    int whole = Qualities.interval(c, slices - 1);
    hull.clear();
    hull.add(from, g[whole], l[whole], 1, ENDS_WHOLE);
    double shorterGain = 0; // [c, j−1]
    double shorterLoss = 0;
    for (int j = c; j < slices - 1; j++) {
      double gj = columns.gain(c, j);
      double lj = columns.loss(c, j);
      double reach = Math.max(bound(gj, lj, j - c + 1), split(gj, lj, shorterGain, shorterLoss));
      if (j > c) {
        reach = Math.max(reach, split(gj, lj, columns.gainAfter(c, j), columns.lossAfter(c, j)));
      }
      cut(hull, g[whole], l[whole], first.set(gj, lj), suffix[j + 1], samples, j + 1, larger(reach, from), to, tail);
      shorterGain = gj;
      shorterLoss = lj;
    }
    return hull.toEnv();
  }

  /**
   * Gain and loss of [c, j] for a block of {@value #BLOCK} starts c and every j, copied out of the
   * triangular arrays (laid out by last slice, where one start's intervals are a row apart): the
   * suffixes read one start's intervals in turn, and a block's starts share the cache lines.
   */
  private final class Columns {
    private static final int BLOCK = 16;
    private final double[] g;
    private final double[] l;
    private final double[] gain = new double[BLOCK * slices];
    private final double[] loss = new double[BLOCK * slices];
    private int low = Integer.MAX_VALUE; // the block holds starts [low, low + BLOCK)

    Columns(double[] g, double[] l) {
      this.g = g;
      this.l = l;
    }

    /** Makes the block hold start c, starts taken in descending order. */
    void load(int c) {
      if (c >= low) {
        return;
      }
      low = Math.max(0, c - BLOCK + 1);
      for (int j = low; j < slices; j++) {
        int base = Qualities.interval(low, j);
        for (int b = 0; b < BLOCK && low + b <= Math.min(c, j); b++) {
          gain[b * slices + j] = g[base + b];
          loss[b * slices + j] = l[base + b];
        }
      }
    }

    long bytes() {
      return 16L * gain.length + 32;
    }

    double gain(int c, int j) {
      return gain[(c - low) * slices + j];
    }

    double loss(int c, int j) {
      return loss[(c - low) * slices + j];
    }

    /** Gain of [c+1, j], for c + 1 ≤ j: from the block if it holds c + 1. */
    double gainAfter(int c, int j) {
      return c + 1 - low < BLOCK ? gain(c + 1, j) : g[Qualities.interval(c + 1, j)];
    }

    double lossAfter(int c, int j) {
      return c + 1 - low < BLOCK ? loss(c + 1, j) : l[Qualities.interval(c + 1, j)];
    }
  }

  /**
   * hull = max(hull, first + S_m) on [from, to), as {@link #maxOfSum}, skipping where the cut
   * cannot rise above the hull. Most cuts of long first parts are below the aggregate where they
   * start: S_m's samples around from bound S_m there (see {@link Samples#above}) without a search
   * in S_m. The rest is {@link #skim}med.
   */
  private void cut(Lines hull, double gain, double loss, Env first, Env rest, Samples samples, int m, double from,
      double to, Lines tail) {
    if (!(from < to)) {
      return;
    }
    int k = samples.around(from);
    // two τ: the aggregate stays above the cut from here on by τ, far above rounding
    if (from * gain - (1 - from) * loss - 2 * penalty >= value(first, 0, from) + samples.above(k, m, from)) {
      return;
    }
    int end = to < limit ? rest.find(to) : rest.size - 1; // the last piece that starts before to
    if (end > 0 && rest.start[end] >= to) {
      end--;
    }
    skim(hull, gain, loss, first, rest, samples.find(rest, k, m, from), end + 1, from, to, tail);
  }

  /**
   * The suffixes' values and pieces at p_k = limit·2^(−k/8) for k = 0 … {@value #COUNT} − 2, and 0
   * (as {@link TemporalQualities#REACH_P}: dense at small p, where the breakpoints crowd), sample
   * k of every suffix side by side: a start's cuts read the samples of consecutive suffixes at
   * nearby k.
   */
  private final class Samples {
    private static final int COUNT = 162;
    private final double[] p = new double[COUNT];
    private final int stride;
    private final double[] value;
    private final int[] piece;

    Samples(int slices) {
      for (int k = 0; k < COUNT - 1; k++) {
        p[k] = limit * Math.pow(2, -k / 8.0);
      }
      stride = slices + 1;
      value = new double[COUNT * stride];
      piece = new int[COUNT * stride];
    }

    long bytes() {
      return 12L * value.length + 32;
    }

    void take(Env env, int m) {
      for (int k = 0; k < COUNT; k++) {
        int at = env.find(p[k]);
        piece[k * stride + m] = at;
        value[k * stride + m] = env.value(at, p[k], penalty);
      }
    }

    /** The k with p_(k+1) ≤ x ≤ p_k, for x in [0, limit]. */
    int around(double x) {
      int k = x > 0 ? Math.min(COUNT - 2, (int) (8 * Log2.log2(limit / x))) : COUNT - 2;
      while (k > 0 && p[k] < x) { // the logarithm's rounding: a step at most
        k--;
      }
      while (k < COUNT - 2 && p[k + 1] > x) {
        k++;
      }
      return k;
    }

    /** At least S_m at x in [p_(k+1), p_k], to rounding: its chord there (S_m is convex). */
    double above(int k, int m, double x) {
      double high = value[k * stride + m];
      double low = value[(k + 1) * stride + m];
      return low + (x - p[k + 1]) / (p[k] - p[k + 1]) * (high - low);
    }

    /** S_m's piece at x in [p_(k+1), p_k]: between its pieces at the two samples. */
    int find(Env env, int k, int m, double x) {
      return env.find(x, piece[(k + 1) * stride + m], piece[k * stride + m]);
    }
  }

  /** Runs of at most this many pieces are walked rather than halved. */
  private static final int RUN = 8;

  /** {@link #cut} on rest's pieces [i0, i1) over [a, b); false where the aggregate stopped it. */
  private boolean skim(Lines hull, double gain, double loss, Env first, Env rest, int i0, int i1, double a, double b,
      Lines tail) {
    double atA = value(first, 0, a) + value(rest, i0, a);
    if (a * gain - (1 - a) * loss - penalty >= atA) {
      return false; // as in maxOfSum: the aggregate is above the cut from a on
    }
    double atB = value(first, 0, b) + value(rest, i1 - 1, b);
    int h = hull.find(0.5 * (a + b));
    if (hull.value(h, a, penalty) - penalty >= atA && hull.value(h, b, penalty) - penalty >= atB) {
      return true;
    }
    if (i1 - i0 <= RUN) {
      return maxOfSum(hull, gain, loss, first, rest, a, b, tail);
    }
    int middle = (i0 + i1) >>> 1;
    return skim(hull, gain, loss, first, rest, i0, middle, a, rest.start[middle], tail)
        && skim(hull, gain, loss, first, rest, middle, i1, rest.start[middle], b, tail);
  }

  /**
   * From where interval [c,j] can be a part of an optimum, by its split into a single slice and
   * the rest, [c,j−1] or [c+1,j] (gain and loss given; a single slice has 0 and 0): below
   * (Δloss − 2τ)/(Δgain + Δloss), Δ of [c,j] over the rest, the split is higher by more than τ
   * (one part more costs τ). 0 for a single slice.
   */
  private double split(double g, double l, double shorterGain, double shorterLoss) {
    double bound = (l - shorterLoss - 2 * penalty) / ((g + l) - (shorterGain + shorterLoss));
    return bound > 0 ? bound : 0;
  }

  /**
   * From where interval [c,j] of n slices can be a part of an optimum: (loss − τ·n)/(gain + loss),
   * at least 0 (−∞ or NaN where gain + loss = 0: identical slices, merged at every p).
   */
  private double bound(double g, double l, int n) {
    double bound = (l - penalty * n) / (g + l);
    return bound > 0 ? bound : 0;
  }

  /**
   * Builds a subtree depth first, children in parallel: the envelopes of a node live until its
   * parent is built, so only the subtrees under way and the finished children of their ancestors
   * hold memory, not a whole level of the tree.
   */
  private final class Build extends RecursiveAction {
    private final int node;
    private final Work work;
    private final AtomicLong done;

    Build(int node, Work work, AtomicLong done) {
      this.node = node;
      this.work = work;
      this.done = done;
    }

    @Override
    protected void compute() {
      List<Build> children = new ArrayList<>();
      for (int i = 0; i < tree.childCount(node); i++) {
        children.add(new Build(tree.child(node, i), work, done));
      }
      invokeAll(children);
      if (overBudget != null) {
        return;
      }
      work.check();
      solve(node);
      if (overBudget != null) {
        return;
      }
      work.advanced(done.incrementAndGet(), tree.size());
    }
  }

  /**
   * The optimum at p: the piece of the root's envelope whose range holds p, or a neighbour if that
   * is higher at p (at a breakpoint both are optimal, to rounding).
   */
  Qualities.Evaluation evaluate(double p) {
    if (p >= limit) {
      return beyond;
    }
    int k = root.find(p);
    int chosen = k;
    for (int other = Math.max(0, k - 1); other <= Math.min(root.size - 1, k + 1); other++) {
      if (root.value(other, p, penalty) > root.value(chosen, p, penalty)) {
        chosen = other;
      }
    }
    return new Optimum(chosen);
  }

  /** An optimal line; its partition has no parts (the search needs lines only). */
  private final class Optimum implements Qualities.Evaluation {
    private final Partition partition;

    Optimum(int piece) {
      partition = new Partition(root.parts[piece], root.gain[piece], root.loss[piece], () -> {
        throw new IllegalStateException("the parts of an envelope's optimum are built by the programme");
      });
    }

    @Override
    public double gain() {
      return partition.gain();
    }

    @Override
    public double loss() {
      return partition.loss();
    }

    @Override
    public Partition partition() {
      return partition;
    }
  }

  /** Per-thread envelopes under construction. */
  private static final class Scratch {
    final Lines[] lines = {new Lines(), new Lines()};
    /** Partial sums of children, each of count[i] children; sized for 2^31 children. */
    final Lines[] sums = new Lines[33];
    final int[] count = new int[33];

    Scratch() {
      for (int i = 0; i < sums.length; i++) {
        sums[i] = new Lines();
      }
    }

    void limit(double limit) {
      for (Lines l : lines) {
        l.limit = limit;
      }
      for (Lines l : sums) {
        l.limit = limit;
      }
    }
  }

  /**
   * Stops the build if what is held, plus more, passes the budget: the pieces of a model's
   * envelopes are not known before they are built, so their heap check is made as they are (the
   * envelopes of the subproblems are counted as held when built, as released when dropped).
   */
  private boolean check(long more) {
    long now = held.get() + more;
    if (now > budget && overBudget == null) {
      String search = tree == null ? String.format("temporal breakpoint search of %d slices", slices)
          : String.format("spatiotemporal breakpoint search of %d nodes × %d slices", tree.size(), slices);
      overBudget = String.format(
          "the %s holds %,d MiB of envelopes, more than the %,d MiB the Java heap leaves them; use fewer slices "
              + "or producers, or give Java more memory (-Xmx, OCELOTL_JAVA_OPTS)", search, now >> 20, budget >> 20);
    }
    return overBudget != null;
  }

  private void releaseChildren(int node) {
    for (int i = 0; i < tree.childCount(node); i++) {
      best[tree.child(node, i)] = null;
    }
  }

  /**
   * Drops the children's B(child,[c,last]) of one column, read only by V(node,[c,last]) once
   * that is built; returns the bytes they held.
   */
  private long releaseColumn(int node, int last) {
    int column = Qualities.interval(0, last);
    long released = 0;
    for (int i = 0; i < tree.childCount(node); i++) {
      Env[] child = best[tree.child(node, i)];
      released += bytes(child, column, last + 1);
      Arrays.fill(child, column, column + last + 1, null);
    }
    return released;
  }

  /** Bytes of envs[from, from + count). */
  private static long bytes(Env[] envs, int from, int count) {
    long size = 0;
    for (int k = from; k < from + count; k++) {
      size += envs[k] == null ? 0 : envs[k].bytes();
    }
    return size;
  }

  /** V(node, k) = max(aggregate, Σ_children B(child, k)) of a node that is not a leaf. */
  private Env whole(int node, int k) {
    Scratch scratch = SCRATCH.get();
    scratch.limit(limit);
    Lines aggregate = scratch.lines[0];
    aggregate.clear();
    aggregate.add(0, gain[node][k], loss[node][k], 1, ENDS_WHOLE);
    Lines sum = childrenSum(node, k, scratch);
    envelope(aggregate, sum, scratch.lines[1]); // aggregate first: it wins exact ties, as in the programme
    return scratch.lines[1].toEnv();
  }

  /**
   * Σ_children B(child, k), summed as a balanced tree (partial sums of equal counts merged as they
   * come): each piece is added about log2(children) times instead of up to children times.
   */
  private Lines childrenSum(int node, int k, Scratch scratch) {
    Lines[] sums = scratch.sums;
    int[] count = scratch.count;
    int top = 0;
    int children = tree.childCount(node);
    for (int i = 0; i < children; i++) {
      sums[top].load(best[tree.child(node, i)][k], SPLIT);
      count[top++] = 1;
      while (top >= 2 && (count[top - 1] == count[top - 2] || i == children - 1)) {
        sum(sums[top - 2], sums[top - 1], sums[top]);
        Lines merged = sums[top];
        sums[top] = sums[top - 2];
        sums[top - 2] = merged;
        count[top - 2] += count[top - 1];
        top--;
      }
    }
    return sums[0];
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** A piece's flag: its interval's last temporal part is the node itself, one aggregate. */
  private static final byte ENDS_WHOLE = 1;
  /** A piece's flag: its interval is the children's optima, not cut in time at this node. */
  private static final byte SPLIT = 2;

  /**
   * The envelopes B(node, ·) of a node that is not the root, one column (last slice) at a time,
   * first slice descending: B(node,[first,last]) reads B(node,[first,c−1]) of earlier columns and
   * the ranges of B(node,[c,last]) of this one, so the order gives every B the same inputs as any
   * other would. Column by column, V(node,[c,last]) is built for that column only and dropped
   * after it, and the children's B(child,[c,last]), which only V of the same interval reads, are
   * released as soon as it is built: the node holds its children's remaining columns, its own
   * finished ones and one column of V, instead of its children's envelopes and then all of V
   * (docs/aggregation.md, "Complexity and memory").
   */
  private void solve(int node) {
    if (node == 0) {
      solveRoot();
      return;
    }
    int intervals = Qualities.intervalArrayLength(slices);
    double[] g = gain[node];
    double[] l = loss[node];
    boolean leaf = tree.isLeaf(node);
    Env[] v = leaf ? null : new Env[intervals];
    Env[] b = new Env[intervals];
    // Of each B(node, k) already built, where it is the aggregate alone (from wholeFrom on), where
    // it may be the children's optima (before splitUntil), where it may end with the aggregate
    // (from endsWholeFrom on): the ranges of p in which a cut can improve a longer interval.
    double[] wholeFrom = new double[intervals];
    double[] splitUntil = new double[intervals];
    double[] endsWholeFrom = new double[intervals];
    Env line = leaf ? new Env(limit) : null;
    for (int last = 0; last < slices; last++) {
      int column = Qualities.interval(0, last);
      // A leaf's V is its aggregate, one line, set in place below; the others' in parallel (the
      // nodes near the root are few, their own work must be shared).
      if (!leaf) {
        IntStream.rangeClosed(0, last).parallel().forEach(c -> v[column + c] = whole(node, column + c));
        held.addAndGet(-releaseColumn(node, last));
        if (check(bytes(v, column, last + 1))) {
          return;
        }
      }
      Scratch scratch = SCRATCH.get(); // after the parallel V's: the thread may have run other work
      scratch.limit(limit);
      for (int first = last; first >= 0; first--) {
        int interval = column + first;
        Lines hull = scratch.lines[0];
        Lines tail = scratch.lines[1];
        if (leaf) {
          hull.clear();
          hull.add(0, g[interval], l[interval], 1, ENDS_WHOLE);
        } else {
          hull.load(v[interval]);
        }
        for (int c = first + 1; c <= last; c++) { // earlier cuts first: they win exact ties
          Env prefix = b[Qualities.interval(first, c - 1)];
          int rest = Qualities.interval(c, last);
          Env whole = leaf ? line.set(g[rest], l[rest]) : v[rest];
          // Cut at c: B(node,[first,c−1]) + V(node,[c,last]). Where B(node,[c,last]) is above
          // V(node,[c,last]), a later cut is above c. Where V(node,[c,last]) is the children's
          // optima and B(node,[first,c−1]) does not end with the aggregate, the children's optima
          // go on to the left of c, and the children's optima over the union, V(node,[first,
          // c'..last]) for the prefix's last cut c', are at least as high. Left: V the aggregate
          // and optimal for [c,last] (from wholeFrom on), or V the children's optima and optimal
          // (before splitUntil) after a prefix ending with the aggregate (from endsWholeFrom on).
          double aggregateFrom = wholeFrom[rest];
          double splitFrom = endsWholeFrom[Qualities.interval(first, c - 1)];
          double splitTo = splitUntil[rest];
          double gk = g[interval];
          double lk = l[interval];
          if (splitFrom < splitTo && splitTo >= aggregateFrom) {
            maxOfSum(hull, gk, lk, prefix, whole, Math.min(splitFrom, aggregateFrom), limit, tail);
            continue;
          }
          if (splitFrom < splitTo) {
            maxOfSum(hull, gk, lk, prefix, whole, splitFrom, splitTo, tail);
          }
          maxOfSum(hull, gk, lk, prefix, whole, aggregateFrom, limit, tail);
        }
        Env env = hull.toEnv();
        b[interval] = env;
        wholeFrom[interval] = env.parts[env.size - 1] == 1 ? env.start[env.size - 1] : Double.POSITIVE_INFINITY;
        splitUntil[interval] = env.lastEnd(SPLIT);
        endsWholeFrom[interval] = env.firstStart(ENDS_WHOLE);
      }
      if (!leaf) {
        Arrays.fill(v, column, column + last + 1, null);
      }
      held.addAndGet(bytes(b, column, last + 1));
      if (check(0)) {
        return;
      }
    }
    releaseChildren(node);
    best[node] = b;
  }

  /**
   * The root's envelopes. Nothing above it asks for rows other than the first, so only
   * B(root,[0,last]) is built, one column (last slice) at a time: the column's V's, the largest
   * of all, in parallel, then B(root,[0,last]) = max over c of B(root,[0,c−1]) + V(root,[c,last]),
   * every cut walked whole (the sub-intervals' ranges of {@link #solve} are not built).
   *
   * <p>That max is the longest walk of the tree and has the level to itself, so it is cut into
   * ranges of p built in parallel: every step of the walk ({@link #maxOfSum}: sums and maxima of
   * lines) is pointwise in p, so a range's pieces are the whole walk's pieces on that range, a
   * piece that spans a boundary being cut there and joined again when the ranges are put end to
   * end. The ranges hold equal numbers of the previous column's pieces (the pieces crowd at small
   * p, and so does the work).
   */
  private void solveRoot() {
    int node = 0;
    boolean leaf = tree.isLeaf(node); // a model of one producer
    double[] g = gain[node];
    double[] l = loss[node];
    Env[] v = new Env[Qualities.intervalArrayLength(slices)];
    Env[] b = new Env[v.length];
    for (int last = 0; last < slices; last++) {
      int column = last;
      IntStream.rangeClosed(0, column).parallel().forEach(c -> {
        int k = Qualities.interval(c, column);
        v[k] = leaf ? new Env(limit).set(g[k], l[k]) : whole(node, k);
      });
      int interval = Qualities.interval(0, last);
      held.addAndGet(-releaseColumn(node, last)); // as in solve: only V of the same interval reads them
      if (check(bytes(v, interval, last + 1))) {
        return;
      }
      double[] bounds = ranges(last == 0 ? null : b[Qualities.interval(0, last - 1)]);
      Env[] pieces = new Env[bounds.length - 1];
      IntStream.range(0, pieces.length).parallel()
          .forEach(r -> pieces[r] = rootRange(column, g[interval], l[interval], v, b, bounds[r], bounds[r + 1]));
      Lines joined = SCRATCH.get().lines[0];
      joined.clear();
      joined.limit = limit;
      for (Env piece : pieces) {
        joined.append(piece);
      }
      b[interval] = joined.toEnv();
      held.addAndGet(b[interval].bytes());
      Arrays.fill(v, interval, interval + last + 1, null);
    }
    releaseChildren(node);
    best[node] = b;
  }

  /** Ranges per worker of the pool: more than one, so that a worker done early takes another. */
  private static final int RANGES_PER_WORKER = 2;
  /** Pieces of the previous column per range, at least: fewer are too little work to share. */
  static final int PIECES_PER_RANGE = 64;

  /** Bounds of the ranges of p of a root column, 0 first, limit last, from the previous column. */
  private double[] ranges(Env previous) {
    int count = previous == null ? 1 : Math.min(RANGES_PER_WORKER * ForkJoinTask.getPool().getParallelism(),
        previous.size / PIECES_PER_RANGE);
    double[] bounds = new double[Math.max(1, count) + 1];
    int n = 1;
    for (int r = 1; r < count; r++) {
      double bound = previous.start[previous.size * r / count];
      if (bound > bounds[n - 1]) { // a range must not be empty
        bounds[n++] = bound;
      }
    }
    bounds[n++] = limit;
    return Arrays.copyOf(bounds, n);
  }

  /** B(root,[0,last]) on [from, to). */
  private Env rootRange(int last, double gain, double loss, Env[] v, Env[] b, double from, double to) {
    Scratch scratch = SCRATCH.get();
    Lines hull = scratch.lines[0];
    Lines tail = scratch.lines[1];
    hull.limit = to;
    tail.limit = to;
    hull.load(v[Qualities.interval(0, last)], from, to);
    for (int c = 1; c <= last; c++) { // earlier cuts first: they win exact ties
      maxOfSum(hull, gain, loss, b[Qualities.interval(0, c - 1)], v[Qualities.interval(c, last)], from, to, tail);
    }
    return hull.toEnv();
  }

  /** out = a + b, breakpoints merged. */
  private static void sum(Lines a, Lines b, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size && j < b.size) {
      double ea = a.end(i);
      double eb = b.end(j);
      double start = larger(a.start[i], b.start[j]);
      if (smaller(ea, eb) > start) {
        out.add(start, a.gain[i] + b.gain[j], a.loss[i] + b.loss[j], a.parts[i] + b.parts[j], SPLIT);
      }
      if (ea <= eb) {
        i++;
      }
      if (eb <= ea) {
        j++;
      }
    }
  }

  /**
   * out = max(a, b) on [0, limit], both convex: a walk over the pieces of both; two lines cross at
   * most once on a common range, so a division is needed only where the winner changes. On equal
   * values a wins (it holds the options the programme tries first).
   */
  private void envelope(Lines a, Lines b, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size && j < b.size) {
      double ea = a.end(i);
      double eb = b.end(j);
      double start = larger(a.start[i], b.start[j]);
      double end = smaller(ea, eb);
      if (end > start) {
        max(out, a.gain[i], a.loss[i], a.parts[i], a.flags[i], b.gain[j], b.loss[j], b.parts[j], b.flags[j],
            start, end);
      }
      if (ea <= end) {
        i++;
      }
      if (eb <= end) {
        j++;
      }
    }
  }

  /**
   * hull = max(hull, prefix + whole) on [from, to), hull unchanged elsewhere: {@link #envelope}
   * of hull and {@link #sum} of prefix and whole in one walk, without building the sum. tail is
   * scratch. False if the walk stopped before to, where the aggregate (gain, loss) rose above the
   * cut: it stays above from there on.
   */
  private boolean maxOfSum(Lines hull, double gain, double loss, Env prefix, Env whole, double from, double to,
      Lines tail) {
    if (from >= to) {
      return true;
    }
    boolean stopped = false;
    tail.clear();
    // The tail starts at the first piece where the cut rises above the hull: before it, it would
    // only copy the hull's pieces.
    boolean changed = false;
    double tailFrom = from;
    int h = hull.find(from);
    int i = prefix.find(from);
    int j = whole.find(from);
    while (h < hull.size && i < prefix.size && j < whole.size) {
      double eh = hull.end(h);
      double ei = prefix.end(i);
      double ej = whole.end(j);
      double start = larger(from, larger(hull.start[h], larger(prefix.start[i], whole.start[j])));
      double end = smaller(to, smaller(eh, smaller(ei, ej)));
      if (start * gain - (1 - start) * loss - penalty >= value(prefix, i, start) + value(whole, j, start)) {
        // The aggregate of the interval is the steepest of its lines and in the hull: once above
        // the cut, it stays above, and so does the hull.
        to = start;
        stopped = true;
        break;
      }
      if (end > start) {
        // additions in the programme's order: V + B(prefix); the cut's last part is V's
        double g = whole.gain[j] + prefix.gain[i];
        double l = whole.loss[j] + prefix.loss[i];
        int n = whole.parts[j] + prefix.parts[i];
        if (!changed && !(atLeast(hull, h, g, l, n, start) && atLeast(hull, h, g, l, n, end))) {
          changed = true; // max below keeps the hull's line on [start, end) only if it is at least the cut at both ends
          tailFrom = start;
        }
        if (changed) {
          max(tail, hull.gain[h], hull.loss[h], hull.parts[h], hull.flags[h], g, l, n,
              (byte) (whole.flags[j] & ENDS_WHOLE), start, end);
        }
      }
      if (end >= to) {
        break;
      }
      if (eh <= end) {
        h++;
      }
      if (ei <= end) {
        i++;
      }
      if (ej <= end) {
        j++;
      }
    }
    if (changed) {
      hull.splice(tailFrom, to, tail);
    }
    return !stopped;
  }

  /**
   * The larger of two p's. Not {@link Math#max}: its care for NaN and −0.0, which p's never are,
   * made the walks measurably slower (JDK 17).
   */
  private static double larger(double a, double b) {
    return a >= b ? a : b;
  }

  /** The smaller of two p's (see {@link #larger}). */
  private static double smaller(double a, double b) {
    return a <= b ? a : b;
  }

  /** Whether piece h of the hull is at least line (g, l, n) at p, computed exactly as {@link #max} does. */
  private boolean atLeast(Lines hull, int h, double g, double l, int n, double p) {
    return p * hull.gain[h] - (1 - p) * hull.loss[h] - penalty * hull.parts[h] >= p * g - (1 - p) * l - penalty * n;
  }

  private double value(Env env, int k, double p) {
    return env.value(k, p, penalty);
  }

  /**
   * Appends to out the higher of lines a and b on [start, end), a on equal values; true if b is
   * higher somewhere.
   */
  private boolean max(Lines out, double ga, double la, int na, byte fa, double gb, double lb, int nb, byte fb,
      double start, double end) {
    double ia = -la - penalty * na;
    double ib = -lb - penalty * nb;
    double sa = ga + la;
    double sb = gb + lb;
    boolean aFirst = start * ga - (1 - start) * la - penalty * na >= start * gb - (1 - start) * lb - penalty * nb;
    boolean aLast = end * ga - (1 - end) * la - penalty * na >= end * gb - (1 - end) * lb - penalty * nb;
    if (aFirst == aLast) {
      append(out, aFirst, ga, la, na, fa, gb, lb, nb, fb, start);
      return !aFirst;
    }
    double x = (ia - ib) / (sb - sa);
    if (x > start && x < end) {
      append(out, aFirst, ga, la, na, fa, gb, lb, nb, fb, start);
      append(out, aLast, ga, la, na, fa, gb, lb, nb, fb, x);
      return true;
    }
    boolean a = x >= end ? aFirst : aLast; // rounding put the crossing at an end
    append(out, a, ga, la, na, fa, gb, lb, nb, fb, start);
    return !a;
  }

  /** Appends line a (or b) from start on, unless it already is the last piece's line. */
  private static void append(Lines out, boolean a, double ga, double la, int na, byte fa, double gb,
      double lb, int nb, byte fb, double start) {
    if (a) {
      out.add(start, ga, la, na, fa);
    } else {
      out.add(start, gb, lb, nb, fb);
    }
  }

  /**
   * An immutable envelope: pieces p ascending, each a line, where it starts (the first at 0) and
   * its flags ({@link #ENDS_WHOLE}, {@link #SPLIT}).
   */
  private static final class Env {
    final double[] start;
    final double[] gain;
    final double[] loss;
    final int[] parts;
    final byte[] flags;
    final int size;
    final double limit;

    Env(Lines lines) {
      size = lines.size;
      limit = lines.limit;
      start = Arrays.copyOf(lines.start, size);
      gain = Arrays.copyOf(lines.gain, size);
      loss = Arrays.copyOf(lines.loss, size);
      parts = Arrays.copyOf(lines.parts, size);
      flags = Arrays.copyOf(lines.flags, size);
    }

    /** Bytes on the heap: 29 per piece, an object and five array headers (16 bytes each). */
    long bytes() {
      return 29L * size + 6 * 16;
    }

    /** A one-line envelope whose line {@link #set} changes: a leaf's V, without an object per interval. */
    Env(double limit) {
      size = 1;
      this.limit = limit;
      start = new double[1];
      gain = new double[1];
      loss = new double[1];
      parts = new int[] {1};
      flags = new byte[] {ENDS_WHOLE};
    }

    Env set(double g, double l) {
      gain[0] = g;
      loss[0] = l;
      return this;
    }

    double end(int k) {
      return k + 1 < size ? start[k + 1] : limit;
    }

    double value(int k, double p, double penalty) {
      return p * gain[k] - (1 - p) * loss[k] - penalty * parts[k];
    }

    /** The piece whose range [start, end) holds p: the last one starting at or before p. */
    int find(double p) {
      return last(start, size, p);
    }

    /** As {@link #find(double)}, knowing that the piece is in [low, high]. */
    int find(double p, int low, int high) {
      return search(start, p, low, high);
    }

    /** Where the first piece with the flag starts; infinity if none has it. */
    double firstStart(byte flag) {
      for (int k = 0; k < size; k++) {
        if ((flags[k] & flag) != 0) {
          return start[k];
        }
      }
      return Double.POSITIVE_INFINITY;
    }

    /** Where the last piece with the flag ends; minus infinity if none has it. */
    double lastEnd(byte flag) {
      for (int k = size - 1; k >= 0; k--) {
        if ((flags[k] & flag) != 0) {
          return end(k);
        }
      }
      return Double.NEGATIVE_INFINITY;
    }
  }

  /** The last index below size whose start is at or before p (0 if none). */
  private static int last(double[] start, int size, double p) {
    if (size == 1 || start[1] > p) {
      return 0; // most look-ups: the cuts of the root's first range start at 0
    }
    return search(start, p, 1, size - 1);
  }

  /** The last index in [low, high] whose start is at or before p; low if none after it is. */
  private static int search(double[] start, double p, int low, int high) {
    while (low < high) {
      int middle = (low + high + 1) >>> 1;
      if (start[middle] <= p) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }

  /** A growable envelope under construction. */
  private static final class Lines {
    double[] start = new double[16];
    double[] gain = new double[16];
    double[] loss = new double[16];
    int[] parts = new int[16];
    byte[] flags = new byte[16];
    int size;
    /** Where the last piece ends: the envelopes' range is [0, limit]. */
    double limit = 1;

    void clear() {
      size = 0;
    }

    double end(int k) {
      return k + 1 < size ? start[k + 1] : limit;
    }

    int find(double p) {
      return last(start, size, p);
    }

    double value(int k, double p, double penalty) {
      return p * gain[k] - (1 - p) * loss[k] - penalty * parts[k];
    }

    /**
     * Appends a piece from s on, unless the last piece has the same line: then that piece goes
     * on and takes the flags of both (equal lines are one piece whichever options made them).
     */
    void add(double s, double g, double l, int n, byte f) {
      int last = size - 1;
      if (last >= 0 && gain[last] == g && loss[last] == l && parts[last] == n) {
        flags[last] |= f;
        return;
      }
      ensure(size + 1);
      start[size] = s;
      gain[size] = g;
      loss[size] = l;
      parts[size] = n;
      flags[size] = f;
      size++;
    }

    private void ensure(int capacity) {
      if (capacity > start.length) {
        int length = Math.max(capacity, 2 * start.length);
        start = Arrays.copyOf(start, length);
        gain = Arrays.copyOf(gain, length);
        loss = Arrays.copyOf(loss, length);
        parts = Arrays.copyOf(parts, length);
        flags = Arrays.copyOf(flags, length);
      }
    }

    /** Loads env's pieces with the given flags. */
    void load(Env env, byte flags) {
      load(env);
      Arrays.fill(this.flags, 0, size, flags);
    }

    /** Loads env's pieces on [from, to), the first one from from on. */
    void load(Env env, double from, double to) {
      int first = env.find(from);
      int last = env.find(to);
      if (last > first && env.start[last] >= to) {
        last--;
      }
      size = last - first + 1;
      ensure(size);
      System.arraycopy(env.start, first, start, 0, size);
      System.arraycopy(env.gain, first, gain, 0, size);
      System.arraycopy(env.loss, first, loss, 0, size);
      System.arraycopy(env.parts, first, parts, 0, size);
      System.arraycopy(env.flags, first, flags, 0, size);
      start[0] = from;
    }

    /** Appends env's pieces; its first joins the last piece here if they have the same line (see {@link #add}). */
    void append(Env env) {
      for (int k = 0; k < env.size; k++) {
        add(env.start[k], env.gain[k], env.loss[k], env.parts[k], env.flags[k]);
      }
    }

    /** Loads env's pieces with their flags (an envelope's neighbouring pieces differ: no merging). */
    void load(Env env) {
      ensure(env.size);
      System.arraycopy(env.start, 0, start, 0, env.size);
      System.arraycopy(env.gain, 0, gain, 0, env.size);
      System.arraycopy(env.loss, 0, loss, 0, env.size);
      System.arraycopy(env.parts, 0, parts, 0, env.size);
      System.arraycopy(env.flags, 0, flags, 0, env.size);
      size = env.size;
    }

    /**
     * This envelope with its range [from, to) replaced by tail's pieces (which cover it), in place:
     * the pieces after to move once (an overlapping {@link System#arraycopy} is a memmove), the
     * tail is copied once. As with {@link #add}, a piece that has the line of the piece before it
     * joins it and gives it its flags.
     */
    void splice(double from, double to, Lines tail) {
      int head = find(from);
      int headEnd = start[head] < from ? head + 1 : head;
      boolean tailJoins = headEnd > 0 && sameLine(headEnd - 1, tail, 0);
      int tailFrom = tailJoins ? 1 : 0;
      int tailCount = tail.size - tailFrom;
      int kept = to < limit ? find(to) : size;
      boolean restJoins = kept < size && tail.sameLine(tail.size - 1, this, kept);
      byte restFlags = kept < size ? flags[kept] : 0;
      int restFrom = restJoins ? kept + 1 : kept;
      int restCount = size - restFrom;
      int target = headEnd + tailCount;
      ensure(target + restCount);
      System.arraycopy(start, restFrom, start, target, restCount);
      System.arraycopy(gain, restFrom, gain, target, restCount);
      System.arraycopy(loss, restFrom, loss, target, restCount);
      System.arraycopy(parts, restFrom, parts, target, restCount);
      System.arraycopy(flags, restFrom, flags, target, restCount);
      if (!restJoins && restCount > 0) {
        start[target] = to;
      }
      if (tailJoins) {
        flags[headEnd - 1] |= tail.flags[0];
      }
      System.arraycopy(tail.start, tailFrom, start, headEnd, tailCount);
      System.arraycopy(tail.gain, tailFrom, gain, headEnd, tailCount);
      System.arraycopy(tail.loss, tailFrom, loss, headEnd, tailCount);
      System.arraycopy(tail.parts, tailFrom, parts, headEnd, tailCount);
      System.arraycopy(tail.flags, tailFrom, flags, headEnd, tailCount);
      if (!tailJoins) {
        start[headEnd] = from;
      }
      size = target + restCount;
      if (restJoins) {
        flags[target - 1] |= restFlags;
      }
    }

    private boolean sameLine(int k, Lines other, int j) {
      return gain[k] == other.gain[j] && loss[k] == other.loss[j] && parts[k] == other.parts[j];
    }

    Env toEnv() {
      return new Env(this);
    }
  }
}
