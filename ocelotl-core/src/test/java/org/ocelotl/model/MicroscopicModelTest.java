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

  @Test
  void negativeAndNonFiniteValuesAreRefusedWithTheirCell() {
    ProducerTree tree = ProducerTree.flat("root", List.of("a", "b"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MicroscopicModel(tree, 2, List.of("x"), new double[] {1, 2, Double.NaN, 0}));
    assertEquals("model values must be finite and ≥ 0; found NaN at producer b, slice 0, type x", e.getMessage());
  }
}
