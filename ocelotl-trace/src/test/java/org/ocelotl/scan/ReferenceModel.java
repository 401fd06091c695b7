package org.ocelotl.scan;

import org.ocelotl.model.Metric;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.trace.MemoryTrace;

/**
 * The cells of a model computed from a parsed trace by the definitions of SPEC.md §3, slice
 * by slice, with none of the scan's machinery (no chunks, no bands, no sliceOf): what the
 * builder is checked against. Producer and type mappings come from the plan (tested on their
 * own in ModelTreeTest and by the totals against pj_dump).
 */
final class ReferenceModel {
  private ReferenceModel() {}

  static double[] cells(MemoryTrace trace, ModelPlan plan) {
    SliceGrid grid = plan.grid();
    int n = grid.slices();
    double[] b = new double[n + 1];
    for (int k = 0; k <= n; k++) {
      b[k] = grid.boundary(k);
    }
    int types = plan.types();
    int[] leafOf = plan.tree().leafOf();
    int[] typeOf = plan.typeOf();
    double[] sums = new double[plan.leaves() * n * types];
    double[] touches = new double[sums.length];
    switch ((org.ocelotl.model.BuiltInMetric) plan.metric()) {
      case STATE_DURATION, STATE_AVERAGE -> {
        for (MemoryTrace.State s : trace.states) {
          int leaf = leafOf[s.producer()];
          int u = typeOf[s.type()];
          if (leaf < 0 || u < 0) {
            continue;
          }
          for (int k = 0; k < n; k++) {
            double overlap = Math.min(s.end(), b[k + 1]) - Math.max(s.start(), b[k]);
            boolean instant = s.start() == s.end() && b[k] <= s.start() && s.start() < b[k + 1];
            int cell = (leaf * n + k) * types + u;
            if (overlap > 0) {
              sums[cell] += overlap;
            }
            if (overlap > 0 || instant) {
              touches[cell] += 1;
            }
          }
        }
        if (plan.metric() == Metric.STATE_AVERAGE) {
          for (int c = 0; c < sums.length; c++) {
            sums[c] = touches[c] == 0 ? 0 : sums[c] / touches[c];
          }
        }
      }
      case EVENT_COUNT -> {
        for (MemoryTrace.Event e : trace.events) {
          count(sums, b, n, types, leafOf[e.producer()], typeOf[e.type()], e.time(), 1);
        }
      }
      case LINK_COUNT -> {
        for (MemoryTrace.Link l : trace.links) {
          count(sums, b, n, types, leafOf[l.from()], typeOf[l.type()], l.start(), 1);
        }
      }
      case LINK_VOLUME -> {
        for (MemoryTrace.Link l : trace.links) {
          if (!Double.isNaN(l.volume())) {
            count(sums, b, n, types, leafOf[l.from()], typeOf[l.type()], l.start(), l.volume());
          }
        }
      }
      case VARIABLE_MEAN -> {
        for (double[] step : steps(trace)) {
          int leaf = leafOf[(int) step[0]];
          int u = typeOf[(int) step[1]];
          if (leaf < 0 || u < 0) {
            continue;
          }
          for (int k = 0; k < n; k++) {
            double overlap = Math.min(step[3], b[k + 1]) - Math.max(step[2], b[k]);
            if (overlap > 0) {
              sums[(leaf * n + k) * types + u] += step[4] * overlap / (b[k + 1] - b[k]);
            }
          }
        }
      }
    }
    return sums;
  }

  private static void count(double[] sums, double[] b, int n, int types, int leaf, int u, double t, double weight) {
    if (leaf < 0 || u < 0) {
      return;
    }
    for (int k = 0; k < n; k++) {
      if (b[k] <= t && t < b[k + 1]) {
        sums[(leaf * n + k) * types + u] += weight;
      }
    }
  }

  /**
   * Variable steps {producer, type, from, to, value}: a value holds from its change until the
   * next change of the same variable, the last one until its producer is destroyed or the
   * trace ends.
   */
  static List<double[]> steps(MemoryTrace trace) {
    Map<Integer, Double> destroyed = new HashMap<>();
    for (double[] end : trace.producerEnds) {
      destroyed.put((int) end[0], end[1]);
    }
    Map<Long, List<MemoryTrace.Variable>> byVariable = new HashMap<>();
    for (MemoryTrace.Variable v : trace.variables) {
      byVariable.computeIfAbsent(((long) v.producer() << 32) | v.type(), key -> new ArrayList<>()).add(v);
    }
    List<double[]> steps = new ArrayList<>();
    for (List<MemoryTrace.Variable> changes : byVariable.values()) {
      for (int i = 0; i < changes.size(); i++) {
        MemoryTrace.Variable v = changes.get(i);
        double to = i + 1 < changes.size() ? changes.get(i + 1).time()
            : Math.min(destroyed.getOrDefault(v.producer(), trace.end), trace.end);
        steps.add(new double[] {v.producer(), v.type(), v.time(), Math.max(v.time(), to), v.value()});
      }
    }
    return steps;
  }
}
