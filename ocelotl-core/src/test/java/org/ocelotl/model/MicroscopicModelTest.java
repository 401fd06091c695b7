package org.ocelotl.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class MicroscopicModelTest {
  /**
   * <pre>
   * 0 root
   * ├── 1 host1        leaves: cpu1 (values), nic1 (zeros)
   * │   ├── 3 cpu1
   * │   └── 4 nic1
   * └── 2 host2
   *     └── 5 nic2     (zeros: host2 disappears with it)
   * 6 cpu3 under root  (values)
   * </pre>
   */
  @Test
  void emptyLeavesAndTheNodesLeftWithoutLeavesAreDropped() {
    ProducerTree tree = new ProducerTree(new String[] {"root", "host1", "host2", "cpu1", "nic1", "nic2", "cpu3"},
        new int[] {-1, 0, 0, 1, 1, 2, 0});
    // leaves in order: cpu1, nic1, nic2, cpu3; 2 slices × 1 type
    MicroscopicModel model = new MicroscopicModel(tree, 2, List.of("load"), new double[] {1, 2, 0, 0, 0, 0, 0, 3});
    MicroscopicModel pruned = model.withoutEmptyLeaves();
    ProducerTree t = pruned.tree();
    assertEquals(4, t.size());
    assertEquals(List.of("root", "host1", "cpu1", "cpu3"), List.of(t.name(0), t.name(1), t.name(2), t.name(3)));
    assertArrayEquals(new int[] {-1, 0, 1, 0}, new int[] {t.parent(0), t.parent(1), t.parent(2), t.parent(3)});
    assertArrayEquals(new double[] {1, 2, 0, 3}, pruned.values());
  }

  @Test
  void aModelWithoutEmptyLeavesOrWithOnlyEmptyOnesIsKept() {
    ProducerTree tree = ProducerTree.flat("root", List.of("a", "b"));
    MicroscopicModel full = new MicroscopicModel(tree, 1, List.of("x"), new double[] {1, 2});
    assertSame(full, full.withoutEmptyLeaves());
    MicroscopicModel empty = new MicroscopicModel(tree, 1, List.of("x"), new double[] {0, 0});
    assertSame(empty, empty.withoutEmptyLeaves());
  }

  /** Two leaves a, b × 4 slices × 2 types x, y; value = 100·leaf + 10·slice + type. */
  @Test
  void aWindowHoldsExactlyItsSlices() {
    ProducerTree tree = ProducerTree.flat("root", List.of("a", "b"));
    double[] values = new double[2 * 4 * 2];
    for (int leaf = 0; leaf < 2; leaf++) {
      for (int slice = 0; slice < 4; slice++) {
        for (int type = 0; type < 2; type++) {
          values[(leaf * 4 + slice) * 2 + type] = 100 * leaf + 10 * slice + type;
        }
      }
    }
    MicroscopicModel model = new MicroscopicModel(tree, 4, List.of("x", "y"), values);
    MicroscopicModel window = model.window(1, 3);
    assertEquals(2, window.slices());
    assertSame(tree, window.tree());
    assertEquals(List.of("x", "y"), window.types());
    assertArrayEquals(new double[] {10, 11, 20, 21, 110, 111, 120, 121}, window.values());
    assertArrayEquals(values, model.window(0, 4).values());
    for (int[] bad : new int[][] {{-1, 2}, {2, 2}, {3, 1}, {0, 5}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> model.window(bad[0], bad[1]));
      assertEquals("slices [" + bad[0] + ", " + bad[1] + ") are not a window of a model of 4 slices", e.getMessage());
    }
  }

  @Test
  void negativeAndNonFiniteValuesAreRefusedWithTheirCell() {
    ProducerTree tree = ProducerTree.flat("root", List.of("a", "b"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MicroscopicModel(tree, 2, List.of("x"), new double[] {1, 2, Double.NaN, 0}));
    assertEquals("model values must be finite and ≥ 0; found NaN at producer b, slice 0, type x", e.getMessage());
  }
}
