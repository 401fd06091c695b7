package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * <pre>
 * root ─┬─ a ─┬─ a1   X: 3, 1   Y: 0, 0     (values per slice 0, 1)
 *       │     └─ a2   X: 0, 0   Y: 1, 3
 *       └─ b          X: 2, 4   Y: 2, 0
 * </pre>
 * drawn in 200 × 100 px: a and b (8 each over the window) take a 100 px square each.
 */
class TreemapGeometryTest {
  static final ProducerTree TREE = new ProducerTree(new String[] {"root", "a", "b", "a1", "a2"},
      new int[] {-1, 0, 0, 1, 1});
  static final MicroscopicModel MODEL = new MicroscopicModel(TREE, 2, List.of("X", "Y"),
      new double[] {3, 0, 1, 0, /* a2 */ 0, 1, 0, 3, /* b */ 2, 2, 4, 0});
  static final TimeWindow WINDOW = new TimeWindow(0, 2, "s");
  static final boolean[] LEAVES = {false, false, true, true, true};
  static final double EPS = 1e-12;

  static Treemap build(boolean[] cut, int first, int last, double threshold) {
    return TreemapGeometry.build(MODEL, cut, first, last, WINDOW, null, 200, 100, threshold);
  }

  @Test
  void theWholeWindowDownToTheLeaves() {
    Treemap t = build(LEAVES, 0, 1, 4);
    assertEquals(List.of("all producers", "a", "a1", "a2", "b"), t.cells().stream().map(TreemapCell::name).toList());
    assertCell(t.cells().get(0), TreemapCell.Kind.GROUP, 0, 0, 1, 1, 16);
    assertCell(t.cells().get(1), TreemapCell.Kind.GROUP, 0, 0, 0.5, 1, 8);
    assertCell(t.cells().get(2), TreemapCell.Kind.PRODUCER, 0, 0, 0.5, 0.5, 4);
    assertCell(t.cells().get(3), TreemapCell.Kind.PRODUCER, 0, 0.5, 0.5, 1, 4);
    assertCell(t.cells().get(4), TreemapCell.Kind.PRODUCER, 0.5, 0, 1, 1, 8);
    TreemapCell b = t.cells().get(4);
    assertEquals(0, b.mode());
    assertEquals(0.75, b.opacity(), EPS);
    assertEquals(List.of(new TypeShare("X", 6, 0.75), new TypeShare("Y", 2, 0.25)), b.types());
    assertEquals(1, t.cells().get(3).mode());
    assertEquals("a/a2", t.cells().get(3).path());
    assertEquals("", t.note());
  }

  /** Slice 1 alone: areas change, the order (of the whole window) does not. */
  @Test
  void aTimeStepKeepsTheWindowsOrder() {
    Treemap t = build(LEAVES, 1, 1, 4);
    assertEquals(List.of("all producers", "a", "a1", "a2", "b"), t.cells().stream().map(TreemapCell::name).toList());
    assertCell(t.cells().get(2), TreemapCell.Kind.PRODUCER, 0, 0, 0.5, 0.25, 1);
    assertCell(t.cells().get(3), TreemapCell.Kind.PRODUCER, 0, 0.25, 0.5, 1, 3);
    assertCell(t.cells().get(4), TreemapCell.Kind.PRODUCER, 0.5, 0, 1, 1, 4);
    assertEquals(1.0, t.cells().get(4).opacity(), EPS);
  }

  @Test
  void anAggregatedNodeIsOneCellWithItsMode() {
    boolean[] cut = TreemapGeometry.cutAtDepth(TREE, 1);
    assertEquals(List.of(false, true, true, false, false), bools(cut));
    Treemap t = build(cut, 0, 1, 4);
    assertEquals(List.of("all producers", "a", "b"), t.cells().stream().map(TreemapCell::name).toList());
    TreemapCell a = t.cells().get(1);
    assertCell(a, TreemapCell.Kind.AGGREGATE, 0, 0, 0.5, 1, 8);
    assertEquals(2, a.leaves());
    assertEquals(0, a.mode()); // a tie goes to the first type
    assertEquals(0.5, a.opacity(), EPS);
    assertEquals(List.of(1, 2), t.cut());
  }

  /** a's children would be 50 px thick: under a 60 px threshold a is drawn as one hatched cell. */
  @Test
  void childrenTooSmallAreAggregatedVisually() {
    Treemap t = build(LEAVES, 0, 1, 60);
    assertEquals(List.of("all producers", "a", "b"), t.cells().stream().map(TreemapCell::name).toList());
    TreemapCell a = t.cells().get(1);
    assertCell(a, TreemapCell.Kind.VISUAL, 0, 0, 0.5, 1, 8);
    assertEquals(2, a.hidden());
    assertEquals(TreemapCell.Kind.PRODUCER, t.cells().get(2).kind());
    Treemap all = build(LEAVES, 0, 1, 150);
    assertEquals(1, all.cells().size());
    assertEquals(TreemapCell.Kind.VISUAL, all.cells().get(0).kind());
    assertEquals(3, all.cells().get(0).hidden());
  }

  /**
   * One leaf of 97 beside leaves of 2 and 1, in 100 × 100 px under a 4 px threshold: the small
   * two (3 px thick together) become one hatched cell of the root's, and the large one is drawn;
   * the whole root was one hatched block named by its raw id ("0 (15 too small)", issue 33).
   */
  @Test
  void smallChildrenDoNotHideTheirLargeSibling() {
    ProducerTree tree = new ProducerTree(new String[] {"0", "a", "b", "c"}, new int[] {-1, 0, 0, 0});
    MicroscopicModel model = new MicroscopicModel(tree, 1, List.of("X"), new double[] {97, 2, 1});
    Treemap t = TreemapGeometry.build(model, new boolean[] {false, true, true, true}, 0, 0, WINDOW, null, 100, 100, 4);
    assertEquals(List.of("all producers", "a", "all producers"), t.cells().stream().map(TreemapCell::name).toList());
    assertEquals(List.of(TreemapCell.Kind.GROUP, TreemapCell.Kind.PRODUCER, TreemapCell.Kind.VISUAL),
        t.cells().stream().map(TreemapCell::kind).toList());
    TreemapCell a = t.cells().get(1);
    TreemapCell rest = t.cells().get(2);
    assertEquals(97, a.value(), EPS);
    assertEquals(0.97, (a.x1() - a.x0()) * (a.y1() - a.y0()), EPS);
    assertEquals(3, rest.value(), EPS);
    assertEquals(0.03, (rest.x1() - rest.x0()) * (rest.y1() - rest.y0()), EPS);
    assertEquals(2, rest.hidden());
    assertEquals(2, rest.leaves());
  }

  @Test
  void aFlatTreeGetsAFlatTreemapAndANote() {
    ProducerTree flat = ProducerTree.flat("root", List.of("p", "q"));
    MicroscopicModel m = new MicroscopicModel(flat, 1, List.of("X"), new double[] {1, 3});
    Treemap t = TreemapGeometry.build(m, new boolean[] {false, true, true}, 0, 0, WINDOW, null, 100, 100, 4);
    assertEquals(3, t.cells().size());
    assertTrue(t.note().contains("flat"), t.note());
    assertEquals(0.25, area(t.cells().get(2)), EPS);
  }

  @Test
  void badCutsAndSlicesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> build(new boolean[] {false, true, false, true, true}, 0, 1, 4));
    assertThrows(IllegalArgumentException.class, () -> build(new boolean[] {false, false, true, true, false}, 0, 1, 4));
    assertThrows(IllegalArgumentException.class, () -> build(LEAVES, 1, 2, 4));
  }

  /**
   * The shown nodes equal the engine's spatial partition at every breakpoint, and their areas
   * are proportional to their values (to 1e-9), on 100 seeded random models.
   */
  @Test
  void theCutIsTheSpatialPartitionAtEachBreakpoint() {
    for (int seed = 0; seed < 100; seed++) {
      Random random = new Random(seed);
      int inner = 1 + random.nextInt(4);
      int leaves = 2 + random.nextInt(10);
      String[] names = new String[1 + inner + leaves];
      int[] parents = new int[names.length];
      parents[0] = -1;
      names[0] = "root";
      for (int i = 1; i < names.length; i++) {
        names[i] = "n" + i;
        parents[i] = i <= inner ? random.nextInt(i) : 1 + random.nextInt(inner);
      }
      ProducerTree tree = new ProducerTree(names, parents);
      double[] values = new double[tree.leafCount() * 3 * 2];
      for (int i = 0; i < values.length; i++) {
        values[i] = random.nextInt(3) == 0 ? 0 : random.nextInt(10);
      }
      MicroscopicModel model = new MicroscopicModel(tree, 3, List.of("X", "Y"), values);
      for (Breakpoint b : Qualities.of(model, Aggregation.SPATIAL).breakpoints()) {
        Treemap t = TreemapGeometry.build(model, TreemapGeometry.cutOf(tree, b.partition()), 0, 2, WINDOW, null,
            300, 200, 0);
        List<Integer> parts = b.partition().parts().stream().map(Part::node).sorted().toList();
        assertEquals(parts, t.cut(), "seed " + seed + " at p = " + b.p());
        for (TreemapCell c : t.cells()) {
          assertEquals(c.value() / t.total(), area(c), 1e-9, "seed " + seed + ", " + c.name());
          if (c.kind() != TreemapCell.Kind.GROUP) {
            assertTrue(parts.contains(c.node()), "seed " + seed + ": " + c.name() + " is drawn but not a part");
          }
        }
      }
    }
  }

  static double area(TreemapCell c) {
    return (c.x1() - c.x0()) * (c.y1() - c.y0());
  }

  static List<Boolean> bools(boolean[] a) {
    Boolean[] boxed = new Boolean[a.length];
    for (int i = 0; i < a.length; i++) {
      boxed[i] = a[i];
    }
    return List.of(boxed);
  }

  static void assertCell(TreemapCell c, TreemapCell.Kind kind, double x0, double y0, double x1, double y1,
      double value) {
    assertEquals(kind, c.kind(), c.name());
    assertEquals(x0, c.x0(), EPS, c.name() + " x0");
    assertEquals(y0, c.y0(), EPS, c.name() + " y0");
    assertEquals(x1, c.x1(), EPS, c.name() + " x1");
    assertEquals(y1, c.y1(), EPS, c.name() + " y1");
    assertEquals(value, c.value(), EPS, c.name() + " value");
  }
}
