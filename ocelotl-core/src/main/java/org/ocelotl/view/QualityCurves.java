package org.ocelotl.view;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.aggregation.Breakpoint;

/**
 * Gain and loss of the optimal partition as step functions of p ∈ [0, 1], normalised by their
 * values at p = 1 (their maxima: both grow with p), with the breakpoints and the chosen p.
 *
 * @param gain        one step per breakpoint: [p_k, p_{k+1}) (up to 1 for the last), value
 *                    gain_k / gain(p = 1)
 * @param loss        the same for the loss
 * @param breakpoints p of every breakpoint, ascending
 * @param p           the chosen p
 * @param chosen      index of the breakpoint whose partition is optimal at p
 * @param gainAtOne   gain at p = 1 (the normaliser; 0 when nothing can be gained)
 * @param lossAtOne   loss at p = 1
 */
public record QualityCurves(List<Step> gain, List<Step> loss, List<Double> breakpoints,
    double p, int chosen, double gainAtOne, double lossAtOne) {
  /** A constant value over [from, to). */
  public record Step(double from, double to, double value) {}

  public QualityCurves {
    gain = List.copyOf(gain);
    loss = List.copyOf(loss);
    breakpoints = List.copyOf(breakpoints);
  }

  /**
   * @param breakpoints the search's output, p ascending, the first at p = 0
   * @param p           the chosen p ∈ [0, 1]
   */
  public static QualityCurves of(List<Breakpoint> breakpoints, double p) {
    if (breakpoints.isEmpty()) {
      throw new IllegalArgumentException("quality curves need at least one breakpoint");
    }
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("p must lie in [0, 1], got " + p);
    }
    for (int k = 1; k < breakpoints.size(); k++) {
      if (!(breakpoints.get(k).p() > breakpoints.get(k - 1).p())) {
        throw new IllegalArgumentException("breakpoints must have strictly ascending p; breakpoint "
            + k + " has p = " + breakpoints.get(k).p() + " after " + breakpoints.get(k - 1).p());
      }
    }
    Breakpoint last = breakpoints.get(breakpoints.size() - 1);
    double gainAtOne = last.partition().gain();
    double lossAtOne = last.partition().loss();
    List<Step> gain = new ArrayList<>();
    List<Step> loss = new ArrayList<>();
    List<Double> ps = new ArrayList<>();
    int chosen = 0;
    for (int k = 0; k < breakpoints.size(); k++) {
      Breakpoint b = breakpoints.get(k);
      double to = k + 1 < breakpoints.size() ? breakpoints.get(k + 1).p() : 1;
      gain.add(new Step(b.p(), to, Breakpoint.fraction(b.partition().gain(), gainAtOne)));
      loss.add(new Step(b.p(), to, Breakpoint.fraction(b.partition().loss(), lossAtOne)));
      ps.add(b.p());
      if (b.p() <= p) {
        chosen = k;
      }
    }
    return new QualityCurves(gain, loss, ps, p, chosen, gainAtOne, lossAtOne);
  }

  /** Normalised gain of the chosen partition (a fraction of the maximum gain). */
  public double chosenGain() {
    return gain.get(chosen).value();
  }

  /** Normalised loss of the chosen partition (a fraction of the maximum loss). */
  public double chosenLoss() {
    return loss.get(chosen).value();
  }
}
