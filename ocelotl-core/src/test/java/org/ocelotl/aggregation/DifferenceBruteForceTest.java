package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.ocelotl.compare.Difference;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The difference model of two runs is an ordinary microscopic model: the spatiotemporal engine's
 * optimum and breakpoints on it equal the enumeration of every allowed tiling (seeded random pairs,
 * as {@link BruteForceTest} checks any model).
 */
class DifferenceBruteForceTest {
  @Test
  void theEngineOnTheDifferenceModelMatchesEnumeration() {
    Random random = new Random(32);
    for (int k = 0; k < 120; k++) {
      long seed = random.nextLong();
      Random r = new Random(seed);
      ProducerTree tree = Models.randomTree(r, 1 + r.nextInt(6));
      while (tree.leafCount() > 3) {
        tree = Models.randomTree(r, 1 + r.nextInt(6));
      }
      int slices = 1 + r.nextInt(4);
      int types = 1 + r.nextInt(2);
      MicroscopicModel base = Models.randomModel(r, tree, slices, types);
      MicroscopicModel other = Models.randomModel(r, tree, slices, types);
      MicroscopicModel d = Difference.of(base, other).model();
      String where = "seed " + seed;
      Qualities qualities = Qualities.of(d, Aggregation.SPATIOTEMPORAL);
      BruteForce oracle = new BruteForce(d, Aggregation.SPATIOTEMPORAL);
      Set<List<Part>> allowed = oracle.partitions();
      List<BruteForce.Line> lines = allowed.stream().map(oracle::line).toList();
      double tolerance = 1e-9 * Math.max(1, qualities.scale());
      for (int i = 0; i <= 20; i++) {
        double p = i / 20.0;
        Partition partition = qualities.best(p);
        assertEquals(BruteForce.maxPic(lines, p), partition.pic(p), tolerance, where + ": optimum at p=" + p);
      }
      List<BruteForce.Change> expected = BruteForce.envelope(lines, tolerance);
      List<Breakpoint> actual = qualities.breakpoints();
      assertEquals(expected.size(), actual.size(), where + ": breakpoints " + expected + " vs " + actual);
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i).p(), actual.get(i).p(), 1e-9, where + ": breakpoint " + i);
      }
      assertTrue(d.typeCount() <= 2 * types, where);
    }
  }
}
