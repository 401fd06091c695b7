package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.ocelotl.model.ProducerTree;

/**
 * The optimal value of every spatiotemporal subproblem as a function of p, computed once for all
 * p (output-sensitive breakpoints, SPEC.md §5).
 *
 * <p>At one p the dynamic programme of {@link SpatiotemporalQualities} maximises, over lines
 * value(p) = p·gain − (1−p)·loss − τ·parts, the options of each subproblem. As a function of p, a
 * maximum of lines is a convex piecewise-linear function, its upper envelope; a sum of two is
 * convex and piecewise linear with the union of their breakpoints. So the same recurrences, run on
 * envelopes instead of numbers, give every optimum of every p at once:
 * V(h,[c,j]) = envelope(aggregate line, Σ_children B(child,[c,j])) and
 * B(h,[i,j]) = envelope over c of B(h,[i,c−1]) + V(h,[c,j]). The root's B over all slices lists the
 * optimal lines, p ascending. The penalty τ·parts sits in each line's intercept, so the ties
 * (coarser wins) are those of the dynamic programme; sums are made in the same order as there, so
 * the lines are the same doubles.
 *
 * <p>Each piece keeps only how it was made (aggregate, split, or the cut c) and a key: a p inside
 * the piece's range in the envelopes it was summed from, where those give the piece of theirs it
 * used (the first piece whose range ends above the key). A partition is therefore read back by
 * following keys, in O(parts · log pieces), only for the optima asked for.
 *
 * <p>Cost: proportional to the pieces handled, Σ over subproblems and cuts of the sizes of the
 * envelopes summed, instead of one full programme per optimum. Envelopes are cut to p in [0, 1].
 */
final class Envelopes {
  private static final int AGGREGATE = -1;
  private static final int SPLIT = -2;

  private final ProducerTree tree;
  private final int slices;
  private final double[][] gain;
  private final double[][] loss;
  private final double penalty;
  private final Part[][] partCache;
  private final Env[][] whole; // V(h, interval)
  private final Env[][] best; // B(h, interval); the root's only for intervals starting at 0

  Envelopes(ProducerTree tree, int slices, double[][] gain, double[][] loss, int[][] levels,
      double penalty, Part[][] partCache) {
    this.tree = tree;
    this.slices = slices;
    this.gain = gain;
    this.loss = loss;
    this.penalty = penalty;
    this.partCache = partCache;
    int nodes = tree.size();
    whole = new Env[nodes][];
    best = new Env[nodes][];
    for (int[] level : levels) {
      IntStream.of(level).parallel().forEach(this::solve);
    }
  }

  /** The optimal lines of the whole model, p ascending. */
  Env root() {
    return best[0][Qualities.interval(0, slices - 1)];
  }

  /**
   * The optimum at p read from the root envelope: the piece whose range holds p, or a neighbour
   * if that is higher at p (at a breakpoint both are optimal, to rounding).
   */
  Qualities.Evaluation evaluate(double p) {
    Env root = root();
    int k = root.find(p);
    int chosen = k;
    for (int other = Math.max(0, k - 1); other <= Math.min(root.size - 1, k + 1); other++) {
      if (root.value(other, p, penalty) > root.value(chosen, p, penalty)) {
        chosen = other;
      }
    }
    return new Optimum(root, chosen);
  }

  private final class Optimum implements Qualities.Evaluation {
    private final Env root;
    private final int piece;
    private Partition partition;

    Optimum(Env root, int piece) {
      this.root = root;
      this.piece = piece;
    }

    @Override
    public double gain() {
      return root.gain(piece);
    }

    @Override
    public double loss() {
      return root.loss(piece);
    }

    @Override
    public synchronized Partition partition() {
      if (partition == null) {
        partition = collect(root, piece);
      }
      return partition;
    }
  }

  // ---- building ----

  private record Scratch(Lines a, Lines b, Lines c, Lines d) {
    Scratch() {
      this(new Lines(), new Lines(), new Lines(), new Lines());
    }
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private void solve(int node) {
    int intervals = Qualities.intervalArrayLength(slices);
    Env[] v = new Env[intervals];
    Env[] b = new Env[intervals];
    Scratch s = SCRATCH.get();
    double[] g = gain[node];
    double[] l = loss[node];
    for (int k = 0; k < intervals; k++) {
      Lines aggregate = s.a;
      aggregate.clear();
      aggregate.add(0, g[k], l[k], 1, 0, AGGREGATE);
      if (tree.isLeaf(node)) {
        v[k] = aggregate.toEnv();
        continue;
      }
      Lines sum = s.b;
      sum.load(best[tree.child(node, 0)][k], SPLIT);
      for (int i = 1; i < tree.childCount(node); i++) {
        sum(sum, best[tree.child(node, i)][k], SPLIT, s.c);
        sum.copyFrom(s.c);
      }
      Lines out = s.c;
      envelope(aggregate, sum, out); // aggregate first: it wins exact ties, as in the programme
      v[k] = out.toEnv();
    }
    whole[node] = v;
    int lastFirst = node == 0 ? 0 : slices - 1;
    for (int first = 0; first <= lastFirst; first++) {
      for (int last = first; last < slices; last++) {
        Lines hull = s.a;
        hull.load(v[Qualities.interval(first, last)], first);
        for (int c = first + 1; c <= last; c++) {
          Lines candidate = s.b;
          sum(b[Qualities.interval(first, c - 1)], v[Qualities.interval(c, last)], c, candidate);
          Lines out = s.c;
          envelope(hull, candidate, out); // earlier cuts first: they win exact ties
          hull.copyFrom(out);
        }
        b[Qualities.interval(first, last)] = hull.toEnv();
      }
    }
    best[node] = b;
  }

  /** out = a + b, breakpoints merged; pieces of zero width dropped; each keyed by its start. */
  private static void sum(Lines a, Env b, int origin, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size && j < b.size) {
      double ea = a.end(i);
      double eb = b.end(j);
      double start = Math.max(a.start[i], b.start(j));
      double end = Math.min(ea, eb);
      if (end > start) {
        out.add(start, a.gain[i] + b.gain(j), a.loss[i] + b.loss(j), a.parts[i] + b.parts(j), start, origin);
      }
      if (ea <= eb) {
        i++;
      }
      if (eb <= ea) {
        j++;
      }
    }
  }

  private static void sum(Env a, Env b, int origin, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size && j < b.size) {
      double ea = a.end(i);
      double eb = b.end(j);
      double start = Math.max(a.start(i), b.start(j));
      double end = Math.min(ea, eb);
      if (end > start) {
        // same order of additions as the programme: V + B(prefix)
        out.add(start, b.gain(j) + a.gain(i), b.loss(j) + a.loss(i), b.parts(j) + a.parts(i), start, origin);
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
   * out = upper envelope on [0, 1] of the lines of a and b (both convex, slopes ascending): a
   * merge by slope and one scan; on equal lines a's is kept.
   */
  private void envelope(Lines a, Lines b, Lines out) {
    out.clear();
    int i = 0;
    int j = 0;
    while (i < a.size || j < b.size) {
      boolean fromA = j >= b.size || (i < a.size && a.slope(i) <= b.slope(j));
      if (fromA) {
        push(out, a, i++);
      } else {
        push(out, b, j++);
      }
    }
  }

  private void push(Lines out, Lines from, int k) {
    double slope = from.slope(k);
    double intercept = from.intercept(k, penalty);
    while (out.size > 0) {
      int top = out.size - 1;
      double topSlope = out.slope(top);
      double topIntercept = out.intercept(top, penalty);
      if (slope == topSlope) {
        if (intercept > topIntercept) {
          out.size--;
          continue;
        }
        return;
      }
      double x = (topIntercept - intercept) / (slope - topSlope);
      if (x <= out.start[top]) {
        out.size--;
        continue;
      }
      if (x >= 1) {
        return;
      }
      out.add(x, from.gain[k], from.loss[k], from.parts[k], from.key[k], from.origin[k]);
      return;
    }
    out.add(0, from.gain[k], from.loss[k], from.parts[k], from.key[k], from.origin[k]);
  }

  // ---- reading a partition back ----

  private Partition collect(Env root, int piece) {
    Part[] slots = new Part[tree.leafCount() * slices];
    double[] totals = new double[2];
    collectBest(0, 0, slices - 1, root, piece, slots, totals);
    List<Part> parts = new ArrayList<>();
    for (Part part : slots) {
      if (part != null) {
        parts.add(part);
      }
    }
    return new Partition(parts, totals[0], totals[1]);
  }

  private void collectBest(int node, int first, int last, Env env, int piece, Part[] slots, double[] totals) {
    int cut = env.origin(piece);
    double key = env.key(piece);
    if (cut > first) {
      Env prefix = best[node][Qualities.interval(first, cut - 1)];
      collectBest(node, first, cut - 1, prefix, prefix.find(key), slots, totals);
    }
    int k = Qualities.interval(cut, last);
    Env v = whole[node][k];
    int w = v.find(key);
    if (v.origin(w) == AGGREGATE) {
      Part part = partCache[node][k];
      if (part == null) {
        part = new Part(node, cut, last);
        partCache[node][k] = part;
      }
      slots[tree.firstLeaf(node) * slices + cut] = part;
      totals[0] += gain[node][k];
      totals[1] += loss[node][k];
    } else {
      double childKey = v.key(w);
      for (int i = 0; i < tree.childCount(node); i++) {
        int child = tree.child(node, i);
        Env env2 = best[child][k];
        collectBest(child, cut, last, env2, env2.find(childKey), slots, totals);
      }
    }
  }

  /** An immutable envelope: pieces p ascending, each a line, where it starts, its origin and key. */
  static final class Env {
    private final double[] d; // starts, gains, losses, keys
    private final int[] m; // parts, origins
    final int size;

    private Env(Lines lines) {
      size = lines.size;
      d = new double[4 * size];
      m = new int[2 * size];
      System.arraycopy(lines.start, 0, d, 0, size);
      System.arraycopy(lines.gain, 0, d, size, size);
      System.arraycopy(lines.loss, 0, d, 2 * size, size);
      System.arraycopy(lines.key, 0, d, 3 * size, size);
      System.arraycopy(lines.parts, 0, m, 0, size);
      System.arraycopy(lines.origin, 0, m, size, size);
    }

    double start(int k) {
      return d[k];
    }

    double end(int k) {
      return k + 1 < size ? d[k + 1] : 1;
    }

    double gain(int k) {
      return d[size + k];
    }

    double loss(int k) {
      return d[2 * size + k];
    }

    double key(int k) {
      return d[3 * size + k];
    }

    int parts(int k) {
      return m[k];
    }

    int origin(int k) {
      return m[size + k];
    }

    double value(int k, double p, double penalty) {
      return p * gain(k) - (1 - p) * loss(k) - penalty * parts(k);
    }

    /** The piece whose range [start, end) holds p: the last one starting at or before p. */
    int find(double p) {
      int low = 0;
      int high = size - 1;
      while (low < high) {
        int middle = (low + high + 1) >>> 1;
        if (d[middle] <= p) {
          low = middle;
        } else {
          high = middle - 1;
        }
      }
      return low;
    }
  }

  /** A growable envelope under construction (per-thread scratch). */
  private static final class Lines {
    double[] start = new double[16];
    double[] gain = new double[16];
    double[] loss = new double[16];
    double[] key = new double[16];
    int[] parts = new int[16];
    int[] origin = new int[16];
    int size;

    void clear() {
      size = 0;
    }

    double end(int k) {
      return k + 1 < size ? start[k + 1] : 1;
    }

    double slope(int k) {
      return gain[k] + loss[k];
    }

    double intercept(int k, double penalty) {
      return -loss[k] - penalty * parts[k];
    }

    void add(double s, double g, double l, int n, double kk, int o) {
      if (size == start.length) {
        int length = 2 * size;
        start = java.util.Arrays.copyOf(start, length);
        gain = java.util.Arrays.copyOf(gain, length);
        loss = java.util.Arrays.copyOf(loss, length);
        key = java.util.Arrays.copyOf(key, length);
        parts = java.util.Arrays.copyOf(parts, length);
        origin = java.util.Arrays.copyOf(origin, length);
      }
      start[size] = s;
      gain[size] = g;
      loss[size] = l;
      key[size] = kk;
      parts[size] = n;
      origin[size] = o;
      size++;
    }

    /** The pieces of env with the given origin, each keyed by its own start (where env finds it). */
    void load(Env env, int o) {
      clear();
      for (int k = 0; k < env.size; k++) {
        add(env.start(k), env.gain(k), env.loss(k), env.parts(k), env.start(k), o);
      }
    }

    void copyFrom(Lines other) {
      clear();
      for (int k = 0; k < other.size; k++) {
        add(other.start[k], other.gain[k], other.loss[k], other.parts[k], other.key[k], other.origin[k]);
      }
    }

    Env toEnv() {
      return new Env(this);
    }
  }
}
