package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.RecursiveAction;
import java.util.function.DoubleFunction;

/**
 * The exact breakpoints of SPEC.md §5. The optimal pIC is the upper envelope of the lines
 * p ↦ p·(gain + loss) − loss of all partitions; knowing the optima A at pa and B at pb, their
 * lines cross at p*; if the optimum C at p* is strictly above that crossing, C is a new envelope
 * line and both sides are searched, else p* is where the optimum changes from A to B. K distinct
 * optima cost 2K − 1 evaluations; the two sides of a split are independent and run in parallel.
 */
final class BreakpointSearch {
  private BreakpointSearch() {}

  static List<Breakpoint> run(DoubleFunction<Partition> optimum, double tolerance) {
    Partition first = optimum.apply(0);
    Partition last = optimum.apply(1);
    List<Breakpoint> found = Collections.synchronizedList(new ArrayList<>());
    found.add(new Breakpoint(0, first));
    new Between(optimum, tolerance, 0, first, 1, last, found).invoke();
    List<Breakpoint> sorted = new ArrayList<>(found);
    sorted.sort(Comparator.comparingDouble(Breakpoint::p));
    return List.copyOf(sorted);
  }

  private static final class Between extends RecursiveAction {
    private final DoubleFunction<Partition> optimum;
    private final double tolerance;
    private final double pa;
    private final Partition a;
    private final double pb;
    private final Partition b;
    private final List<Breakpoint> found;

    Between(DoubleFunction<Partition> optimum, double tolerance,
        double pa, Partition a, double pb, Partition b, List<Breakpoint> found) {
      this.optimum = optimum;
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
      Partition c = optimum.apply(p);
      boolean above = c.pic(p) > Math.max(a.pic(p), b.pic(p)) + tolerance;
      if (above && !sameLine(c, a) && !sameLine(c, b)) {
        invokeAll(new Between(optimum, tolerance, pa, a, p, c, found),
            new Between(optimum, tolerance, p, c, pb, b, found));
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
