package org.ocelotl.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.ViewKind;

/**
 * Hand-made traces for pictures: a 10 s run cut in 40 slices, four MPI-like state types, an
 * initialisation phase (slices 0-9), then computation, during which one group of producers
 * mostly waits over slices 22-29. Values are seconds of each state per slice (0.25 s), with a
 * little seeded noise.
 *
 * <p>Partitions are written by hand (the optimiser is not used here); their gain and loss are
 * computed with the formulas of SPEC.md §4 and the breakpoints are where consecutive candidate
 * partitions' pIC lines cross, so the quality curves are those of these candidates.
 */
final class DemoTrace {
  static final List<String> TYPES = List.of("Compute", "MPI_Send", "MPI_Recv", "MPI_Wait");
  static final int SLICES = 40;
  static final TimeWindow WINDOW = new TimeWindow(0, 10, "s");
  static final double SLICE = 0.25;
  static final long SEED = 7;

  private DemoTrace() {}

  /** root › m0..m3 › t0..t3: 16 leaves, m2 perturbed. */
  static ProducerTree smallTree() {
    List<String> names = new ArrayList<>(List.of("cluster"));
    List<Integer> parents = new ArrayList<>(List.of(-1));
    for (int m = 0; m < 4; m++) {
      int machine = names.size();
      names.add("m" + m);
      parents.add(0);
      for (int t = 0; t < 4; t++) {
        names.add("m" + m + ".t" + t);
        parents.add(machine);
      }
    }
    return tree(names, parents);
  }

  /** root › c0..c7 › n00..n31: 256 leaves, too many to draw one by one in a few hundred pixels. */
  static ProducerTree bigTree() {
    List<String> names = new ArrayList<>(List.of("grid"));
    List<Integer> parents = new ArrayList<>(List.of(-1));
    for (int c = 0; c < 8; c++) {
      int cluster = names.size();
      names.add("c" + c);
      parents.add(0);
      for (int n = 0; n < 32; n++) {
        names.add("c" + c + ".n" + n);
        parents.add(cluster);
      }
    }
    return tree(names, parents);
  }

  private static ProducerTree tree(List<String> names, List<Integer> parents) {
    return new ProducerTree(names.toArray(String[]::new), parents.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * Shares of the four types per slice for a leaf: {@code waiting} leaves wait in 22-29,
   * {@code sending} leaves send then.
   */
  static MicroscopicModel model(ProducerTree tree, java.util.function.IntPredicate waiting,
      java.util.function.IntPredicate sending) {
    Random random = new Random(SEED);
    double[] values = new double[tree.leafCount() * SLICES * TYPES.size()];
    for (int s = 0; s < tree.leafCount(); s++) {
      for (int t = 0; t < SLICES; t++) {
        double[] shares;
        if (t < 10) {
          shares = new double[] {0.3, 0.3, 0.3, 0.1};
        } else if (t >= 22 && t <= 29 && waiting.test(s)) {
          shares = new double[] {0.15, 0.05, 0.05, 0.75};
        } else if (t >= 22 && t <= 29 && sending.test(s)) {
          shares = new double[] {0.15, 0.7, 0.05, 0.1};
        } else {
          shares = new double[] {0.8, 0.05, 0.05, 0.1};
        }
        for (int u = 0; u < shares.length; u++) {
          values[(s * SLICES + t) * TYPES.size() + u] = SLICE * shares[u] * (0.95 + 0.1 * random.nextDouble());
        }
      }
    }
    return new MicroscopicModel(tree, SLICES, TYPES, values);
  }

  static MicroscopicModel smallModel() {
    return model(smallTree(), s -> s >= 8 && s < 12, s -> false);
  }

  // ---- partitions -------------------------------------------------------------------------

  static List<Part> temporal(int... starts) {
    List<Part> parts = new ArrayList<>();
    for (int k = 0; k < starts.length; k++) {
      parts.add(new Part(0, starts[k], k + 1 < starts.length ? starts[k + 1] - 1 : SLICES - 1));
    }
    return parts;
  }

  static List<Part> finest(ProducerTree tree, boolean spatiotemporal) {
    List<Part> parts = new ArrayList<>();
    for (int t = 0; t < SLICES; t++) {
      if (spatiotemporal) {
        for (int s = 0; s < tree.leafCount(); s++) {
          parts.add(new Part(tree.leafNode(s), t, t));
        }
      } else {
        parts.add(new Part(0, t, t));
      }
    }
    return parts;
  }

  /** A partition with its gain and loss computed by SPEC.md §4. */
  static Partition scored(MicroscopicModel m, List<Part> parts, boolean spatiotemporal) {
    double gain = 0;
    double loss = 0;
    for (Part p : parts) {
      double[] q = quality(m, p, spatiotemporal);
      gain += q[0];
      loss += q[1];
    }
    return new Partition(parts, gain, loss);
  }

  private static double[] quality(MicroscopicModel m, Part p, boolean spatiotemporal) {
    ProducerTree tree = m.tree();
    int first = tree.firstLeaf(p.node());
    int leaves = tree.leafCount(p.node());
    double gain = 0;
    double loss = 0;
    // Temporal: one component per (leaf, type); spatiotemporal: one per type over the rectangle.
    int groups = spatiotemporal ? 1 : leaves;
    for (int g = 0; g < groups; g++) {
      for (int u = 0; u < m.typeCount(); u++) {
        double sum = 0;
        double xlogx = 0;
        int n = 0;
        for (int s = spatiotemporal ? first : first + g; s < (spatiotemporal ? first + leaves : first + g + 1); s++) {
          for (int t = p.first(); t <= p.last(); t++) {
            double x = m.value(s, t, u);
            sum += x;
            xlogx += x > 0 ? x * log2(x) : 0;
            n++;
          }
        }
        double gc = sum > 0 ? sum * log2(sum) - xlogx : 0;
        gain += gc;
        loss += sum * log2(n) - gc;
      }
    }
    return new double[] {gain, loss};
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /**
   * Breakpoints among candidate partitions: the upper envelope of their pIC lines over [0, 1]
   * (gift wrapping: from the best line at p, move to the line crossing it first with a larger
   * slope). Candidates never optimal are dropped.
   */
  static List<Breakpoint> breakpoints(List<Partition> candidates) {
    Partition current = candidates.get(0);
    for (Partition c : candidates) {
      if (c.pic(0) > current.pic(0)) {
        current = c;
      }
    }
    List<Breakpoint> result = new ArrayList<>(List.of(new Breakpoint(0, current)));
    double p = 0;
    while (true) {
      Partition next = null;
      double nextP = 1;
      for (Partition c : candidates) {
        double slope = c.gain() + c.loss();
        double currentSlope = current.gain() + current.loss();
        if (slope > currentSlope) {
          double cross = (c.loss() - current.loss()) / (slope - currentSlope);
          if (cross > p && cross < nextP) {
            next = c;
            nextP = cross;
          }
        }
      }
      if (next == null) {
        return result;
      }
      result.add(new Breakpoint(nextP, next));
      current = next;
      p = nextP;
    }
  }

  /** The picture input for a view, the chosen partition being candidate {@code chosen}. */
  static OverviewInput input(String name, MicroscopicModel m, ViewKind view, List<List<Part>> candidates, int chosen) {
    List<Partition> scored = new ArrayList<>();
    for (List<Part> parts : candidates) {
      scored.add(scored(m, parts, view.spatiotemporal()));
    }
    List<Breakpoint> bps = breakpoints(scored);
    int k = 0;
    while (k < bps.size() && bps.get(k).partition() != scored.get(chosen)) {
      k++;
    }
    if (k == bps.size()) {
      throw new IllegalStateException("candidate " + chosen + " is optimal for no p; the envelope has "
          + bps.size() + " partitions");
    }
    double next = k + 1 < bps.size() ? bps.get(k + 1).p() : 1;
    double p = (bps.get(k).p() + next) / 2;
    return new OverviewInput(m, WINDOW, view, bps, p, scored.get(chosen), null, name,
        "state total duration", true, List.of(), org.ocelotl.view.TimeScale.of("s", 0, WINDOW.end() - WINDOW.start()));
  }

  static OverviewInput smallInput(ViewKind view) {
    MicroscopicModel m = smallModel();
    ProducerTree tree = m.tree();
    if (view.spatiotemporal()) {
      List<Part> machines = new ArrayList<>(List.of(new Part(0, 0, 9), new Part(0, 10, 21), new Part(0, 30, 39)));
      for (int k = 1; k <= 4; k++) {
        machines.add(new Part(tree.find("m" + (k - 1)), 22, 29));
      }
      return input("demo: 16 threads, m2 waits in 5.5–7.5 s", m, view, List.of(finest(tree, true),
          machines, temporal(0, 10), temporal(0)), 1);
    }
    return input("demo: 16 threads, m2 waits in 5.5–7.5 s", m, view, List.of(finest(tree, false),
        temporal(0, 10, 22, 30), temporal(0, 10), temporal(0)), 1);
  }

  /**
   * 256 leaves: in 5.5-7.5 s, half of c3's nodes wait (so c3 is cut differently in time inside)
   * and c5's nodes alternate between waiting and sending (split in space only).
   */
  static OverviewInput bigInput(ViewKind view) {
    ProducerTree tree = bigTree();
    MicroscopicModel m = model(tree, s -> s / 32 == 3 && s % 32 < 16 || s / 32 == 5 && s % 2 == 0,
        s -> s / 32 == 5 && s % 2 == 1);
    List<Part> parts = new ArrayList<>(List.of(new Part(0, 0, 9)));
    for (int c = 0; c < 8; c++) {
      int cluster = tree.find("c" + c);
      if (c == 3) {
        for (int n = 0; n < 32; n++) {
          int node = tree.child(cluster, n);
          if (n < 16) {
            parts.add(new Part(node, 10, 21));
            parts.add(new Part(node, 22, 29));
            parts.add(new Part(node, 30, 39));
          } else {
            parts.add(new Part(node, 10, 39));
          }
        }
      } else if (c == 5) {
        parts.add(new Part(cluster, 10, 21));
        for (int n = 0; n < 32; n++) {
          parts.add(new Part(tree.child(cluster, n), 22, 29));
        }
        parts.add(new Part(cluster, 30, 39));
      } else {
        parts.add(new Part(cluster, 10, 39));
      }
    }
    return input("demo: 256 nodes in 8 clusters", m, view, List.of(finest(tree, true), parts,
        temporal(0, 10), temporal(0)), 1);
  }
}
