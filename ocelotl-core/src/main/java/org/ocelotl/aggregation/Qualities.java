package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;

/**
 * Gain and loss of every aggregate of one microscopic model for one aggregation, computed once
 * (SPEC.md §4), then the optimal partition for any p and the exact breakpoints (SPEC.md §5).
 *
 * <p>Ties: every part costs a penalty of {@link #tolerance()} in the optimisation, so among
 * partitions whose pIC differ by less than that per part of difference, the one with fewer parts
 * wins; the tolerance is {@value #RELATIVE_TOLERANCE} × the model's {@link #scale()}, far above
 * rounding noise and far below any meaningful difference. Reported gains, losses and pIC never
 * include the penalty.
 *
 * <p>Instances are immutable once built and safe to share between threads;
 * {@link #breakpoints()} is computed on first call and then kept.
 */
public abstract sealed class Qualities
    permits TemporalQualities, SpatialQualities, SpatiotemporalQualities {
  /** Tie tolerance per part, relative to {@link #scale()}. */
  public static final double RELATIVE_TOLERANCE = 1e-12;

  private final MicroscopicModel model;
  private final double scale;
  private final double tolerance;
  private volatile List<Breakpoint> breakpoints;
  /**
   * Optima that a trade-off evaluated at its own p ({@link #tradeOff}), by p, shared with the
   * qualities {@link #withWork} gives: the page ranks what the default partition hides by asking
   * {@link #best} at that p next (decision 067), and the programme's answer there is known.
   */
  private final java.util.Map<Double, Partition> tradeOffOptima;

  /**
   * The caller of the computation, until the breakpoints are found; then nobody: what is built
   * later on demand (a breakpoint's parts, for whichever request shows it) answers to no one's
   * cancellation, and the first caller is not kept alive by a cached result.
   */
  private volatile Work work;

  Qualities(MicroscopicModel model, Work work) {
    this.model = model;
    this.work = work;
    this.scale = scaleOf(model);
    this.tolerance = RELATIVE_TOLERANCE * scale;
    this.tradeOffOptima = new java.util.concurrent.ConcurrentHashMap<>();
  }

  /** The same qualities as {@code computed}, answering to {@code work} (see {@link #withWork}). */
  Qualities(Qualities computed, Work work) {
    this.model = computed.model;
    this.work = work;
    this.scale = computed.scale;
    this.tolerance = computed.tolerance;
    this.tradeOffOptima = computed.tradeOffOptima;
  }

  /**
   * Computes the qualities of every aggregate of the model.
   *
   * @throws IllegalArgumentException if they would not fit in the heap (the message says how
   *     much they need)
   */
  public static Qualities of(MicroscopicModel model, Aggregation aggregation) {
    return of(model, aggregation, Work.NONE);
  }

  /**
   * As {@link #of(MicroscopicModel, Aggregation)}, telling {@code work} how far the computation
   * (and later the breakpoint search) has come, and stopping with its exception when it is
   * cancelled.
   */
  public static Qualities of(MicroscopicModel model, Aggregation aggregation, Work work) {
    return switch (aggregation) {
      case TEMPORAL -> new TemporalQualities(model, work);
      case SPATIAL -> new SpatialQualities(model, work);
      case SPATIOTEMPORAL -> new SpatiotemporalQualities(model, work);
    };
  }

  /**
   * These qualities, their arrays shared and not computed again, for another request: what is
   * computed from them from now on (an optimum, the default p, the breakpoints) tells {@code work}
   * of its progress and stops when {@code work} is cancelled, not when the request that computed
   * the qualities is — a server that keeps them for the next request of the same model (decision
   * 067) must not have that request cancelled by the end of the first. Breakpoints are searched
   * again: only the qualities are shared. Reserves, as {@link #of} does, the heap of the
   * evaluations that the new request will run.
   */
  public abstract Qualities withWork(Work work);

  /** Who is told of progress and asked whether to go on. */
  final Work work() {
    return work;
  }

  public abstract Aggregation aggregation();

  public final MicroscopicModel model() {
    return model;
  }

  /**
   * The optimal partition for p (highest pIC, coarser on ties), parts ordered by first leaf then
   * first slice.
   *
   * @throws IllegalArgumentException if p is not in [0, 1]
   */
  public final Partition best(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be in [0, 1], got " + p);
    }
    Partition known = tradeOffOptima.get(p);
    return known != null ? known : evaluate(p).partition();
  }

  /**
   * The default p of SPEC.md §5 and its partition, exact, without the breakpoints: a handful of
   * dynamic programmes where the search takes thousands of pieces' walks (a minute on a 768-leaf
   * spatiotemporal model, where one programme is a fraction of a second).
   *
   * <p>Why it is exact: the default is the breakpoint whose partition maximises g/G − l/L (G and L
   * the one-part partition's gain and loss). For any partition, G·L/(G + L) × (g/G − l/L) is its
   * pIC at p* = L/(G + L), so the partition that maximises the score among all partitions — hence
   * among the breakpoints — is the optimum at p*: one programme. Its breakpoint, the lowest p at
   * which it is optimal, is where its line crosses that of the optimum just before it. From the
   * optimum at 0, each step evaluates the programme where the last optimum found crosses p*'s; an
   * optimum above both there lies between them, so the steps close in on the neighbour (Newton's
   * method on the convex optimal pIC: four steps on the 768-leaf benchmark model, the last one the
   * check that nothing lies between). A start nearer p* saves nothing: the default's range of p is
   * wide, so a probe below p* most often falls inside it and costs one more programme. {@link
   * #breakpoints()} finds the same p and partition, up to the rounding of the breakpoint's crossing.
   */
  public final Breakpoint tradeOff() {
    // The last evaluation, which is most often at the p found (the crossing that nothing beats):
    // its partition is then best(p)'s, kept for the request that asks it next.
    Evaluation[] last = new Evaluation[1];
    double[] lastP = {Double.NaN};
    BreakpointSearch.Evaluator optimum = checked(at -> {
      last[0] = evaluate(at);
      lastP[0] = at;
      return last[0];
    });
    Breakpoint found = tradeOff(optimum);
    if (lastP[0] == found.p()) {
      tradeOffOptima.put(found.p(), last[0].partition());
    }
    return found;
  }

  private Breakpoint tradeOff(BreakpointSearch.Evaluator optimum) {
    Evaluation whole = atOne();
    double gain = whole.gain();
    double loss = whole.loss();
    // A zero value at p = 1 makes its fraction 0 (Breakpoint.fraction): the score is then the
    // other fraction alone, maximised by the optimum at 0 (no gain to weigh) or at 1 (no loss).
    double p = gain > 0 && loss > 0 ? loss / (gain + loss) : gain > 0 ? 1 : 0;
    Evaluation chosen = p == 1 ? whole : optimum.evaluate(p);
    Evaluation zero = p == 0 ? chosen : optimum.evaluate(0);
    while (true) {
      Lowest lowest = lowest(optimum, zero, chosen, p);
      if (lowest.p() == 0) {
        return new Breakpoint(0, chosen.partition());
      }
      // The neighbour before scores as much when their lines cross at p itself: the finer one
      // wins, as Breakpoint.defaultP decides; its own breakpoint is searched the same way.
      Evaluation before = lowest.before();
      if (Breakpoint.score(before.gain(), before.loss(), gain, loss)
          < Breakpoint.score(chosen.gain(), chosen.loss(), gain, loss) - Breakpoint.SCORE_TIE) {
        return new Breakpoint(lowest.p(), chosen.partition());
      }
      chosen = before;
      p = lowest.p();
    }
  }

  /** Where an optimum's range of p starts, and the optimum just before it (itself when that is 0). */
  private record Lowest(double p, Evaluation before) {}

  /**
   * The lowest p at which {@code chosen}, an optimum at {@code upTo}, is optimal: from {@code zero},
   * the optimum at 0, each step evaluates the programme where the last optimum found crosses
   * {@code chosen}'s line; an optimum above both there lies between them, and the next step starts
   * from it; when none is above, the crossing is where {@code chosen} starts (Newton's method on the
   * convex optimal pIC: a few steps).
   */
  private Lowest lowest(BreakpointSearch.Evaluator optimum, Evaluation zero, Evaluation chosen, double upTo) {
    Evaluation before = zero;
    double from = 0;
    while (!sameLine(before, chosen)) {
      double slopes = (chosen.gain() + chosen.loss()) - (before.gain() + before.loss());
      double crossing = slopes > 0 ? Math.min(upTo, Math.max(from, (chosen.loss() - before.loss()) / slopes)) : upTo;
      if (!(crossing > from)) { // rounding: no progress
        return new Lowest(from, before);
      }
      Evaluation between = optimum.evaluate(crossing);
      boolean above = between.pic(crossing) > Math.max(before.pic(crossing), chosen.pic(crossing)) + tolerance;
      if (!above || sameLine(between, before) || sameLine(between, chosen)) {
        return new Lowest(crossing, before);
      }
      before = between;
      from = crossing;
    }
    return new Lowest(0, chosen);
  }

  /** The optimum at p = 1: the model as one part, the steepest line. */
  Evaluation atOne() {
    return evaluate(1);
  }

  /**
   * The optimal partition at p = 1, the model as one part, whose gain and loss the answers'
   * fractions are of: {@code best(1)}, the same parts, gain and loss, without the programme where
   * the aggregation knows it at once (the spatiotemporal one: a third of a zoom's first answer's CPU
   * at 768 leaves, docs/benchmarks.md, "A zoom's first answer, phase by phase").
   */
  public final Partition whole() {
    return atOne().partition();
  }

  private boolean sameLine(Evaluation x, Evaluation y) {
    return Math.abs(x.gain() - y.gain()) <= tolerance && Math.abs(x.loss() - y.loss()) <= tolerance;
  }

  /**
   * The optimum for one p. Its line (gain, loss) is known at once; the partition (its parts) is
   * built on demand, since the breakpoint search needs the parts of only half of the optima it
   * evaluates.
   */
  interface Evaluation {
    double gain();

    double loss();

    Partition partition();

    default double pic(double p) {
      return p * gain() - (1 - p) * loss();
    }
  }

  /** An evaluation whose partition is already built. */
  record Built(Partition partition) implements Evaluation {
    @Override
    public double gain() {
      return partition.gain();
    }

    @Override
    public double loss() {
      return partition.loss();
    }
  }

  /** The optimum at p, by the dynamic programme. */
  abstract Evaluation evaluate(double p);

  /**
   * Every distinct optimal partition with the lowest p at which it is optimal, p ascending; the
   * first has p = 0. Look up the partition for a p with {@link Breakpoint#at}.
   */
  public final List<Breakpoint> breakpoints() {
    List<Breakpoint> result = breakpoints;
    if (result == null) {
      synchronized (this) {
        result = breakpoints;
        if (result == null) {
          result = searchBreakpoints();
          breakpoints = result;
          work = Work.NONE;
        }
      }
    }
    return result;
  }

  /** The breakpoint search of SPEC.md §5, by evaluations of the optimum at chosen p. */
  List<Breakpoint> searchBreakpoints() {
    return BreakpointSearch.run(checked(this::evaluate), tolerance);
  }

  /**
   * The breakpoints found on envelopes, whose partitions know only their lines: each gets the parts
   * built on first request by one DP pass at the middle of its range of p, where it alone is
   * optimal, so that they agree with {@link #best}.
   */
  final List<Breakpoint> withPartsOnDemand(List<Breakpoint> found) {
    List<Breakpoint> lazy = new ArrayList<>(found.size());
    for (int k = 0; k < found.size(); k++) {
      double p = found.get(k).p();
      Partition line = found.get(k).partition();
      double next = k + 1 < found.size() ? found.get(k + 1).p() : 1;
      lazy.add(new Breakpoint(p, new Partition(line.size(), line.gain(), line.loss(),
          () -> partsOfLine(line.size(), p, next))));
    }
    return List.copyOf(lazy);
  }

  /**
   * The least p at which {@code whole}, the optimum at p = 1 (the model as one part, the steepest
   * line), is optimal ({@link #lowest}). A few evaluations: the optima near the coarse end are few.
   */
  final double wholeFrom(Evaluation whole) {
    return lowest(this::evaluate, evaluate(0), whole, 1).p();
  }

  /**
   * Breakpoints found earlier (kept on disk) given back: p, the line (gain, loss) and size of each
   * partition, and its parts where they were known ({@code parts.get(k)} null where not). Unknown
   * parts are built on first request as {@link #withPartsOnDemand} builds them, on the qualities of
   * the model, computed once, when first needed: a list whose shown partitions were kept costs no
   * quality computation at all.
   */
  public static List<Breakpoint> kept(MicroscopicModel model, Aggregation aggregation, double[] p, double[] gain,
      double[] loss, int[] size, List<List<Part>> parts) {
    java.util.function.Supplier<Qualities> qualities = new java.util.function.Supplier<>() {
      private Qualities computed;

      @Override
      public synchronized Qualities get() {
        if (computed == null) {
          computed = of(model, aggregation);
        }
        return computed;
      }
    };
    List<Breakpoint> result = new ArrayList<>(p.length);
    for (int k = 0; k < p.length; k++) {
      double from = p[k];
      double to = k + 1 < p.length ? p[k + 1] : 1;
      int lineSize = size[k];
      Partition partition = parts.get(k) != null ? new Partition(parts.get(k), gain[k], loss[k])
          : new Partition(lineSize, gain[k], loss[k], () -> qualities.get().partsOfLine(lineSize, from, to));
      result.add(new Breakpoint(from, partition));
    }
    return List.copyOf(result);
  }

  /**
   * The parts of the optimum of [from, to): a DP pass where that partition alone is optimal. Where
   * two partitions tie within rounding (the envelope sums lines, the DP sums qualities, in other
   * orders), the DP may pick the tie's other member at the middle; then points nearer each end
   * are tried, so that the parts agree with the line's size. Fractions of the range, middle first.
   */
  private static final double[] PROBES = {0.5, 0.25, 0.75, 0.125, 0.875, 0.0625, 0.9375};

  private List<Part> partsOfLine(int size, double from, double to) {
    List<Part> first = null;
    for (double f : PROBES) {
      List<Part> parts = best((1 - f) * from + f * to).parts();
      if (parts.size() == size) {
        return parts;
      }
      first = first == null ? parts : first;
    }
    return first;
  }

  /** An evaluator that checks the work before each evaluation and counts them as progress. */
  final BreakpointSearch.Evaluator checked(BreakpointSearch.Evaluator evaluator) {
    java.util.concurrent.atomic.AtomicLong evaluations = new java.util.concurrent.atomic.AtomicLong();
    return p -> {
      work.check();
      Evaluation result = evaluator.evaluate(p);
      work.advanced(evaluations.incrementAndGet(), 0);
      return result;
    };
  }

  /**
   * An upper bound of the magnitude of gains, losses and the x·log2 x sums they come from:
   * total mass × (log2 of the cell count + |log2 of the total mass| + 1); 1 for an all-zero model
   * so that ties are still broken.
   */
  public final double scale() {
    return scale;
  }

  /** The tie tolerance: pIC differences below it count as equal (see the class comment). */
  public final double tolerance() {
    return tolerance;
  }

  private static double scaleOf(MicroscopicModel model) {
    double mass = 0;
    for (double v : model.values()) {
      mass += v;
    }
    if (mass == 0) {
      return 1;
    }
    if (Double.isInfinite(mass)) {
      throw new IllegalArgumentException(
          "the model's values add up beyond the largest double; divide them by a constant (no partition changes)");
    }
    double cells = (double) model.leaves() * model.slices();
    return mass * (Math.log(cells) / Math.log(2) + Math.abs(Math.log(mass) / Math.log(2)) + 1);
  }

  /**
   * Reserves, before allocating, what a computation will take ({@link HeapBudget#reserve}):
   * refused when the heap cannot hold it, or (503) while others running hold it.
   */
  static void requireHeap(long bytes, String what) {
    HeapBudget.reserve(bytes, what);
  }

  /** Index of interval [first, last] in a triangular array laid out by last slice. */
  static int interval(int first, int last) {
    return last * (last + 1) / 2 + first;
  }

  /** Number of intervals of the slices, refused beyond what one Java array can index. */
  static int intervalArrayLength(int slices) {
    long intervals = (long) slices * (slices + 1) / 2;
    if (intervals > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          slices + " slices make " + intervals + " intervals, more than one array can hold; use fewer slices");
    }
    return (int) intervals;
  }
}
