package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Random trees, random spatiotemporal tilings (built like the optimiser's recursion: aggregate,
 * spatial cut or temporal cut), random pixel heights and thresholds; the geometry is checked
 * against definitions evaluated cell by cell.
 */
class VisualAggregationPropertyTest {
  static final long SEED = 20240611L;
  static final int CASES = 300;

  @Test
  void geometryMatchesTheDefinitionsOnRandomTilings() {
    Random random = new Random(SEED);
    for (int c = 0; c < CASES; c++) {
      String where = "case " + c + " (seed " + SEED + ")";
      ProducerTree tree = randomTree(random);
      int slices = 1 + random.nextInt(8);
      List<Part> parts = new ArrayList<>();
      tile(tree, 0, 0, slices - 1, random, parts);
      MicroscopicModel model = OverviewGeometryTest.model(tree, slices, List.of("x", "y", "z"),
          (s, t, u) -> random.nextInt(3));
      double height = 1 + random.nextInt(4 * tree.leafCount());
      double threshold = 1 + random.nextInt(6);
      for (ViewKind view : List.of(ViewKind.SPATIOTEMPORAL_MODE, ViewKind.SPATIOTEMPORAL_PARTITION)) {
        Overview o = OverviewGeometry.build(model, new Partition(parts, 0, 0), view,
            OverviewGeometryTest.WINDOW, null, height, threshold);
        check(tree, slices, parts, o, height / tree.leafCount(), threshold, where + " " + view);
      }
    }
  }

  static void check(ProducerTree tree, int slices, List<Part> parts, Overview o,
      double pixelsPerLeaf, double threshold, String where) {
    int leaves = tree.leafCount();
    int[] partAt = new int[leaves * slices];
    for (int k = 0; k < parts.size(); k++) {
      Part p = parts.get(k);
      for (int s = tree.firstLeaf(p.node()); s < tree.firstLeaf(p.node()) + tree.leafCount(p.node()); s++) {
        for (int t = p.first(); t <= p.last(); t++) {
          partAt[s * slices + t] = k;
        }
      }
    }
    int[] blockCount = new int[leaves * slices];
    int drawnParts = 0;
    for (Block b : o.blocks()) {
      int l0 = (int) Math.round(b.y0() * leaves);
      int l1 = (int) Math.round(b.y1() * leaves);
      assertEquals(tree.firstLeaf(b.node()), l0, where);
      assertEquals(tree.firstLeaf(b.node()) + tree.leafCount(b.node()), l1, where);
      for (int s = l0; s < l1; s++) {
        for (int t = b.first(); t <= b.last(); t++) {
          blockCount[s * slices + t]++;
        }
      }
      if (b.part() >= 0) {
        drawnParts++;
        Part p = parts.get(b.part());
        assertEquals(List.of(p.node(), p.first(), p.last()), List.of(b.node(), b.first(), b.last()), where);
        assertTrue(everyAncestorExpanded(tree, p.node(), pixelsPerLeaf, threshold), where + ": " + p + " drawn though too thin");
        assertEquals(Mark.NONE, b.mark(), where);
      } else {
        checkVisualBlock(tree, slices, parts, partAt, b, where);
      }
    }
    for (int cell = 0; cell < blockCount.length; cell++) {
      assertEquals(1, blockCount[cell], where + ": cell " + cell + " covered " + blockCount[cell] + " times");
    }
    long visible = parts.stream().filter(p -> everyAncestorExpanded(tree, p.node(), pixelsPerLeaf, threshold)).count();
    assertEquals(visible, drawnParts, where + ": parts drawn as themselves");
    if (o.view() == ViewKind.SPATIOTEMPORAL_PARTITION) {
      for (Block a : o.blocks()) {
        for (Block b : o.blocks()) {
          if (a != b && a.part() >= 0 && b.part() >= 0 && OverviewGeometryTest.touch(a, b)) {
            assertNotEquals(a.colour(), b.colour(), where + ": " + a + " touches " + b);
          }
        }
      }
    }
  }

  /** A visual block stands for whole parts, marked by whether its leaves are cut alike. */
  static void checkVisualBlock(ProducerTree tree, int slices, List<Part> parts, int[] partAt,
      Block b, String where) {
    int h = b.node();
    int l0 = tree.firstLeaf(h);
    int l1 = l0 + tree.leafCount(h);
    java.util.Set<Integer> inside = new java.util.TreeSet<>();
    boolean someInteriorCut = false;
    for (int s = l0; s < l1; s++) {
      for (int t = b.first(); t <= b.last(); t++) {
        Part p = parts.get(partAt[s * slices + t]);
        inside.add(partAt[s * slices + t]);
        assertTrue(p.first() >= b.first() && p.last() <= b.last()
            && tree.leafCount(p.node()) < tree.leafCount(h), where + ": " + p + " leaks out of " + b);
        if (t > b.first() && p.first() == t) {
          someInteriorCut = true;
        }
      }
    }
    assertEquals(inside.size(), b.tooltip().hiddenParts(), where);
    assertTrue(inside.size() >= 2, where + ": a visual block hiding one part " + b);
    assertEquals(someInteriorCut ? Mark.CROSS : Mark.DIAGONAL, b.mark(), where + " " + b);
    for (int t = b.first() + 1; t <= b.last(); t++) {
      boolean common = true;
      for (int s = l0; s < l1; s++) {
        common &= parts.get(partAt[s * slices + t]).first() == t;
      }
      assertTrue(!common, where + ": " + b + " not split at the common cut " + t);
    }
  }

  /**
   * A part is drawn as itself when every ancestor covering more leaves shows its children (all
   * of them thick enough); ancestors with the same leaves (a chain of single children) hide
   * nothing.
   */
  static boolean everyAncestorExpanded(ProducerTree tree, int node, double pixelsPerLeaf, double threshold) {
    for (int a = tree.parent(node); a >= 0; a = tree.parent(a)) {
      if (tree.leafCount(a) == tree.leafCount(node)) {
        continue;
      }
      for (int c = 0; c < tree.childCount(a); c++) {
        if (tree.leafCount(tree.child(a, c)) * pixelsPerLeaf < threshold) {
          return false;
        }
      }
    }
    return true;
  }

  static ProducerTree randomTree(Random random) {
    List<String> names = new ArrayList<>(List.of("root"));
    List<Integer> parents = new ArrayList<>(List.of(-1));
    List<Integer> frontier = List.of(0);
    for (int level = 0; level < 1 + random.nextInt(3); level++) {
      List<Integer> next = new ArrayList<>();
      for (int node : frontier) {
        int children = level == 0 ? 1 + random.nextInt(4) : random.nextInt(4);
        for (int k = 0; k < children; k++) {
          next.add(names.size());
          names.add("n" + names.size());
          parents.add(node);
        }
      }
      frontier = next;
    }
    return new ProducerTree(names.toArray(String[]::new), parents.stream().mapToInt(Integer::intValue).toArray());
  }

  static void tile(ProducerTree tree, int node, int first, int last, Random random, List<Part> out) {
    int choice = random.nextInt(3);
    if (choice == 1 && !tree.isLeaf(node)) {
      for (int c = 0; c < tree.childCount(node); c++) {
        tile(tree, tree.child(node, c), first, last, random, out);
      }
    } else if (choice == 2 && last > first) {
      int cut = first + 1 + random.nextInt(last - first);
      tile(tree, node, first, cut - 1, random, out);
      tile(tree, node, cut, last, random, out);
    } else {
      out.add(new Part(node, first, last));
    }
  }
}
