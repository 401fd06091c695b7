package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.RecursiveAction;

/**
 * The exact breakpoints of SPEC.md §5. The optimal pIC is the upper envelope of the lines
 * p ↦ p·(gain + loss) − loss of all partitions; knowing the optima A at pa and B at pb, their
 * lines cross at p*; if the optimum C at p* is strictly above that crossing, C is a new envelope
 * line and both sides are searched, else p* is where the optimum changes from A to B. K distinct
 * optima cost 2K − 1 evaluations; the two sides of a split are independent and run in parallel.
 */
final class BreakpointSearch {
  private BreakpointSearch() {}

  /** The search by the programme's evaluations: the reference the tests compare the envelopes with. */
  static List<Breakpoint> run(Qualities qualities, double tolerance) {
    return run(qualities::evaluate, tolerance);
  }

  /** The optimum at p. */
  interface Evaluator {
    Qualities.Evaluation evaluate(double p);
  }

  static List<Breakpoint> run(Evaluator qualities, double tolerance) {
    Qualities.Evaluation first = qualities.evaluate(0);
    Qualities.Evaluation last = qualities.evaluate(1);
    List<Breakpoint> found = Collections.synchronizedList(new ArrayList<>());
    found.add(new Breakpoint(0, first.partition()));
    new Between(qualities, tolerance, 0, first, 1, last, found).invoke();
    List<Breakpoint> sorted = new ArrayList<>(found);
    sorted.sort(Comparator.comparingDouble(Breakpoint::p));
    List<Breakpoint> kept = new ArrayList<>();
    for (int k = 0; k < sorted.size(); k++) {
      if (k + 1 == sorted.size() || sorted.get(k + 1).p() - sorted.get(k).p() > POINT) {
        kept.add(sorted.get(k));
      }
    }
    if (kept.get(0).p() != 0) { // what was dropped lived at 0 alone; its successor starts there
      kept.set(0, new Breakpoint(0, kept.get(0).partition()));
    }
    return List.copyOf(kept);
  }

  /**
   * A partition optimal on a range of p narrower than this is optimal at one point only (two
   * lines crossing where a third one ends, or equal pIC and parts at p = 0): it is dropped in
   * favour of the one that is optimal just after.
   */
  static final double POINT = 1e-12;

  private static final class Between extends RecursiveAction {
    private final Evaluator qualities;
    private final double tolerance;
    private final double pa;
    private final Qualities.Evaluation a;
    private final double pb;
    private final Qualities.Evaluation b;
    private final List<Breakpoint> found;

    Between(Evaluator qualities, double tolerance, double pa, Qualities.Evaluation a,
        double pb, Qualities.Evaluation b, List<Breakpoint> found) {
      this.qualities = qualities;
      this.tolerance = tolerance;
      this.pa = pa;
      this.a = a;
      this.pb = pb;
      this.b = b;
      this.found = found;
    }

    @Override
    protected void compute() {
      if (sameLine(a, b)) {
        return;
      }
      double p = crossing();
      Qualities.Evaluation c = qualities.evaluate(p);
      boolean above = c.pic(p) > Math.max(a.pic(p), b.pic(p)) + tolerance;
      if (above && !sameLine(c, a) && !sameLine(c, b)) {
        invokeAll(new Between(qualities, tolerance, pa, a, p, c, found),
            new Between(qualities, tolerance, p, c, pb, b, found));
      } else {
        found.add(new Breakpoint(p, b.partition()));
      }
    }

    // Optimality of a at pa and b at pb puts the crossing in [pa, pb]; clamping only absorbs
    // rounding when the two lines are nearly parallel.
    private double crossing() {
      double slopes = (b.gain() + b.loss()) - (a.gain() + a.loss());
      double p = (b.loss() - a.loss()) / slopes;
      return slopes > 0 ? Math.min(pb, Math.max(pa, p)) : pb;
    }

    private boolean sameLine(Qualities.Evaluation x, Qualities.Evaluation y) {
      return Math.abs(x.gain() - y.gain()) <= tolerance && Math.abs(x.loss() - y.loss()) <= tolerance;
    }
  }
}
