package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * {@link Outliers} against its definition: every candidate cell of every part enumerated, its
 * score as loss(P) − loss(C) − loss(P \ C) and the gain given up as gain(P) − gain(C) − gain(P \ C),
 * both summed cell by cell with Math.log, then the local maxima, the p filter and the greedy
 * choice of disjoint cells done on the enumeration.
 */
class OutliersTest {
  /**
   * Four leaves under the root, six slices, two types; every cell (1, 1) except leaf 2 over slices
   * 2–3, which holds (3, 0). One part: the whole model. Leaf c over slices 2–3 is scored against
   * the part's node over the same slices: n = 8 cells, m = 2.
   */
  @Test
  void oneDeviationIsFirstWithItsScoreByHand() {
    ProducerTree tree = ProducerTree.flat("root", List.of("a", "b", "c", "d"));
    double[] values = new double[4 * 6 * 2];
    Arrays.fill(values, 1);
    for (int t = 2; t <= 3; t++) {
      values[(2 * 6 + t) * 2] = 3;
      values[(2 * 6 + t) * 2 + 1] = 0;
    }
    MicroscopicModel model = new MicroscopicModel(tree, 6, List.of("x", "y"), values);
    List<Outlier> found = Outliers.of(model, List.of(new Part(0, 0, 5)), Aggregation.SPATIOTEMPORAL, Work.NONE);
    // x: c = 6, r = 6, S = 12; y: c = 0, r = 6, S = 6; m/n = 2/8.
    double score = 6 * log2((6.0 / 12) / (2.0 / 8)) + 6 * log2((6.0 / 12) / (6.0 / 8)) + 6 * log2((6.0 / 6) / (6.0 / 8));
    double d = 6 * log2(8.0 / 2) + (6 + 6) * log2(8.0 / 6);
    Outlier first = found.get(0);
    assertEquals(List.of(0, 3, 2, 3), List.of(first.part(), first.node(), first.first(), first.last()), "" + found);
    assertEquals(score, first.score(), 1e-12);
    assertEquals(score / d, first.worthUpTo(), 1e-12);
    assertEquals(0, first.type());
    assertEquals(1.0, first.cellShare(), 1e-15);
    assertEquals(12.0 / 18, first.partShare(), 1e-15);
    for (Outlier other : found.subList(1, found.size())) {
      assertTrue(other.node() != 3 || other.last() < 2 || other.first() > 3, "overlaps the first: " + found);
    }
  }

  /**
   * A spatial view's cut: root › A › {a1, a2}, B › {b1, b2}, three slices, types x and y, every cell
   * (1, 1) but a1's at slice 1, (3, 0). Shown: A and B, at the time step of slice 1. In A, n = 2
   * cells, m = 1: x splits 3 | 1 of S = 4, y 0 | 1 of S = 1, so score = 3·log2((3/4)/(1/2)) +
   * 1·log2((1/4)/(1/2)) + 1·log2((1/1)/(1/2)) = 3·log2 1.5; D = 3·log2 2 + 2·log2 2 = 5. Its largest
   * term is y's (1, against x's 3·log2 3 − 4): a1 has none of it, the aggregate 1/5. a2 is the rest
   * of the same split, listed once; b1 and b2 alike hide nothing.
   */
  @Test
  void aSpatialViewsShownNodesHideTheirDepartingSubtrees() {
    ProducerTree tree = new ProducerTree(new String[] {"root", "A", "B", "a1", "a2", "b1", "b2"},
        new int[] {-1, 0, 0, 1, 1, 2, 2});
    double[] values = new double[4 * 3 * 2];
    Arrays.fill(values, 1);
    values[(0 * 3 + 1) * 2] = 3;
    values[(0 * 3 + 1) * 2 + 1] = 0;
    MicroscopicModel model = new MicroscopicModel(tree, 3, List.of("x", "y"), values);
    boolean[] shown = {false, true, true, false, false, false, false};
    assertEquals(List.of(new Part(1, 1, 1), new Part(2, 1, 1)), Outliers.shownParts(tree, shown, 1, 1));
    List<Outlier> found = Outliers.of(model, Outliers.shownParts(tree, shown, 1, 1), Aggregation.SPATIAL, Work.NONE);
    assertEquals(1, found.size(), "" + found);
    Outlier a1 = found.get(0);
    assertEquals(List.of(0, 3, 1, 1, 1), List.of(a1.part(), a1.node(), a1.first(), a1.last(), a1.type()));
    assertEquals(3 * log2(1.5), a1.score(), 1e-12);
    assertEquals(3 * log2(1.5) / 5, a1.worthUpTo(), 1e-12);
    assertEquals(0.0, a1.cellShare());
    assertEquals(0.2, a1.partShare(), 1e-15);
    // The root shown, over the window: a1 (x 5 of 14, y 2 of 11, one leaf of four) scores 0.782; A
    // (8 of 14, 5 of 11, two of four) 0.272 is not listed, as it holds a1, but its rest B, apart
    // from a1, is; then a2, which meets neither.
    boolean[] root = {true, false, false, false, false, false, false};
    List<Outlier> whole = Outliers.of(model, Outliers.shownParts(tree, root, 0, 2), Aggregation.SPATIAL, Work.NONE);
    assertEquals(List.of(3, 2, 4), whole.stream().map(Outlier::node).toList(), "" + whole);
    assertEquals(5 * log2((5.0 / 14) / 0.25) + 9 * log2((9.0 / 14) / 0.75) + 2 * log2((2.0 / 11) / 0.25)
        + 9 * log2((9.0 / 11) / 0.75), whole.get(0).score(), 1e-12);
    assertEquals(8 * log2((8.0 / 14) / 0.5) + 6 * log2((6.0 / 14) / 0.5) + 5 * log2((5.0 / 11) / 0.5)
        + 6 * log2((6.0 / 11) / 0.5), whole.get(1).score(), 1e-12);
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void outliersAreTheEnumeratedOnes(Aggregation aggregation) {
    Random random = new Random(29);
    for (int m = 0; m < 150; m++) {
      long seed = random.nextLong();
      Random draw = new Random(seed);
      ProducerTree tree = Models.randomTree(draw, 1 + draw.nextInt(9));
      MicroscopicModel model = model(draw, tree, 1 + draw.nextInt(7), 1 + draw.nextInt(3));
      Qualities qualities = Qualities.of(model, aggregation);
      for (double p : new double[] {0, 0.02 + 0.2 * draw.nextDouble(), 1, draw.nextDouble()}) {
        List<Part> parts = draw.nextInt(4) == 0 ? qualities.best(1).parts() : qualities.best(p).parts();
        assertEnumerated(model, parts, aggregation, aggregation + " seed " + seed + " p " + p + " parts " + parts);
      }
    }
  }

  /**
   * Ties: values from a small palette with copied slices and leaves (Models.randomModel), so that
   * many cells score the same and the order's later keys (fewer cells, part, node, first, last)
   * decide — as on real traces, where every score below half a step is 0 steps.
   */
  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void tiesAreOrderedAsTheEnumeration(Aggregation aggregation) {
    Random random = new Random(56);
    for (int m = 0; m < 100; m++) {
      long seed = random.nextLong();
      Random draw = new Random(seed);
      ProducerTree tree = Models.randomTree(draw, 2 + draw.nextInt(12));
      MicroscopicModel model = Models.randomModel(draw, tree, 1 + draw.nextInt(8), 1 + draw.nextInt(3));
      Qualities qualities = Qualities.of(model, aggregation);
      for (double p : new double[] {0.02 + 0.2 * draw.nextDouble(), 1}) {
        List<Part> parts = qualities.best(p).parts();
        assertEnumerated(model, parts, aggregation, aggregation + " seed " + seed + " p " + p + " parts " + parts);
      }
    }
  }

  /**
   * Parts of more than 64 slices (the greedy choice's slices of kept cells span several 64-bit
   * words): the root over a long stretch and over the rest, and each child of the root over a
   * third stretch when there is one. Values above 0: over a slice where a stretch is all zero, a
   * subtree cell and the same cell one slice longer score the same, and which of the two is the
   * local maximum is then rounding's choice (with zero values, seed -5068527438788806346 drew
   * such a model, all zero over slices 23, 35, 37, 39 and 51, on which the enumeration and
   * Outliers.of keep different ends).
   */
  @Test
  void partsOfMoreThan64SlicesAreAsTheEnumeration() {
    Random random = new Random(64);
    for (int m = 0; m < 4; m++) {
      long seed = random.nextLong();
      Random draw = new Random(seed);
      ProducerTree tree = Models.randomTree(draw, 3 + draw.nextInt(4));
      int slices = 66 + draw.nextInt(12);
      int types = 1 + draw.nextInt(2);
      double[] values = new double[tree.leafCount() * slices * types];
      for (int i = 0; i < values.length; i++) {
        values[i] = 0.5 + draw.nextDouble() * 10;
      }
      MicroscopicModel model = new MicroscopicModel(tree, slices, types == 1 ? List.of("u0") : List.of("u0", "u1"), values);
      int end = 65 + draw.nextInt(slices - 66);
      List<Part> parts = new ArrayList<>(List.of(new Part(0, 0, end), new Part(0, end + 1, slices - 1)));
      if (end + 2 < slices) {
        parts.set(1, new Part(0, end + 1, end + 1));
        for (int child : tree.children(0)) {
          parts.add(new Part(child, end + 2, slices - 1));
        }
      }
      assertEnumerated(model, parts, Aggregation.SPATIOTEMPORAL, "seed " + seed + " parts " + parts);
    }
  }

  /** Outliers.of as the definition's enumeration: the same cells in the same order, the same figures. */
  private static void assertEnumerated(MicroscopicModel model, List<Part> parts, Aggregation aggregation, String where) {
    List<Outlier> expected = enumerated(model, parts, aggregation);
    List<Outlier> actual = Outliers.of(model, parts, aggregation, Work.NONE);
    assertEquals(expected.size(), actual.size(), where + "\nexpected " + expected + "\nactual " + actual);
    for (int k = 0; k < expected.size(); k++) {
      Outlier e = expected.get(k);
      Outlier a = actual.get(k);
      String at = where + " rank " + k + "\nexpected " + e + "\nactual " + a;
      assertEquals(List.of(e.part(), e.node(), e.first(), e.last(), e.type()),
          List.of(a.part(), a.node(), a.first(), a.last(), a.type()), at);
      assertEquals(e.score(), a.score(), 1e-9 * (1 + e.score()), at);
      assertEquals(e.worthUpTo(), a.worthUpTo(), 1e-9, at);
      assertEquals(e.cellShare(), a.cellShare(), 1e-12, at);
      assertEquals(e.partShare(), a.partShare(), 1e-12, at);
    }
  }

  /** Values drawn from a continuous range (no ties among scores), with zero cells and zero leaves. */
  private static MicroscopicModel model(Random random, ProducerTree tree, int slices, int types) {
    double[] values = new double[tree.leafCount() * slices * types];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextInt(5) == 0 ? 0 : random.nextDouble() * 10;
    }
    List<String> names = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      names.add("u" + u);
    }
    return new MicroscopicModel(tree, slices, names, values);
  }

  private record Scored(int part, int node, int first, int last, double score, double split) {}

  /** The definition on the enumeration of every candidate. */
  private static List<Outlier> enumerated(MicroscopicModel model, List<Part> parts, Aggregation aggregation) {
    ProducerTree tree = model.tree();
    List<Scored> hidden = new ArrayList<>();
    for (int k = 0; k < parts.size(); k++) {
      Part part = parts.get(k);
      double mass = sum(model, part.node(), part.first(), part.last(), -1);
      double cells = (double) tree.leafCount(part.node()) * part.sliceCount();
      double floor = mass == 0 ? 0 : 1e-12 * mass * (log2(cells) + Math.abs(log2(mass)) + 1);
      for (int g = 0; g < tree.size(); g++) {
        if (!inside(tree, g, part.node())) {
          continue;
        }
        List<Scored> all = new ArrayList<>();
        for (int a = part.first(); a <= part.last(); a++) {
          for (int b = a; b <= part.last(); b++) {
            boolean whole = a == part.first() && b == part.last();
            if (aggregation == Aggregation.SPATIOTEMPORAL || whole) {
              // a stretch against the part, a subtree against the part's node over its slices
              Part against = g == part.node() ? part : new Part(part.node(), a, b);
              double[] split = split(model, against, g, a, b);
              all.add(new Scored(k, g, a, b, split[0], split[1]));
            }
          }
        }
        for (Scored s : all) {
          boolean local = all.stream().filter(o -> neighbours(o, s)).allMatch(o -> o.score <= s.score);
          if (local && s.score > floor) {
            hidden.add(s);
          }
        }
      }
    }
    double mass = sum(model, 0, 0, model.slices() - 1, -1);
    double step = 1e-9 * (mass == 0 ? 1 : mass * (log2((double) model.leaves() * model.slices()) + Math.abs(log2(mass)) + 1));
    hidden.sort(Comparator.comparingDouble((Scored s) -> -Math.rint(s.score / step))
        .thenComparingInt(s -> cells(tree, s)).thenComparingInt(Scored::part).thenComparingInt(Scored::node)
        .thenComparingInt(Scored::first).thenComparingInt(Scored::last));
    // A subtree cell explained by a cell of a node below it that meets it with at least half its
    // score: the explaining cell with the highest score (the first on a tie), followed to the end
    // of the chain, moves up to just before the first cell it explains.
    List<Scored> order = new ArrayList<>(hidden);
    int[] anchor = new int[hidden.size()];
    for (int i = 0; i < hidden.size(); i++) {
      anchor[i] = anchorOf(tree, parts, hidden, i, step);
    }
    double[] key = new double[hidden.size()];
    for (int i = 0; i < hidden.size(); i++) {
      key[i] = i + 0.5;
      for (int j = 0; j < i; j++) {
        if (anchor[j] == i) {
          key[i] = j;
          break;
        }
      }
    }
    order.sort(Comparator.comparingDouble(s -> key[hidden.indexOf(s)]));
    List<Outlier> kept = new ArrayList<>();
    List<Scored> taken = new ArrayList<>();
    for (Scored s : order) {
      if (taken.stream().filter(t -> t.part == s.part && stretch(parts, t) == stretch(parts, s))
          .noneMatch(t -> overlap(tree, t, s)
              ? stretch(parts, s) || !(inside(tree, s, t) && within(model, s, t) >= s.score / 2)
              : complements(tree, parts.get(s.part), t, s))) {
        taken.add(s);
        kept.add(outlier(model, parts.get(s.part), s));
      }
    }
    return kept;
  }

  /** The end of the chain of explaining cells from hidden[i] (i itself when nothing explains it). */
  private static int anchorOf(ProducerTree tree, List<Part> parts, List<Scored> hidden, int i, double step) {
    Scored s = hidden.get(i);
    if (stretch(parts, s)) {
      return i;
    }
    int best = -1;
    for (int j = 0; j < hidden.size(); j++) {
      Scored t = hidden.get(j);
      if (t.part == s.part && !stretch(parts, t) && tree.leafCount(t.node) < tree.leafCount(s.node) && inside(tree, t.node, s.node)
          && t.first <= s.last && s.first <= t.last && t.score >= s.score / 2
          && (best < 0 || Math.rint(t.score / step) > Math.rint(hidden.get(best).score / step))) {
        best = j; // in order: on a tie (in the order's steps) the first stays
      }
    }
    return best < 0 ? i : anchorOf(tree, parts, hidden, best, step);
  }

  private static boolean neighbours(Scored o, Scored s) {
    return Math.abs(o.first - s.first) + Math.abs(o.last - s.last) == 1;
  }

  private static boolean overlap(ProducerTree tree, Scored x, Scored y) {
    return x.first <= y.last && y.first <= x.last && (inside(tree, x.node, y.node) || inside(tree, y.node, x.node));
  }

  /** Every cell of s in t: its leaves among t's (a node of a one-child chain is the same cells as its child) and slices. */
  private static boolean inside(ProducerTree tree, Scored s, Scored t) {
    return tree.firstLeaf(t.node) <= tree.firstLeaf(s.node)
        && tree.firstLeaf(s.node) + tree.leafCount(s.node) <= tree.firstLeaf(t.node) + tree.leafCount(t.node)
        && t.first <= s.first && s.last <= t.last;
  }

  /** loss(T) − loss(S) − loss(T \ S) for S inside T, cell by cell. */
  private static double within(MicroscopicModel model, Scored s, Scored t) {
    return split(model, new Part(t.node, t.first, t.last), s.node, s.first, s.last)[0];
  }

  private static boolean stretch(List<Part> parts, Scored s) {
    return s.node == parts.get(s.part).node();
  }

  /** Two disjoint cells that make up between them the aggregate they are scored against: one split, told once. */
  private static boolean complements(ProducerTree tree, Part part, Scored x, Scored y) {
    if (x.node == part.node()) {
      return cells(tree, x) + cells(tree, y) == tree.leafCount(part.node()) * part.sliceCount();
    }
    return x.first == y.first && x.last == y.last
        && tree.leafCount(x.node) + tree.leafCount(y.node) == tree.leafCount(part.node());
  }

  private static int cells(ProducerTree tree, Scored s) {
    return tree.leafCount(s.node) * (s.last - s.first + 1);
  }

  private static boolean inside(ProducerTree tree, int node, int ancestor) {
    for (int n = node; n >= 0; n = tree.parent(n)) {
      if (n == ancestor) {
        return true;
      }
    }
    return false;
  }

  /** {loss(P) − loss(C) − loss(R), gain(P) − gain(C) − gain(R)} over the types, cell by cell. */
  private static double[] split(MicroscopicModel model, Part part, int g, int a, int b) {
    ProducerTree tree = model.tree();
    double loss = 0;
    double gain = 0;
    for (int u = 0; u < model.typeCount(); u++) {
      List<Double> whole = new ArrayList<>();
      List<Double> cell = new ArrayList<>();
      List<Double> rest = new ArrayList<>();
      int h = part.node();
      for (int leaf = tree.firstLeaf(h); leaf < tree.firstLeaf(h) + tree.leafCount(h); leaf++) {
        boolean under = leaf >= tree.firstLeaf(g) && leaf < tree.firstLeaf(g) + tree.leafCount(g);
        for (int t = part.first(); t <= part.last(); t++) {
          double x = model.value(leaf, t, u);
          whole.add(x);
          (under && t >= a && t <= b ? cell : rest).add(x);
        }
      }
      double[] p = quality(whole);
      double[] c = quality(cell);
      double[] r = quality(rest);
      gain += p[0] - c[0] - r[0];
      loss += p[1] - c[1] - r[1];
    }
    return new double[] {Math.max(0, loss), gain};
  }

  /** {gain, loss} of one component over a set of cells (SPEC.md §4); zeros for no cell. */
  private static double[] quality(List<Double> cells) {
    double s = cells.stream().mapToDouble(Double::doubleValue).sum();
    if (s == 0) {
      return new double[2];
    }
    double info = 0;
    double loss = 0;
    for (double x : cells) {
      if (x > 0) {
        info += x * log2(x);
        loss += x * log2(cells.size() * x / s);
      }
    }
    return new double[] {s * log2(s) - info, loss};
  }

  private static Outlier outlier(MicroscopicModel model, Part of, Scored s) {
    Part part = s.node == of.node() ? of : new Part(of.node(), s.first, s.last);
    double cellTotal = sum(model, s.node, s.first, s.last, -1);
    double partTotal = sum(model, part.node(), part.first(), part.last(), -1);
    int best = 0;
    double largest = -1; // every term is ≥ 0
    ProducerTree tree = model.tree();
    double n = (double) tree.leafCount(part.node()) * part.sliceCount();
    double m = (double) tree.leafCount(s.node) * (s.last - s.first + 1);
    for (int u = 0; u < model.typeCount(); u++) {
      double c = sum(model, s.node, s.first, s.last, u);
      double total = sum(model, part.node(), part.first(), part.last(), u);
      double r = total - c;
      double term = (c > 0 ? c * log2((c / total) / (m / n)) : 0) + (r > 0 ? r * log2((r / total) / ((n - m) / n)) : 0);
      if (term > largest + 1e-9 * (1 + Math.abs(largest))) {
        largest = term;
        best = u;
      }
    }
    return new Outlier(s.part, s.node, s.first, s.last, s.score, s.score / (s.score + s.split), best,
        cellTotal > 0 ? sum(model, s.node, s.first, s.last, best) / cellTotal : 0,
        sum(model, part.node(), part.first(), part.last(), best) / partTotal);
  }

  /** Values of the node's leaves over the slices, of type u (every type when u &lt; 0). */
  private static double sum(MicroscopicModel model, int node, int first, int last, int u) {
    ProducerTree tree = model.tree();
    double total = 0;
    for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
      for (int t = first; t <= last; t++) {
        for (int v = 0; v < model.typeCount(); v++) {
          if (u < 0 || v == u) {
            total += model.value(leaf, t, v);
          }
        }
      }
    }
    return total;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
