package org.ocelotl.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/** The difference model of two runs and the ranking of their differences, on small exact inputs. */
class DifferencesTest {
  /**
   * root › a › {x, y}, b › {z} against root › b › {z}, a › {y, w}: a/y and b/z are compared (BASE's
   * order), a/x and a/w listed as one run's only; types matched by name whatever their order, a type
   * of one run only counted 0 in the other.
   */
  @Test
  void producersAreMatchedByPathAndTypesByName() {
    ProducerTree baseTree = new ProducerTree(new String[] {"r", "a", "x", "y", "b", "z"}, new int[] {-1, 0, 1, 1, 0, 4});
    ProducerTree otherTree = new ProducerTree(new String[] {"r", "b", "z", "a", "y", "w"}, new int[] {-1, 0, 1, 0, 3, 3});
    // BASE: leaves x, y, z × 1 slice × (s, t)
    MicroscopicModel base = new MicroscopicModel(baseTree, 1, List.of("s", "t"), new double[] {9, 9, 1, 2, 3, 4});
    // OTHER: leaves z, y, w × 1 slice × (t, s, new)
    MicroscopicModel other = new MicroscopicModel(otherTree, 1, List.of("t", "s", "new"),
        new double[] {4, 3, 0, 5, 1, 5, 8, 8, 8});
    Difference d = Difference.of(base, other);
    assertEquals(List.of("a/x"), d.onlyInBase());
    assertEquals(List.of("a/w"), d.onlyInOther());
    assertEquals(List.of("s", "t", "new"), d.types());
    ProducerTree tree = d.model().tree();
    assertEquals(List.of("a/y", "b/z"), List.of(tree.path(tree.leafNode(0)), tree.path(tree.leafNode(1))));
    // a/y: BASE (s 1, t 2), OTHER (s 1, t 5, new 5); b/z: BASE (3, 4), OTHER (3, 4, 0): no departure
    assertEquals(List.of("t +", "new +"), d.model().types());
    assertEquals(List.of(3.0, 5.0, 0.0, 0.0), values(d.model()));
  }

  @Test
  void runsWithNoProducerInCommonAreRefused() {
    MicroscopicModel a = new MicroscopicModel(ProducerTree.flat("r", List.of("p")), 2, List.of("s"), new double[2]);
    MicroscopicModel b = new MicroscopicModel(ProducerTree.flat("r", List.of("q")), 2, List.of("s"), new double[2]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Difference.of(a, b));
    assertTrue(e.getMessage().startsWith("the runs have no producer in common"), e.getMessage());
  }

  /** Per cell and type, gain − loss = OTHER − BASE exactly, and every kept difference type moves somewhere. */
  @Test
  void gainsAndLossesAreTheSignedChange() {
    Random random = new Random(7);
    for (int k = 0; k < 200; k++) {
      long seed = random.nextLong();
      Random r = new Random(seed);
      int leaves = 1 + r.nextInt(4);
      int slices = 1 + r.nextInt(5);
      int types = 1 + r.nextInt(3);
      MicroscopicModel base = randomModel(r, leaves, slices, types);
      MicroscopicModel other = randomModel(r, leaves, slices, types);
      Difference d = Difference.of(base, other);
      double[] net = new double[leaves * slices * types];
      MicroscopicModel m = d.model();
      boolean[] moves = new boolean[m.typeCount()];
      for (int leaf = 0; leaf < leaves; leaf++) {
        for (int s = 0; s < slices; s++) {
          for (int t = 0; t < m.typeCount(); t++) {
            double v = m.value(leaf, s, t);
            net[(leaf * slices + s) * types + d.typeOf()[t]] += d.gained()[t] ? v : -v;
            moves[t] |= v > 0;
          }
        }
      }
      for (int leaf = 0; leaf < leaves; leaf++) {
        for (int s = 0; s < slices; s++) {
          for (int j = 0; j < types; j++) {
            assertEquals(other.value(leaf, s, j) - base.value(leaf, s, j), net[(leaf * slices + s) * types + j], 0,
                "seed " + seed);
          }
        }
      }
      boolean same = java.util.Arrays.equals(base.values(), other.values());
      for (int t = 0; t < m.typeCount(); t++) {
        assertTrue(moves[t] || same, "seed " + seed + ": type " + m.types().get(t) + " never moves");
      }
    }
  }

  /**
   * The split score is loss(A) − loss(C) − loss(A \ C), each loss straight from SPEC.md §4
   * (Σ x·log2(n·x/S) per type), on seeded random cells.
   */
  @Test
  void theSplitScoreIsTheLossOfTheAggregateLessItsTwoHalves() {
    Random random = new Random(11);
    for (int k = 0; k < 500; k++) {
      int types = 1 + random.nextInt(3);
      int n = 2 + random.nextInt(8);
      int m = 1 + random.nextInt(n - 1);
      double[][] cells = new double[n][types];
      for (double[] cell : cells) {
        for (int u = 0; u < types; u++) {
          cell[u] = random.nextInt(4) == 0 ? 0 : random.nextInt(10);
        }
      }
      double[] c = new double[types];
      double[] s = new double[types];
      for (int i = 0; i < n; i++) {
        for (int u = 0; u < types; u++) {
          s[u] += cells[i][u];
          c[u] += i < m ? cells[i][u] : 0;
        }
      }
      double expected = loss(cells, 0, n) - loss(cells, 0, m) - loss(cells, m, n);
      assertEquals(expected, Differences.score(c, s, m, n), 1e-9 * (1 + Math.abs(expected)), "case " + k);
    }
  }

  /**
   * A planted slowdown: OTHER is BASE but leaf l2 computes all the time over slices [3, 5], and every
   * other leaf computes a fifth of what it did then and waits the rest: the first difference is l2
   * within [3, 5] (all of it but where the finest partitions cut it, at p = 0), whatever p the
   * partition is taken at.
   */
  @Test
  void aPlantedSlowLeafIsTheFirstDifference() {
    Random random = new Random(3);
    ProducerTree tree = new ProducerTree(new String[] {"r", "g", "l0", "l1", "l2", "l3", "h", "l4", "l5", "l6", "l7"},
        new int[] {-1, 0, 1, 1, 1, 1, 0, 6, 6, 6, 6});
    int slices = 10;
    for (int k = 0; k < 20; k++) {
      long seed = random.nextLong();
      Random r = new Random(seed);
      double[] b = new double[8 * slices * 2];
      for (int leaf = 0; leaf < 8; leaf++) {
        for (int s = 0; s < slices; s++) {
          double computing = 0.5 + 0.1 * r.nextInt(3);
          b[(leaf * slices + s) * 2] = computing;
          b[(leaf * slices + s) * 2 + 1] = 1 - computing;
        }
      }
      double[] o = b.clone();
      for (int s = 3; s <= 5; s++) {
        for (int leaf = 0; leaf < 8; leaf++) {
          int i = (leaf * slices + s) * 2;
          o[i] = leaf == 2 ? 1 : 0.2 * b[i];
          o[i + 1] = 1 - o[i];
        }
      }
      MicroscopicModel base = new MicroscopicModel(tree, slices, List.of("computing", "waiting"), b);
      MicroscopicModel other = new MicroscopicModel(tree, slices, List.of("computing", "waiting"), o);
      Difference d = Difference.of(base, other);
      Qualities q = Qualities.of(d.model(), Aggregation.SPATIOTEMPORAL);
      for (double p : new double[] {0, 0.1, 0.3, 0.6, 1}) {
        List<Differences.Change> changes = Differences.of(d, q.best(p).parts(), Work.NONE);
        Differences.Change first = changes.get(0);
        String at = "seed " + seed + " p " + p + ": " + changes;
        assertEquals(List.of("g/l2", "computing"), List.of(d.model().tree().path(first.node()),
            d.types().get(first.type())), at);
        assertTrue(first.first() >= 3 && first.last() <= 5 && (p == 0 || first.first() == 3 && first.last() == 5), at);
        assertTrue(first.otherShare() == 1 && first.baseShare() < 0.8, first.toString());
      }
    }
  }

  @Test
  void theSameRunTwiceHasNoDifference() {
    MicroscopicModel run = randomModel(new Random(5), 3, 6, 2);
    Difference d = Difference.of(run, run);
    assertEquals(0, values(d.model()).stream().mapToDouble(Double::doubleValue).sum());
    Qualities q = Qualities.of(d.model(), Aggregation.SPATIOTEMPORAL);
    assertEquals(List.of(new Part(0, 0, 5)), q.best(0).parts());
    assertEquals(List.of(), Differences.of(d, q.best(0).parts(), Work.NONE));
  }

  private static MicroscopicModel randomModel(Random r, int leaves, int slices, int types) {
    List<String> names = new ArrayList<>();
    for (int l = 0; l < leaves; l++) {
      names.add("p" + l);
    }
    List<String> typeNames = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      typeNames.add("u" + u);
    }
    double[] values = new double[leaves * slices * types];
    for (int i = 0; i < values.length; i++) {
      values[i] = r.nextInt(3) == 0 ? 0 : r.nextInt(5);
    }
    return new MicroscopicModel(ProducerTree.flat("r", names), slices, typeNames, values);
  }

  private static List<Double> values(MicroscopicModel m) {
    return java.util.Arrays.stream(m.values()).boxed().toList();
  }

  /** Σ_u Σ_x x·log2(n·x/S_u) over cells [from, to). */
  private static double loss(double[][] cells, int from, int to) {
    double loss = 0;
    int n = to - from;
    for (int u = 0; u < cells[0].length; u++) {
      double sum = 0;
      for (int i = from; i < to; i++) {
        sum += cells[i][u];
      }
      for (int i = from; i < to; i++) {
        double x = cells[i][u];
        loss += x > 0 ? x * Math.log(n * x / sum) / Math.log(2) : 0;
      }
    }
    return loss;
  }
}
