package org.ocelotl.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProducerTreeTest {
  /**
   * <pre>
   * 0 root
   * ├── 1 a
   * │   ├── 3 a1
   * │   └── 4 a2
   * └── 2 b
   *     └── 5 b1
   *         └── 6 b11
   * </pre>
   * Node 7 is a second child of root added last, to check that leaves follow depth-first order
   * and not node numbering.
   */
  private static ProducerTree sample() {
    return new ProducerTree(
        new String[] {"root", "a", "b", "a1", "a2", "b1", "b11", "c"},
        new int[] {-1, 0, 0, 1, 1, 2, 5, 0});
  }

  @Test
  void leavesAreNumberedDepthFirst() {
    ProducerTree tree = sample();
    assertEquals(4, tree.leafCount());
    assertArrayEquals(new int[] {3, 4, 6, 7},
        new int[] {tree.leafNode(0), tree.leafNode(1), tree.leafNode(2), tree.leafNode(3)});
  }

  @Test
  void everyNodeCoversAContiguousLeafRange() {
    ProducerTree tree = sample();
    int[][] expected = {{0, 4}, {0, 2}, {2, 1}, {0, 1}, {1, 1}, {2, 1}, {2, 1}, {3, 1}};
    for (int node = 0; node < tree.size(); node++) {
      assertArrayEquals(expected[node], new int[] {tree.firstLeaf(node), tree.leafCount(node)},
          "node " + tree.name(node));
    }
  }

  @Test
  void depthsAndHeight() {
    ProducerTree tree = sample();
    assertEquals(3, tree.depth(6));
    assertEquals(3, tree.height());
    assertEquals(1, tree.depth(7));
  }

  @Test
  void aLoneRootIsItsOwnLeaf() {
    ProducerTree tree = new ProducerTree(new String[] {"only"}, new int[] {-1});
    assertEquals(1, tree.leafCount());
    assertEquals(0, tree.leafNode(0));
  }

  @Test
  void flatTreeKeepsLeafOrder() {
    ProducerTree tree = ProducerTree.flat("root", List.of("x", "y", "z"));
    assertEquals("y", tree.name(tree.leafNode(1)));
    assertEquals(0, tree.parent(3));
  }

  @Test
  void rejectsAParentNumberedAfterItsChild() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ProducerTree(new String[] {"r", "a", "b"}, new int[] {-1, 2, 0}));
    assertEquals("node 1 (a) must have a parent numbered before it, found 2", e.getMessage());
  }
}
