package org.ocelotl.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.aggregation.Outliers;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.MicroscopicModel;

/**
 * Where OTHER departs most from BASE (docs/aggregation.md, "Comparing two runs"): the parts of the
 * difference overview and the cells they hide, on one scale, highest first.
 *
 * <p>The candidates are the parts with any departure and the cells they hide (as {@code ocelotl
 * outliers} finds them); each is scored on one scale ({@link #score}): a split score of decision
 * 027 on the difference model, per producer of the cell. A slowed host thus ranks above the
 * producers it makes wait and above its cabinet.
 */
public final class Differences {
  private Differences() {}

  /** Where a difference was found: a part of the difference overview, or a cell one hides. */
  public enum Kind { PART, HIDDEN }

  /**
   * One difference: the node's leaves over the slices [first, last].
   *
   * @param score     the information the aggregate it is compared with loses on it, per producer ({@link #score})
   * @param departure Σ |OTHER − BASE| over the cell's microscopic cells and types (its mass in the
   *                  difference model), in the metric's unit
   * @param type      the type (of {@link Difference#types}) whose total over the cell changed most (of
   *                  a gain and a loss as large, the gain)
   * @param baseShare that type's share of BASE's total over the cell (0 where BASE has nothing)
   * @param otherShare likewise in OTHER
   */
  public record Change(Kind kind, int node, int first, int last, double score, double departure, int type,
      double baseShare, double otherShare) {}

  /** The parts with any departure and the cells they hide, highest score first. */
  public static List<Change> of(Difference d, List<Part> parts, Work work) {
    MicroscopicModel model = d.model();
    int k = model.typeCount();
    double[][] columns = new double[model.slices()][];
    for (int s = 0; s < model.slices(); s++) {
      columns[s] = Difference.sums(model, 0, s, s);
    }
    double[] whole = sum(columns, 0, model.slices() - 1, k);
    List<Change> changes = new ArrayList<>();
    java.util.Set<Part> seen = new java.util.HashSet<>();
    for (Part part : parts) {
      double[] cell = Difference.sums(model, part.node(), part.first(), part.last());
      if (total(cell) > 0 && seen.add(part)) {
        changes.add(change(d, Kind.PART, part, cell, score(model, columns, whole, part, cell)));
      }
    }
    work.check();
    for (Outlier o : Outliers.of(model, parts, Aggregation.SPATIOTEMPORAL, work)) {
      Part cell = new Part(o.node(), o.first(), o.last());
      if (seen.add(cell)) {
        double[] sums = Difference.sums(model, cell.node(), cell.first(), cell.last());
        changes.add(change(d, Kind.HIDDEN, cell, sums, score(model, columns, whole, cell, sums)));
      }
    }
    changes.sort(Comparator.comparingDouble(Change::score).reversed());
    return changes;
  }

  /**
   * A cell's score: what the difference model loses on it, per producer of the cell. The loss is
   * a split score of decision 027, of one of its two kinds: a subtree's cell against every
   * producer over the same slices (who departs from the others then), a cell of every producer
   * against every producer over all the slices (when the departure is). Per producer: a cabinet
   * holds its slowed host's score and its waiting neighbours'; per producer, the host that departs
   * alone ranks above the cabinet, and a departure every producer shares is told once, not once per
   * producer.
   */
  static double score(MicroscopicModel model, double[][] columns, double[] whole, Part cell, double[] sums) {
    double[] stretch = sum(columns, cell.first(), cell.last(), whole.length);
    long band = (long) model.leaves() * cell.sliceCount();
    int leaves = model.tree().leafCount(cell.node());
    double split = cell.node() == 0 ? score(stretch, whole, band, (long) model.leaves() * model.slices())
        : score(sums, stretch, (long) leaves * cell.sliceCount(), band);
    return split / leaves;
  }

  /**
   * The split score of a cell of m microscopic cells with per-type sums {@code c} against an
   * aggregate of n with sums {@code s}: loss(A) − loss(C) − loss(A \ C), by the grouping property
   * of the Kullback-Leibler divergence Σ_u c_u·log2((c_u/S_u)/(m/n)) + r_u·log2((r_u/S_u)/((n−m)/n)).
   */
  static double score(double[] c, double[] s, long m, long n) {
    double score = 0;
    double inside = log2((double) n / m);
    double outside = m < n ? log2((double) n / (n - m)) : 0;
    for (int u = 0; u < c.length; u++) {
      if (s[u] <= 0) {
        continue;
      }
      // Clamped: c ≤ s in exact arithmetic; the sums are taken in another order.
      double cu = Math.min(c[u], s[u]);
      double ru = s[u] - cu;
      score += (cu > 0 ? cu * (log2(cu / s[u]) + inside) : 0) + (ru > 0 ? ru * (log2(ru / s[u]) + outside) : 0);
    }
    return Math.max(0, score);
  }

  private static Change change(Difference d, Kind kind, Part cell, double[] sums, double score) {
    int node = cell.node();
    int first = cell.first();
    int last = cell.last();
    double[] b = Difference.sums(d.base(), node, first, last);
    double[] o = Difference.sums(d.other(), node, first, last);
    // The largest change; where a gain and a loss are as large (a rank's time moved from one state to
    // another), the gain, which the overview's colour shows.
    int most = 0;
    for (int j = 1; j < b.length; j++) {
      double change = Math.abs(o[j] - b[j]);
      double largest = Math.abs(o[most] - b[most]);
      boolean tie = Math.abs(change - largest) <= 1e-9 * largest;
      most = tie ? (o[most] - b[most] >= 0 ? most : j) : change > largest ? j : most;
    }
    double bt = total(b);
    double ot = total(o);
    return new Change(kind, node, first, last, score, total(sums), most, bt > 0 ? b[most] / bt : 0,
        ot > 0 ? o[most] / ot : 0);
  }

  private static double[] sum(double[][] columns, int first, int last, int k) {
    double[] sums = new double[k];
    for (int s = first; s <= last; s++) {
      for (int u = 0; u < k; u++) {
        sums[u] += columns[s][u];
      }
    }
    return sums;
  }

  /** Exact to the last bit, not Log2's table: a few hundred scores, not a hot path. */
  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  private static double total(double[] sums) {
    double t = 0;
    for (double x : sums) {
      t += x;
    }
    return t;
  }
}
