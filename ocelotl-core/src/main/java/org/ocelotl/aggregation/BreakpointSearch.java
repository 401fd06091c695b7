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

  static List<Breakpoint> run(Qualities qualities, double tolerance) {
    Qualities.Evaluation first = qualities.evaluate(0, null, null);
    Qualities.Evaluation last = qualities.evaluate(1, null, null);
    List<Breakpoint> found = Collections.synchronizedList(new ArrayList<>());
    found.add(new Breakpoint(0, first.partition()));
    new Between(qualities, tolerance, 0, first, 1, last, found).invoke();
    List<Breakpoint> sorted = new ArrayList<>(found);
    sorted.sort(Comparator.comparingDouble(Breakpoint::p));
    return List.copyOf(sorted);
  }

  private static final class Between extends RecursiveAction {
    private final Qualities qualities;
    private final double tolerance;
    private final double pa;
    private final Qualities.Evaluation atA;
    private final Partition a;
    private final double pb;
    private final Qualities.Evaluation atB;
    private final Partition b;
    private final List<Breakpoint> found;

    Between(Qualities qualities, double tolerance, double pa, Qualities.Evaluation atA,
        double pb, Qualities.Evaluation atB, List<Breakpoint> found) {
      this.qualities = qualities;
      this.tolerance = tolerance;
      this.pa = pa;
      this.atA = atA;
      this.a = atA.partition();
      this.pb = pb;
      this.atB = atB;
      this.b = atB.partition();
      this.found = found;
    }

    @Override
    protected void compute() {
      if (sameLine(a, b)) {
        return;
      }
      double p = crossing();
      Qualities.Evaluation atC = qualities.evaluate(p, atA, atB);
      Partition c = atC.partition();
      boolean above = c.pic(p) > Math.max(a.pic(p), b.pic(p)) + tolerance;
      if (above && !sameLine(c, a) && !sameLine(c, b)) {
        invokeAll(new Between(qualities, tolerance, pa, atA, p, atC, found),
            new Between(qualities, tolerance, p, atC, pb, atB, found));
      } else {
        found.add(new Breakpoint(p, b));
      }
    }

    // Optimality of a at pa and b at pb puts the crossing in [pa, pb]; clamping only absorbs
    // rounding when the two lines are nearly parallel.
    private double crossing() {
      double slopes = (b.gain() + b.loss()) - (a.gain() + a.loss());
      double p = (b.loss() - a.loss()) / slopes;
      return slopes > 0 ? Math.min(pb, Math.max(pa, p)) : pb;
    }

    private boolean sameLine(Partition x, Partition y) {
      return Math.abs(x.gain() - y.gain()) <= tolerance && Math.abs(x.loss() - y.loss()) <= tolerance;
    }
  }
}
