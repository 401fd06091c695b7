package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * SPEC.md §5 reference example: 5 slices, one producer, three types, vectors (3,6,7), (5,3,5),
 * (6,2,9), (1,2,7), (0,9,3). The original printed its bisection samples 0.035, 0.052, 0.078,
 * 0.223, each at most 2^-10 above the exact breakpoint.
 */
class ReferenceExampleTest {
  static final double[][] SLICES = {{3, 6, 7}, {5, 3, 5}, {6, 2, 9}, {1, 2, 7}, {0, 9, 3}};

  static MicroscopicModel model() {
    double[] values = new double[15];
    for (int t = 0; t < 5; t++) {
      System.arraycopy(SLICES[t], 0, values, t * 3, 3);
    }
    return new MicroscopicModel(ProducerTree.flat("root", List.of("p")), 5, List.of("a", "b", "c"), values);
  }

  @Test
  void fivePartitionsInOrder() {
    List<Breakpoint> breakpoints = Qualities.of(model(), Aggregation.TEMPORAL).breakpoints();
    List<String> expected = List.of("[0][1][2][3][4]", "[0][1-2][3][4]", "[0-2][3][4]", "[0-3][4]", "[0-4]");
    assertEquals(expected, breakpoints.stream().map(b -> show(b.partition())).toList());
  }

  @Test
  void breakpointsLieJustBelowTheOriginalSamples() {
    List<Breakpoint> breakpoints = Qualities.of(model(), Aggregation.TEMPORAL).breakpoints();
    double[] samples = {0, 0.035, 0.052, 0.078, 0.223};
    assertEquals(0.0, breakpoints.get(0).p());
    for (int k = 1; k < samples.length; k++) {
      double p = breakpoints.get(k).p();
      assertTrue(p < samples[k] && p > samples[k] - 1.0 / 1024, "breakpoint " + k + " at " + p);
    }
  }

  @Test
  void breakpointIsTheExactCrossingOfHandComputedLines() {
    // [0..3][4] vs [0..4]: per component, the gain of merging is S·log2 S − Σ x·log2 x.
    double gainAll = gain(0, 4);
    double lossAll = loss(0, 4);
    double gainFour = gain(0, 3);
    double lossFour = loss(0, 3);
    double crossing = (lossAll - lossFour) / ((gainAll + lossAll) - (gainFour + lossFour));
    List<Breakpoint> breakpoints = Qualities.of(model(), Aggregation.TEMPORAL).breakpoints();
    assertEquals(crossing, breakpoints.get(4).p(), 1e-12);
    assertEquals(gainAll, breakpoints.get(4).partition().gain(), 1e-9);
    assertEquals(lossAll, breakpoints.get(4).partition().loss(), 1e-9);
  }

  private static double gain(int first, int last) {
    double gain = 0;
    for (int u = 0; u < 3; u++) {
      double s = 0;
      double info = 0;
      for (int t = first; t <= last; t++) {
        s += SLICES[t][u];
        info += xlog2x(SLICES[t][u]);
      }
      gain += xlog2x(s) - info;
    }
    return gain;
  }

  private static double loss(int first, int last) {
    double mass = 0;
    for (int t = first; t <= last; t++) {
      for (double x : SLICES[t]) {
        mass += x;
      }
    }
    return mass * Math.log(last - first + 1) / Math.log(2) - gain(first, last);
  }

  private static double xlog2x(double x) {
    return x == 0 ? 0 : x * Math.log(x) / Math.log(2);
  }

  static String show(Partition partition) {
    StringBuilder text = new StringBuilder();
    for (Part part : partition.parts()) {
      text.append('[').append(part.first());
      if (part.last() > part.first()) {
        text.append('-').append(part.last());
      }
      text.append(']');
    }
    return text.toString();
  }
}
