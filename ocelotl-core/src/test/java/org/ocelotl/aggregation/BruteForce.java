package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The oracle: every allowed partition enumerated, each aggregate's gain and loss summed cell by
 * cell from SPEC.md §4 with Math.log, and the upper envelope of the partitions' pIC lines.
 */
final class BruteForce {
  /** A partition's pIC line: p ↦ p·gain − (1−p)·loss. */
  record Line(double gain, double loss, int parts) {
    double pic(double p) {
      return p * gain - (1 - p) * loss;
    }
  }

  record Change(double p, Line line) {}

  private final MicroscopicModel model;
  private final Aggregation aggregation;
  private final ProducerTree tree;
  private final Map<Part, double[]> qualities = new HashMap<>();

  BruteForce(MicroscopicModel model, Aggregation aggregation) {
    this.model = model;
    this.aggregation = aggregation;
    this.tree = model.tree();
  }

  /** gain and loss of one aggregate, straight from the definition. */
  double[] quality(Part part) {
    return qualities.computeIfAbsent(part, this::computeQuality);
  }

  private double[] computeQuality(Part part) {
    int first = tree.firstLeaf(part.node());
    int leaves = tree.leafCount(part.node());
    double gain = 0;
    double loss = 0;
    if (aggregation == Aggregation.TEMPORAL) {
      for (int leaf = 0; leaf < model.leaves(); leaf++) {
        for (int u = 0; u < model.typeCount(); u++) {
          double[] cells = new double[part.sliceCount()];
          for (int t = part.first(); t <= part.last(); t++) {
            cells[t - part.first()] = model.value(leaf, t, u);
          }
          double[] gl = component(cells);
          gain += gl[0];
          loss += gl[1];
        }
      }
    } else {
      for (int u = 0; u < model.typeCount(); u++) {
        List<Double> cells = new ArrayList<>();
        for (int leaf = first; leaf < first + leaves; leaf++) {
          if (aggregation == Aggregation.SPATIAL) {
            double sum = 0;
            for (int t = 0; t < model.slices(); t++) {
              sum += model.value(leaf, t, u);
            }
            cells.add(sum);
          } else {
            for (int t = part.first(); t <= part.last(); t++) {
              cells.add(model.value(leaf, t, u));
            }
          }
        }
        double[] gl = component(cells.stream().mapToDouble(Double::doubleValue).toArray());
        gain += gl[0];
        loss += gl[1];
      }
    }
    return new double[] {gain, loss};
  }

  /** gain = S·log2 S − Σ x·log2 x, loss = Σ x·log2(n·x/S). */
  private static double[] component(double[] cells) {
    double s = 0;
    for (double x : cells) {
      s += x;
    }
    if (s == 0) {
      return new double[2];
    }
    double info = 0;
    double loss = 0;
    for (double x : cells) {
      if (x > 0) {
        info += x * log2(x);
        loss += x * log2(cells.length * x / s);
      }
    }
    return new double[] {s * log2(s) - info, loss};
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** Every allowed partition, each as its parts. */
  Set<List<Part>> partitions() {
    int last = model.slices() - 1;
    return switch (aggregation) {
      case TEMPORAL -> temporal(last);
      case SPATIAL -> spatial(0, last);
      case SPATIOTEMPORAL -> spatiotemporal(0, 0, last, new HashMap<>());
    };
  }

  private Set<List<Part>> temporal(int last) {
    Set<List<Part>> result = new HashSet<>();
    int slices = last + 1;
    for (int cuts = 0; cuts < 1 << (slices - 1); cuts++) {
      List<Part> parts = new ArrayList<>();
      int start = 0;
      for (int t = 0; t < slices; t++) {
        if (t == slices - 1 || (cuts >> t & 1) == 1) {
          parts.add(new Part(0, start, t));
          start = t + 1;
        }
      }
      result.add(parts);
    }
    return result;
  }

  private Set<List<Part>> spatial(int node, int last) {
    Set<List<Part>> result = new HashSet<>();
    result.add(List.of(new Part(node, 0, last)));
    if (!tree.isLeaf(node)) {
      Set<List<Part>> combined = Set.of(List.of());
      for (int child : tree.children(node)) {
        combined = product(combined, spatial(child, last));
      }
      result.addAll(combined);
    }
    return result;
  }

  private Set<List<Part>> spatiotemporal(int node, int first, int last, Map<List<Integer>, Set<List<Part>>> memo) {
    List<Integer> key = List.of(node, first, last);
    Set<List<Part>> known = memo.get(key);
    if (known != null) {
      return known;
    }
    Set<List<Part>> result = new HashSet<>();
    result.add(List.of(new Part(node, first, last)));
    if (!tree.isLeaf(node)) {
      Set<List<Part>> combined = Set.of(List.of());
      for (int child : tree.children(node)) {
        combined = product(combined, spatiotemporal(child, first, last, memo));
      }
      result.addAll(combined);
    }
    for (int cut = first + 1; cut <= last; cut++) {
      result.addAll(product(spatiotemporal(node, first, cut - 1, memo), spatiotemporal(node, cut, last, memo)));
    }
    memo.put(key, result);
    return result;
  }

  private static Set<List<Part>> product(Set<List<Part>> left, Set<List<Part>> right) {
    Set<List<Part>> result = new HashSet<>();
    Comparator<Part> order = Comparator.comparingInt(Part::node).thenComparingInt(Part::first);
    for (List<Part> a : left) {
      for (List<Part> b : right) {
        List<Part> parts = new ArrayList<>(a);
        parts.addAll(b);
        parts.sort(order);
        result.add(List.copyOf(parts));
      }
    }
    return result;
  }

  Line line(List<Part> parts) {
    double gain = 0;
    double loss = 0;
    for (Part part : parts) {
      double[] q = quality(part);
      gain += q[0];
      loss += q[1];
    }
    return new Line(gain, loss, parts.size());
  }

  List<Line> lines() {
    return partitions().stream().map(this::line).toList();
  }

  static double maxPic(List<Line> lines, double p) {
    return lines.stream().mapToDouble(line -> line.pic(p)).max().orElseThrow();
  }

  /**
   * Where the optimum changes: from the optimum at p = 0 (fewest parts among those within
   * tolerance), repeatedly the first crossing by a steeper line; among lines crossing at the same
   * p, the steepest one (then the fewest parts) is optimal just after.
   */
  static List<Change> envelope(List<Line> lines, double tolerance) {
    List<Change> changes = new ArrayList<>();
    double top = maxPic(lines, 0);
    Line current = lines.stream().filter(l -> l.pic(0) >= top - tolerance)
        .min(Comparator.comparingInt(Line::parts).thenComparingDouble(l -> -l.gain())).orElseThrow();
    double p = 0;
    changes.add(new Change(0, current));
    while (true) {
      double next = Double.POSITIVE_INFINITY;
      Line nextLine = null;
      double slope = current.gain() + current.loss();
      for (Line line : lines) {
        double lineSlope = line.gain() + line.loss();
        if (lineSlope <= slope + tolerance) {
          continue;
        }
        double crossing = Math.max(p, (line.loss() - current.loss()) / (lineSlope - slope));
        boolean better = nextLine == null || crossing < next - 1e-12
            || (crossing <= next + 1e-12 && (lineSlope > nextLine.gain() + nextLine.loss() + tolerance
                || (lineSlope >= nextLine.gain() + nextLine.loss() - tolerance && line.parts() < nextLine.parts())));
        if (better) {
          next = crossing;
          nextLine = line;
        }
      }
      // a crossing at p = 1 itself is a change: at equal gain the coarser partition wins there
      if (nextLine == null || next > 1 + 1e-12) {
        return changes;
      }
      p = Math.min(next, 1);
      current = nextLine;
      changes.add(new Change(p, current));
    }
  }
}
