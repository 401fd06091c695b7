package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The temporal qualities (on sparse models, visiting only the non-zero cells), against
 * the formula computed afresh for every interval; and the dynamic programme, which runs four
 * lanes, against the plain one-lane programme, ties included.
 */
class TemporalQualitiesTest {
  @Test
  void everyIntervalMatchesTheFormulaOnSparseAndDenseModels() {
    Random random = new Random(18);
    for (int m = 0; m < 60; m++) {
      MicroscopicModel model = sparse(random, 1 + random.nextInt(8), 1 + random.nextInt(60), 1 + random.nextInt(5));
      TemporalQualities qualities = new TemporalQualities(model, Work.NONE);
      for (int first = 0; first < model.slices(); first++) {
        for (int last = first + 1; last < model.slices(); last++) {
          double[] expected = direct(model, first, last);
          String where = "model " + m + " [" + first + ", " + last + "]";
          assertEquals(expected[0], qualities.gain(first, last), 1e-12 * expected[2], where + " gain");
          assertEquals(expected[1], qualities.loss(first, last), 1e-12 * expected[2], where + " loss");
        }
      }
    }
  }

  @Test
  void fourLanesChooseThePartitionOneLaneChooses() {
    Random random = new Random(1818);
    for (int m = 0; m < 200; m++) {
      List<String> leaves = new ArrayList<>();
      for (int l = 0; l < 1 + random.nextInt(3); l++) {
        leaves.add("l" + l);
      }
      MicroscopicModel model = Models.randomModel(random, ProducerTree.flat("r", leaves), 1 + random.nextInt(40),
          1 + random.nextInt(3)); // ties: repeated slices, zero slices, few distinct values
      TemporalQualities qualities = new TemporalQualities(model, Work.NONE);
      for (int k = 0; k <= 20; k++) {
        double p = k / 20.0;
        assertEquals(oneLane(qualities, model.slices(), p), qualities.best(p).parts(), "model " + m + " p=" + p);
      }
    }
  }

  /**
   * The programme scans each row only from the first interval that can beat its single slices at
   * the tabulated p just above the asked one: the same partition as the whole row gives, on
   * trace-like models (many optima, long homogeneous phases), at every breakpoint, just around
   * every tabulated p, and at seeded random p.
   */
  @Test
  void rowsCutByTheirReachChooseWhatWholeRowsChoose() {
    Random random = new Random(2718);
    for (int m = 0; m < 12; m++) {
      List<String> leaves = new ArrayList<>();
      for (int l = 0; l < 2 + random.nextInt(6); l++) {
        leaves.add("l" + l);
      }
      MicroscopicModel model = Models.phasesModel(random, ProducerTree.flat("r", leaves), 60 + random.nextInt(140),
          1 + random.nextInt(4), 1 + random.nextInt(3));
      TemporalQualities qualities = new TemporalQualities(model, Work.NONE);
      List<Double> ps = new ArrayList<>();
      for (Breakpoint b : qualities.breakpoints()) {
        ps.add(b.p());
        ps.add(Math.max(0, Math.nextDown(b.p())));
      }
      for (double grid : TemporalQualities.REACH_P) {
        ps.add(grid);
        ps.add(Math.min(1, Math.nextUp(grid)));
        ps.add(Math.max(0, Math.nextDown(grid)));
      }
      for (int k = 0; k < 40; k++) {
        ps.add(Math.pow(random.nextDouble(), 4));
      }
      for (double p : ps) {
        assertEquals(oneLane(qualities, model.slices(), p), qualities.best(p).parts(), "model " + m + " p=" + p);
      }
    }
  }

  /**
   * Non-zero with a probability drawn per model (so both the sparse loop, at most half the cells
   * non-zero, and the dense one are taken), values spread over twelve orders of magnitude.
   */
  private static MicroscopicModel sparse(Random random, int leaves, int slices, int types) {
    double density = random.nextDouble();
    double[] values = new double[leaves * slices * types];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextDouble() < density ? Math.pow(10, random.nextInt(13) - 6) * random.nextDouble() : 0;
    }
    List<String> names = new ArrayList<>();
    for (int l = 0; l < leaves; l++) {
      names.add("l" + l);
    }
    List<String> typeNames = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      typeNames.add("u" + u);
    }
    return new MicroscopicModel(ProducerTree.flat("r", names), slices, typeNames, values);
  }

  /** {gain, loss, scale}: SPEC's formulas term by term, and the size of the terms summed. */
  private static double[] direct(MicroscopicModel model, int first, int last) {
    double merged = 0;
    double cells = 0;
    double mass = 0;
    double scale = 0;
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      for (int u = 0; u < model.typeCount(); u++) {
        double sum = 0;
        for (int t = first; t <= last; t++) {
          double x = model.value(leaf, t, u);
          sum += x;
          cells += xlog2x(x);
          scale += Math.abs(xlog2x(x));
        }
        merged += xlog2x(sum);
        mass += sum;
        scale += Math.abs(xlog2x(sum));
      }
    }
    double gain = merged - cells;
    double loss = Math.log(last - first + 1) / Math.log(2) * mass - gain;
    return new double[] {Math.max(0, gain), Math.max(0, loss), Math.max(scale + mass, Double.MIN_NORMAL)};
  }

  private static double xlog2x(double x) {
    return x == 0 ? 0 : x * Math.log(x) / Math.log(2);
  }

  /** The programme with one running maximum, each part's start found again from 0 (the smallest). */
  private static List<Part> oneLane(TemporalQualities q, int slices, double p) {
    double penalty = q.tolerance();
    double[] best = new double[slices + 1];
    for (int last = 0; last < slices; last++) {
      double max = Double.NEGATIVE_INFINITY;
      for (int first = 0; first <= last; first++) {
        max = Math.max(max, best[first] + (p * q.gain(first, last) - (1 - p) * q.loss(first, last) - penalty));
      }
      best[last + 1] = max;
    }
    List<Part> parts = new ArrayList<>();
    for (int last = slices - 1; last >= 0; ) {
      int first = 0;
      while (best[first] + (p * q.gain(first, last) - (1 - p) * q.loss(first, last) - penalty) != best[last + 1]) {
        first++;
      }
      parts.add(new Part(0, first, last));
      last = first - 1;
    }
    Collections.reverse(parts);
    return parts;
  }
}
