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
 * is the hot loop, done once per row start a with running component sums, rows in parallel.
 * Moving the end b of the interval by one slice changes S_c only for the series with a value
 * in slice b, so on a sparse model Σ_c S_c·log2 S_c is updated by those series' changes alone:
 * the loop visits the non-zero cells, |T|(|T|+1)/2 × (non-zero cells per slice) evaluations of
 * x·log2 x instead of × |S|·|U|. Real models are sparse (a rank runs two or three of its states
 * in a slice: 39 % of the bundled trace's cells at N = 1000 are non-zero, in the series that
 * are not all zero); a model with more than two thirds of those cells non-zero takes the dense
 * loop, which sums every series' term afresh.
 *
 * <p>Rounding of the sparse loop: each change is the difference of two stored terms, so the
 * changes of one series telescope to its final term and the running total carries one rounding
 * per change (ε·|change|), summed with a compensation (Knuth's two-sum); the error stays within
 * a few ε × Σ_c |S_c·log2 S_c|, the order of a plain sum of those terms.
 *
 * <p>Memory: 2 doubles per interval (16·|T|(|T|+1)/2 bytes) plus the non-zero cells (12 bytes
 * each) or the dense copy (8·|T| bytes per series that is not all zero), and the reach of each
 * row at 162 p's (648·|T| bytes); an evaluation for one p is a dynamic programme over the best
 * prefix partition, O(|T|²) at most, each row scanned only over the intervals that can be parts.
 */
final class TemporalQualities extends Qualities {
  private final int slices;
  private final double[] gain;
  private final double[] loss;
  /**
   * reach[g·|T| + last]: the first slice of the longest interval ending at last that can be a part
   * of an optimum at p = {@link #REACH_P}[g] or below (see {@link #reach}).
   */
  private final int[] reach;

  private TemporalQualities(TemporalQualities computed, Work work) {
    super(computed, work);
    slices = computed.slices;
    gain = computed.gain;
    loss = computed.loss;
    reach = computed.reach;
  }

  /** Its evaluations take no array beyond the qualities' own but a row's: nothing to reserve. */
  @Override
  public Qualities withWork(Work work) {
    return new TemporalQualities(this, work);
  }

  TemporalQualities(MicroscopicModel model, Work work) {
    super(model, work);
    slices = model.slices();
    int intervals = intervalArrayLength(slices);
    Series series = Series.of(model);
    long denseCells = (long) series.count * slices;
    // Visiting a non-zero cell costs more than adding a term in the dense loop (an index, a
    // stored term, scattered reads): on seeded uniform models the loops break even at 70 %
    // non-zero cells of the series left, the sparse one is 1.5× faster at 50 % and 2.5× at 30 %.
    // Real traces: 39 % (bundled, N = 1000), 53 % (large SimGrid trace, 1.4× faster).
    boolean sparse = 3 * series.nonZero <= 2 * denseCells;
    long copy = sparse ? 12L * series.nonZero : 8L * denseCells;
    requireHeap(16L * intervals + copy + 4L * REACH_P.length * slices, "temporal qualities of " + slices + " slices × "
        + series.count + " series, " + series.nonZero + " non-zero cells (16·|T|(|T|+1)/2 + "
        + (sparse ? "12·cells" : "8·|T|·series") + " + 648·|T| bytes)");
    gain = new double[intervals];
    loss = new double[intervals];
    double[] sliceMass = new double[slices];
    double[] sliceInfo = new double[slices];
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      for (int t = 0; t < slices; t++) {
        for (int u = 0; u < model.typeCount(); u++) {
          double x = model.value(leaf, t, u);
          sliceMass[t] += x;
          sliceInfo[t] += Log2.xlog2x(x);
        }
      }
    }
    Cells cells = sparse ? series.cells(model) : null;
    double[] bySlice = sparse ? null : series.bySlice(model);
    // Row a costs |T| − a intervals: rows a and |T|−1−a go together so every task weighs the same.
    int pairs = (slices + 1) / 2;
    java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
    IntStream.range(0, pairs).parallel().forEach(pair -> {
      work.check();
      double[] sums = new double[series.count];
      double[] terms = sparse ? new double[series.count] : null;
      for (int first : pair == slices - 1 - pair ? new int[] {pair} : new int[] {pair, slices - 1 - pair}) {
        java.util.Arrays.fill(sums, 0);
        if (sparse) {
          java.util.Arrays.fill(terms, 0);
          fillRow(first, cells, sums, terms, sliceMass, sliceInfo);
        } else {
          fillRow(first, bySlice, sums, sliceMass, sliceInfo);
        }
      }
      work.advanced(done.incrementAndGet(), pairs);
    });
    reach = reach();
  }

  /**
   * The p at which {@link #reach} is tabulated, 1 down to 2^-20 by factors of 2^(1/8), then 0: the
   * optima's breakpoints crowd at small p, where intervals that can be parts are short; a p
   * between two of them scans as far as the larger one, at most 9 % larger.
   */
  static final double[] REACH_P = new double[162];

  static {
    for (int g = 0; g < REACH_P.length - 1; g++) {
      REACH_P[g] = Math.pow(2, -g / 8.0);
    }
  }

  /**
   * An interval can be a part of an optimum at p only if it is at least the partition of its
   * slices into single slices, whose gain and loss are 0: p·gain − (1−p)·loss − τ ≥ −τ·n, i.e.
   * p ≥ (loss − τ·(n−1)) / (gain + loss). Below that by more than τ more — far above rounding —
   * replacing it by single slices gains at least τ, so the programme never picks it (nor on a
   * tie). So at p, row last needs only the first slices from the first whose bound
   * (loss − τ·n) / (gain + loss) is at most p: {@link #optimum} scans from there, and finds
   * exactly what the whole row gives. Tabulated at {@link #REACH_P}; a p between two of them uses
   * the larger one, whose reach is longer.
   */
  private int[] reach() {
    int grid = REACH_P.length;
    int[] reach = new int[grid * slices];
    double penalty = tolerance();
    IntStream.range(0, slices).parallel().forEach(last -> {
      int base = interval(0, last);
      int filled = 0; // REACH_P[0 .. filled) have their first slice: the smallest p's come last
      for (int first = 0; filled < grid; first++) { // a single slice (gain = loss = 0) fills them all
        double g = gain[base + first];
        double l = loss[base + first];
        double bound = (l - penalty * (last - first + 1)) / (g + l); // −∞ or NaN where gain + loss = 0
        while (filled < grid && !(bound > REACH_P[filled])) {
          reach[filled++ * slices + last] = first;
        }
      }
    });
    return reach;
  }

  /** The row of {@link #reach} to use at p: the smallest tabulated p at or above it. */
  private static int reachRow(double p) {
    int g = 0;
    while (g + 1 < REACH_P.length && REACH_P[g + 1] >= p) {
      g++;
    }
    return g;
  }

  /**
   * The model's (leaf, type) series that are not all zero (the others add nothing to any
   * quality, and real models have many), numbered densely: {@code number[leaf·types + type]},
   * −1 for an all-zero series; and how many cells of the numbered series are non-zero.
   */
  private record Series(int[] number, int count, long nonZero) {
    static Series of(MicroscopicModel model) {
      int slices = model.slices();
      int types = model.typeCount();
      int[] number = new int[model.leaves() * types];
      int count = 0;
      long nonZero = 0;
      for (int c = 0; c < number.length; c++) {
        int cells = 0;
        for (int t = 0; t < slices; t++) {
          cells += model.value(c / types, t, c % types) != 0 ? 1 : 0;
        }
        number[c] = cells > 0 ? count++ : -1;
        nonZero += cells;
      }
      return new Series(number, count, nonZero);
    }

    /** The non-zero cells, slice by slice. */
    Cells cells(MicroscopicModel model) {
      int slices = model.slices();
      int types = model.typeCount();
      int[] start = new int[slices + 1];
      int[] seriesOf = new int[Math.toIntExact(nonZero)];
      double[] value = new double[seriesOf.length];
      int k = 0;
      for (int t = 0; t < slices; t++) {
        start[t] = k;
        for (int c = 0; c < number.length; c++) {
          double x = model.value(c / types, t, c % types);
          if (x != 0) {
            seriesOf[k] = number[c];
            value[k++] = x;
          }
        }
      }
      start[slices] = k;
      return new Cells(start, seriesOf, value);
    }

    /** Every numbered series as [slice][series], so that one slice of every series is contiguous. */
    double[] bySlice(MicroscopicModel model) {
      int slices = model.slices();
      int types = model.typeCount();
      double[] bySlice = new double[count * slices];
      for (int t = 0; t < slices; t++) {
        for (int c = 0; c < number.length; c++) {
          if (number[c] >= 0) {
            bySlice[t * count + number[c]] = model.value(c / types, t, c % types);
          }
        }
      }
      return bySlice;
    }
  }

  /** Non-zero cells: those of slice t at [start[t], start[t+1]), with their series and value. */
  private record Cells(int[] start, int[] seriesOf, double[] value) {}

  /** Row {@code first} from every series' value in every slice: the dense loop. */
  private void fillRow(int first, double[] bySlice, double[] sums, double[] sliceMass, double[] sliceInfo) {
    int series = sums.length;
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
        even += s0 * Log2.log2(atLeastMinNormal(s0));
        odd += s1 * Log2.log2(atLeastMinNormal(s1));
      }
      if (c < series) {
        double s0 = sums[c] + bySlice[base + c];
        sums[c] = s0;
        even += s0 * Log2.log2(atLeastMinNormal(s0));
      }
      mass += sliceMass[last];
      info += sliceInfo[last];
      store(first, last, even + odd, info, mass);
    }
  }

  /** Row {@code first} from the non-zero cells and each series' last term: the sparse loop. */
  private void fillRow(int first, Cells cells, double[] sums, double[] terms, double[] sliceMass, double[] sliceInfo) {
    int[] start = cells.start;
    int[] seriesOf = cells.seriesOf;
    double[] value = cells.value;
    double merged = 0;
    double compensation = 0;
    double mass = 0;
    double info = 0;
    for (int last = first; last < slices; last++) {
      // Two accumulators halve the chain of dependent additions; the slice's total then joins
      // the running one through a two-sum (Knuth): total + error = merged + change exactly.
      double even = 0;
      double odd = 0;
      int k = start[last];
      int end = start[last + 1];
      for (; k + 1 < end; k += 2) {
        even += change(seriesOf[k], value[k], sums, terms);
        odd += change(seriesOf[k + 1], value[k + 1], sums, terms);
      }
      if (k < end) {
        even += change(seriesOf[k], value[k], sums, terms);
      }
      double change = even + odd;
      double total = merged + change;
      double back = total - merged;
      compensation += (merged - (total - back)) + (change - back);
      merged = total;
      mass += sliceMass[last];
      info += sliceInfo[last];
      store(first, last, merged + compensation, info, mass);
    }
  }

  /** gain and loss of [first, last] from Σ_c S_c·log2 S_c, Σ x·log2 x and Σ x over it. */
  private void store(int first, int last, double merged, double info, double mass) {
    if (last > first) { // a single slice is one cell per component: gain = loss = 0 exactly
      int at = interval(first, last);
      double g = merged - info;
      double l = Log2.log2(last - first + 1) * mass - g;
      gain[at] = Math.max(0, g); // both are ≥ 0 in exact arithmetic; drop rounding noise
      loss[at] = Math.max(0, l);
    }
  }

  private static final long MIN_NORMAL_BITS = Double.doubleToRawLongBits(Double.MIN_NORMAL);

  /**
   * max(s, MIN_NORMAL) without a branch and faster than {@link Math#max}, whose care for NaN and
   * −0.0 costs more here (JDK 17): the bits of non-negative doubles order as their values, and a
   * negative s (or −0.0) has the sign bit, a negative long.
   */
  private static double atLeastMinNormal(double s) {
    return Double.longBitsToDouble(Math.max(Double.doubleToRawLongBits(s), MIN_NORMAL_BITS));
  }

  /** Adds the value to series c's running sum and returns how much its S·log2 S changed. */
  private static double change(int c, double value, double[] sums, double[] terms) {
    double s = sums[c] + value;
    // A sum back at zero (values of both signs) gives 0·log2(MIN_NORMAL) = 0; a subnormal one is
    // off by less than 1e-305.
    double term = s * Log2.log2(atLeastMinNormal(s));
    double change = term - terms[c];
    sums[c] = s;
    terms[c] = term;
    return change;
  }

  @Override
  public Aggregation aggregation() {
    return Aggregation.TEMPORAL;
  }

  /**
   * The search on the envelopes of the suffixes from {@value #ENVELOPES_FROM} slices on, on the
   * programme below. Measured (CPU of the search alone, medians of 7–11 warm runs alternating the
   * two in one JVM, load 9–12; the large SimGrid trace, 128 ranks unless said): programme against
   * envelopes, 100 slices (13 optima) 0.4 against 1.2 ms, 300 (5) 0.5 against 3.5 ms, 1000 (352)
   * 32 against 48 ms, 256 ranks × 1000 (346) 27 against 33 ms, 1500 (713) 120 against 125 ms, 2000
   * (1,195) 0.72 against 0.26 s, 3000 (1,358) 3.85 against 0.72 s, 10 000 (4,632) about 90 against
   * 15 s. The envelopes' fixed costs (every interval's bounds, a few full programmes to find where
   * one part wins) outweigh the programme's runs until the optima are many and the rows long.
   */
  @Override
  List<Breakpoint> searchBreakpoints() {
    return slices >= ENVELOPES_FROM ? envelopeBreakpoints() : super.searchBreakpoints();
  }

  /** From this many slices on, the breakpoints are searched on envelopes (see {@link #searchBreakpoints()}). */
  static final int ENVELOPES_FROM = 1500;

  /**
   * Every optimum at once from the envelopes of the suffixes (see {@link Envelopes#Envelopes(int,
   * double[], double[], double, double, Evaluation, long, Work)}), then the search on them; the parts
   * of each breakpoint are built on first request by the programme.
   */
  List<Breakpoint> envelopeBreakpoints() {
    // the envelopes may take the heap that the computations running (this one's qualities and
    // reach included) have not reserved
    return envelopeBreakpoints(Math.min(HeapBudget.unreserved(),
        Runtime.getRuntime().maxMemory() - 16L * gain.length - 4L * reach.length));
  }

  /** As {@link #envelopeBreakpoints()}, the envelopes holding at most budget bytes. */
  List<Breakpoint> envelopeBreakpoints(long budget) {
    Evaluation whole = atOne();
    double limit = wholeFrom(whole);
    if (limit == 0) { // one part optimal from p = 0 on: a model with nothing to tell apart
      return List.of(new Breakpoint(0, whole.partition()));
    }
    Envelopes envelopes = new Envelopes(slices, gain, loss, tolerance(), limit, whole, budget, work());
    return withPartsOnDemand(BreakpointSearch.run(checked(envelopes::evaluate), tolerance()));
  }

  @Override
  Evaluation evaluate(double p) {
    return new Built(optimum(p));
  }

  private Partition optimum(double p) {
    double q = 1 - p;
    double penalty = tolerance();
    // best[j] = best pIC (minus penalties) of slices [0, j-1], reached with a last part
    // starting at from[j-1]: the smallest such start, so that ties resolve as they always have.
    double[] best = new double[slices + 1];
    int[] from = new int[slices];
    int reachBase = reachRow(p) * slices;
    for (int last = 0; last < slices; last++) {
      int base = interval(0, last);
      int first = reach[reachBase + last];
      // Four lanes break the chain of dependent comparisons; each keeps its first maximum
      // (strict >), and the lanes' maxima are merged preferring the smaller start on a tie.
      double max0 = Double.NEGATIVE_INFINITY;
      double max1 = Double.NEGATIVE_INFINITY;
      double max2 = Double.NEGATIVE_INFINITY;
      double max3 = Double.NEGATIVE_INFINITY;
      int at0 = 0;
      int at1 = 0;
      int at2 = 0;
      int at3 = 0;
      for (; first + 3 <= last; first += 4) {
        double c0 = best[first] + (p * gain[base + first] - q * loss[base + first] - penalty);
        double c1 = best[first + 1] + (p * gain[base + first + 1] - q * loss[base + first + 1] - penalty);
        double c2 = best[first + 2] + (p * gain[base + first + 2] - q * loss[base + first + 2] - penalty);
        double c3 = best[first + 3] + (p * gain[base + first + 3] - q * loss[base + first + 3] - penalty);
        at0 = c0 > max0 ? first : at0;
        max0 = c0 > max0 ? c0 : max0;
        at1 = c1 > max1 ? first + 1 : at1;
        max1 = c1 > max1 ? c1 : max1;
        at2 = c2 > max2 ? first + 2 : at2;
        max2 = c2 > max2 ? c2 : max2;
        at3 = c3 > max3 ? first + 3 : at3;
        max3 = c3 > max3 ? c3 : max3;
      }
      for (; first <= last; first++) {
        double candidate = best[first] + (p * gain[base + first] - q * loss[base + first] - penalty);
        at0 = candidate > max0 ? first : at0;
        max0 = candidate > max0 ? candidate : max0;
      }
      double max = max0;
      int at = at0;
      if (max1 > max || (max1 == max && at1 < at)) {
        max = max1;
        at = at1;
      }
      if (max2 > max || (max2 == max && at2 < at)) {
        max = max2;
        at = at2;
      }
      if (max3 > max || (max3 == max && at3 < at)) {
        max = max3;
        at = at3;
      }
      best[last + 1] = max;
      from[last] = at;
    }
    List<Part> parts = new ArrayList<>();
    double totalGain = 0;
    double totalLoss = 0;
    for (int last = slices - 1; last >= 0; last = from[last] - 1) {
      int k = interval(from[last], last);
      parts.add(new Part(0, from[last], last));
      totalGain += gain[k];
      totalLoss += loss[k];
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
