package org.ocelotl.aggregation;

import java.util.Arrays;
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
 * penalty τ·parts sits in each line's intercept, so coarser wins ties as in the programme, and
 * sums are made in the programme's order, so the lines are the same doubles. Where two lines
 * cross, rounding can leave a piece a few ulps wide; the search drops ranges that narrow
 * ({@link BreakpointSearch#POINT}).
 *
 * <p>Cost: proportional to the pieces handled (Σ over subproblems and cuts of the sizes of the two
 * envelopes summed) instead of one full programme per optimum. Envelopes are cut to p ∈ [0, limit]
 * where limit is the p from which the whole model as one part is optimal: at a p the programme
 * compares subproblems at that p only, so above limit, where the answer is known, their pieces
 * would be work for nothing (on real traces most pieces of the small subproblems lie there).
 * Memory: the envelopes of one node live until its parent is built. The parts of the optima are
 * not kept: the caller builds those it needs by the programme.
 */
final class Envelopes {
  private final ProducerTree tree;
  private final int slices;
  private final double[][] gain;
  private final double[][] loss;
  private final double penalty;
  private final double limit;
  private final Qualities.Evaluation beyond;
  private final Env[][] best; // B(h, interval) until the parent of h is built
  private final Env root;

  /**
   * @param limit  the envelopes cover [0, limit]
   * @param beyond the optimum on [limit, 1]: the whole model as one part
   */
  Envelopes(ProducerTree tree, int slices, double[][] gain, double[][] loss, int[][] levels,
      double penalty, double limit, Qualities.Evaluation beyond, Work work) {
    this.limit = limit;
    this.beyond = beyond;
    this.tree = tree;
    this.slices = slices;
    this.gain = gain;
    this.loss = loss;
    this.penalty = penalty;
    best = new Env[tree.size()][];
    java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
    for (int[] level : levels) {
      IntStream.of(level).parallel().forEach(node -> {
        work.check();
        solve(node);
        work.advanced(done.incrementAndGet(), tree.size());
      });
    }
    root = best[0][Qualities.interval(0, slices - 1)];
    best[0] = null;
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
    final Lines[] lines = {new Lines(), new Lines(), new Lines(), new Lines()};
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private void solve(int node) {
    int intervals = Qualities.intervalArrayLength(slices);
    Env[] v = new Env[intervals];
    Env[] b = new Env[intervals];
    Lines[] s = SCRATCH.get().lines;
    for (Lines lines : s) {
      lines.limit = limit;
    }
    double[] g = gain[node];
    double[] l = loss[node];
    boolean leaf = tree.isLeaf(node);
    for (int k = 0; k < intervals; k++) {
      Lines aggregate = s[0];
      aggregate.clear();
      aggregate.add(0, g[k], l[k], 1);
      if (leaf) {
        v[k] = aggregate.toEnv();
        continue;
      }
      Lines sum = s[1];
      Lines next = s[2];
      sum.load(best[tree.child(node, 0)][k]);
      for (int i = 1; i < tree.childCount(node); i++) {
        sum(sum, best[tree.child(node, i)][k], next);
        Lines swap = sum;
        sum = next;
        next = swap;
      }
      envelope(aggregate, sum, next); // aggregate first: it wins exact ties, as in the programme
      v[k] = next.toEnv();
    }
    if (!leaf) {
      for (int i = 0; i < tree.childCount(node); i++) {
        best[tree.child(node, i)] = null;
      }
    }
    int lastFirst = node == 0 ? 0 : slices - 1; // nothing above the root asks for other rows
    for (int first = 0; first <= lastFirst; first++) {
      for (int last = first; last < slices; last++) {
        Lines hull = s[0];
        Lines out = s[1];
        hull.load(v[Qualities.interval(first, last)]);
        for (int c = first + 1; c <= last; c++) {
          // earlier cuts first: they win exact ties
          envelopeOfSum(hull, b[Qualities.interval(first, c - 1)], v[Qualities.interval(c, last)], out);
          Lines swap = hull;
          hull = out;
          out = swap;
        }
        b[Qualities.interval(first, last)] = hull.toEnv();
      }
    }
    best[node] = b;
  }

  /** out = a + b (children's optima in the programme's order), breakpoints merged. */
  private static void sum(Lines a, Env b, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size && j < b.size) {
      double ea = a.end(i);
      double eb = b.end(j);
      double start = Math.max(a.start[i], b.start(j));
      if (Math.min(ea, eb) > start) {
        out.add(start, a.gain[i] + b.gain[j], a.loss[i] + b.loss[j], a.parts[i] + b.parts[j]);
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
      double start = Math.max(a.start[i], b.start[j]);
      double end = Math.min(ea, eb);
      if (end > start) {
        max(out, a.gain[i], a.loss[i], a.parts[i], b.gain[j], b.loss[j], b.parts[j], start, end);
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
   * out = max(hull, prefix + whole): {@link #envelope} of hull and {@link #sum} of prefix and
   * whole in one walk, without building the sum.
   */
  private void envelopeOfSum(Lines hull, Env prefix, Env whole, Lines out) {
    out.clear();
    int h = 0;
    int i = 0;
    int j = 0;
    while (h < hull.size && i < prefix.size && j < whole.size) {
      double eh = hull.end(h);
      double ei = prefix.end(i);
      double ej = whole.end(j);
      double start = Math.max(hull.start[h], Math.max(prefix.start[i], whole.start[j]));
      double end = Math.min(eh, Math.min(ei, ej));
      if (end > start) {
        // additions in the programme's order: V + B(prefix)
        max(out, hull.gain[h], hull.loss[h], hull.parts[h], whole.gain[j] + prefix.gain[i],
            whole.loss[j] + prefix.loss[i], whole.parts[j] + prefix.parts[i], start, end);
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
  }

  /** Appends to out the higher of lines a and b on [start, end), a on equal values. */
  private void max(Lines out, double ga, double la, int na, double gb, double lb, int nb,
      double start, double end) {
    double ia = -la - penalty * na;
    double ib = -lb - penalty * nb;
    double sa = ga + la;
    double sb = gb + lb;
    boolean aFirst = start * ga - (1 - start) * la - penalty * na >= start * gb - (1 - start) * lb - penalty * nb;
    boolean aLast = end * ga - (1 - end) * la - penalty * na >= end * gb - (1 - end) * lb - penalty * nb;
    if (aFirst == aLast) {
      append(out, aFirst, ga, la, na, gb, lb, nb, start);
      return;
    }
    double x = (ia - ib) / (sb - sa);
    if (x > start && x < end) {
      append(out, aFirst, ga, la, na, gb, lb, nb, start);
      append(out, aLast, ga, la, na, gb, lb, nb, x);
    } else { // rounding put the crossing at an end
      append(out, x >= end ? aFirst : aLast, ga, la, na, gb, lb, nb, start);
    }
  }

  /** Appends line a (or b) from start on, unless it already is the last piece's line. */
  private static void append(Lines out, boolean a, double ga, double la, int na, double gb,
      double lb, int nb, double start) {
    double g = a ? ga : gb;
    double l = a ? la : lb;
    int n = a ? na : nb;
    int last = out.size - 1;
    if (last < 0 || out.gain[last] != g || out.loss[last] != l || out.parts[last] != n) {
      out.add(start, g, l, n);
    }
  }

  /** An immutable envelope: pieces p ascending, each a line and where it starts (the first at 0). */
  private static final class Env {
    final double[] start;
    final double[] gain;
    final double[] loss;
    final int[] parts;
    final int size;
    final double limit;

    Env(Lines lines) {
      size = lines.size;
      limit = lines.limit;
      start = Arrays.copyOf(lines.start, size);
      gain = Arrays.copyOf(lines.gain, size);
      loss = Arrays.copyOf(lines.loss, size);
      parts = Arrays.copyOf(lines.parts, size);
    }

    double start(int k) {
      return start[k];
    }

    double end(int k) {
      return k + 1 < size ? start[k + 1] : limit;
    }

    double value(int k, double p, double penalty) {
      return p * gain[k] - (1 - p) * loss[k] - penalty * parts[k];
    }

    /** The piece whose range [start, end) holds p: the last one starting at or before p. */
    int find(double p) {
      int low = 0;
      int high = size - 1;
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
  }

  /** A growable envelope under construction. */
  private static final class Lines {
    double[] start = new double[16];
    double[] gain = new double[16];
    double[] loss = new double[16];
    int[] parts = new int[16];
    int size;
    /** Where the last piece ends: the envelopes' range is [0, limit]. */
    double limit = 1;

    void clear() {
      size = 0;
    }

    double end(int k) {
      return k + 1 < size ? start[k + 1] : limit;
    }

    void add(double s, double g, double l, int n) {
      if (size == start.length) {
        int length = 2 * size;
        start = Arrays.copyOf(start, length);
        gain = Arrays.copyOf(gain, length);
        loss = Arrays.copyOf(loss, length);
        parts = Arrays.copyOf(parts, length);
      }
      start[size] = s;
      gain[size] = g;
      loss[size] = l;
      parts[size] = n;
      size++;
    }

    void load(Env env) {
      clear();
      for (int k = 0; k < env.size; k++) {
        add(env.start[k], env.gain[k], env.loss[k], env.parts[k]);
      }
    }

    Env toEnv() {
      return new Env(this);
    }
  }
}
