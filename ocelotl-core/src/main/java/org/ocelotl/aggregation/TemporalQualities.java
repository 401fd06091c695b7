package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.ocelotl.model.MicroscopicModel;

/**
 * Temporal aggregation: aggregates are intervals of slices over every producer, every
 * (leaf, event type) series is a component.
 *
 * <p>gain[a,b] = Σ_c S_c·log2 S_c − Σ_{cells} x·log2 x and loss = log2(b−a+1)·Σ_c S_c − gain.
 * The second sum and Σ S decompose over slices (running sums per row), the first does not: it
 * is the hot loop, |T|(|T|+1)/2 × |S|·|U| evaluations of x·log2 x, done once per row start a
 * with running component sums on a transposed primitive copy of the model's non-zero series,
 * rows in parallel.
 *
 * <p>Memory: 2 doubles per interval (16·|T|(|T|+1)/2 bytes) plus the copy, at most 8·|S|·|T|·|U| bytes;
 * an evaluation for one p is an O(|T|²) dynamic programme over the best prefix partition.
 */
final class TemporalQualities extends Qualities {
  private final int slices;
  private final double[] gain;
  private final double[] loss;

  TemporalQualities(MicroscopicModel model, Work work) {
    super(model, work);
    slices = model.slices();
    int components = model.leaves() * model.typeCount();
    int intervals = intervalArrayLength(slices);
    requireHeap(16L * intervals + 8L * components * slices,
        "temporal qualities of " + slices + " slices × " + components + " series (16·|T|(|T|+1)/2 + 8·|T|·|S|·|U| bytes)");
    gain = new double[intervals];
    loss = new double[intervals];
    double[] bySlice = liveSeriesBySlice(model);
    int series = bySlice.length / slices;
    double[] sliceMass = new double[slices];
    double[] sliceInfo = new double[slices];
    for (int t = 0; t < slices; t++) {
      for (int c = 0; c < series; c++) {
        double x = bySlice[t * series + c];
        sliceMass[t] += x;
        sliceInfo[t] += Log2.xlog2x(x);
      }
    }
    // Row a costs |T| − a intervals: rows a and |T|−1−a go together so every task weighs the same.
    int pairs = (slices + 1) / 2;
    java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
    IntStream.range(0, pairs).parallel().forEach(pair -> {
      work.check();
      fillRow(pair, bySlice, series, sliceMass, sliceInfo);
      if (slices - 1 - pair != pair) {
        fillRow(slices - 1 - pair, bySlice, series, sliceMass, sliceInfo);
      }
      work.advanced(done.incrementAndGet(), pairs);
    });
  }

  /**
   * The (leaf, type) series that are not all zero (the others add nothing to any quality, and
   * real models have many), as [slice][series] so that one slice of every series is contiguous.
   */
  private static double[] liveSeriesBySlice(MicroscopicModel model) {
    int slices = model.slices();
    int types = model.typeCount();
    int[] live = IntStream.range(0, model.leaves() * types).filter(c -> {
      for (int t = 0; t < slices; t++) {
        if (model.value(c / types, t, c % types) != 0) {
          return true;
        }
      }
      return false;
    }).toArray();
    double[] bySlice = new double[live.length * slices];
    for (int t = 0; t < slices; t++) {
      for (int c = 0; c < live.length; c++) {
        bySlice[t * live.length + c] = model.value(live[c] / types, t, live[c] % types);
      }
    }
    return bySlice;
  }

  private void fillRow(int first, double[] bySlice, int series, double[] sliceMass, double[] sliceInfo) {
    double[] sums = new double[series];
    double mass = 0;
    double info = 0;
    for (int last = first; last < slices; last++) {
      int base = last * series;
      // Branch-free on purpose: a test on zero values mispredicts on real, patchy data. A zero
      // sum gives 0·log2(MIN_NORMAL) = 0; a subnormal one is off by less than 1e-305. Two
      // accumulators halve the chain of dependent additions.
      double even = 0;
      double odd = 0;
      int c = 0;
      for (; c + 1 < series; c += 2) {
        double s0 = sums[c] + bySlice[base + c];
        double s1 = sums[c + 1] + bySlice[base + c + 1];
        sums[c] = s0;
        sums[c + 1] = s1;
        even += s0 * Log2.log2(Math.max(s0, Double.MIN_NORMAL));
        odd += s1 * Log2.log2(Math.max(s1, Double.MIN_NORMAL));
      }
      if (c < series) {
        double s0 = sums[c] + bySlice[base + c];
        sums[c] = s0;
        even += s0 * Log2.log2(Math.max(s0, Double.MIN_NORMAL));
      }
      double merged = even + odd;
      mass += sliceMass[last];
      info += sliceInfo[last];
      int k = interval(first, last);
      if (last > first) { // a single slice is one cell per component: gain = loss = 0 exactly
        double g = merged - info;
        double l = Log2.log2(last - first + 1) * mass - g;
        gain[k] = Math.max(0, g); // both are ≥ 0 in exact arithmetic; drop rounding noise
        loss[k] = Math.max(0, l);
      }
    }
  }

  @Override
  public Aggregation aggregation() {
    return Aggregation.TEMPORAL;
  }

  @Override
  Evaluation evaluate(double p, Evaluation below, Evaluation above) {
    return new Built(optimum(p));
  }

  private Partition optimum(double p) {
    double q = 1 - p;
    double penalty = tolerance();
    // best[j] = best pIC (minus penalties) of slices [0, j-1]
    double[] best = new double[slices + 1];
    for (int last = 0; last < slices; last++) {
      int base = interval(0, last);
      double max = Double.NEGATIVE_INFINITY;
      for (int first = 0; first <= last; first++) {
        double candidate = best[first] + (p * gain[base + first] - q * loss[base + first] - penalty);
        max = candidate > max ? candidate : max;
      }
      best[last + 1] = max;
    }
    return reconstruct(best, p, q, penalty);
  }

  // Recomputes each candidate with the same expression as optimum(): Java's floating point is
  // deterministic, so the maximum is found again by exact equality.
  private Partition reconstruct(double[] best, double p, double q, double penalty) {
    List<Part> parts = new ArrayList<>();
    double totalGain = 0;
    double totalLoss = 0;
    int last = slices - 1;
    while (last >= 0) {
      int base = interval(0, last);
      int first = 0;
      while (best[first] + (p * gain[base + first] - q * loss[base + first] - penalty) != best[last + 1]) {
        first++;
      }
      parts.add(new Part(0, first, last));
      totalGain += gain[base + first];
      totalLoss += loss[base + first];
      last = first - 1;
    }
    Collections.reverse(parts);
    return new Partition(parts, totalGain, totalLoss);
  }

  /** Gain of the aggregate [first, last] (for tests and views). */
  double gain(int first, int last) {
    return gain[interval(first, last)];
  }

  double loss(int first, int last) {
    return loss[interval(first, last)];
  }
}
