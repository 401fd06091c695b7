package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Geometry on hand-made models. The spatiotemporal fixture:
 *
 * <pre>
 *          root(0)
 *        /        \
 *      A(1)       B(2)
 *     /   \      /   \
 *   a0(3) a1(4) b0(5) b1(6)      leaves 0..3 = a0 a1 b0 b1, rows of height 1/4
 * </pre>
 *
 * 4 slices over the window [10, 18) s, types x and y.
 */
class OverviewGeometryTest {
  static final double EPS = 1e-12;
  static final TimeWindow WINDOW = new TimeWindow(10, 18, "s");
  static final ProducerTree TREE = new ProducerTree(
      new String[] {"root", "A", "B", "a0", "a1", "b0", "b1"}, new int[] {-1, 0, 0, 1, 1, 2, 2});

  /** value(leaf, slice, type) given by a function of the three indices. */
  interface Cell {
    double value(int leaf, int slice, int type);
  }

  static MicroscopicModel model(ProducerTree tree, int slices, List<String> types, Cell cell) {
    double[] values = new double[tree.leafCount() * slices * types.size()];
    int i = 0;
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      for (int t = 0; t < slices; t++) {
        for (int u = 0; u < types.size(); u++) {
          values[i++] = cell.value(leaf, t, u);
        }
      }
    }
    return new MicroscopicModel(tree, slices, types, values);
  }

  static Partition partition(Part... parts) {
    return new Partition(List.of(parts), 0, 0);
  }

  // ---- temporal -------------------------------------------------------------------------

  @Test
  void temporalPartitionBlocksSpanTheirSlicesAndEveryProducer() {
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> 1);
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 2, 3), new Part(0, 0, 1)),
        ViewKind.TEMPORAL_PARTITION, WINDOW, null, 100, 3);
    assertEquals(2, o.blocks().size());
    Block first = o.blocks().get(0);
    Block second = o.blocks().get(1);
    assertEquals(0, first.x0(), EPS);
    assertEquals(0.5, first.x1(), EPS);
    assertEquals(0, first.y0(), EPS);
    assertEquals(1, first.y1(), EPS);
    assertEquals(1, first.part()); // index in the partition's list, which was not in time order
    assertEquals(0.5, second.x0(), EPS);
    assertEquals(1, second.x1(), EPS);
    assertNotEquals(first.colour(), second.colour());
    assertEquals(10, first.tooltip().start(), EPS);
    assertEquals(14, first.tooltip().end(), EPS);
    assertEquals("root", first.tooltip().producer());
    assertEquals(4, first.tooltip().leaves());
    assertEquals(2, first.tooltip().slices());
    assertTrue(o.producers().isEmpty());
  }

  @Test
  void stackedAmplitudeIsTheMeanOverSlicesOfTheSumOverProducers() {
    // x = 1 everywhere, y = slice index: Q(x) = 4·2/2 = 4 and Q(y) = 4·(0+1)/2 = 2 on [0,1];
    // Q(x) = 4, Q(y) = 4·(2+3)/2 = 10 on [2,3]; the tallest bar is 14.
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> u == 0 ? 1 : t);
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 0, 1), new Part(0, 2, 3)),
        ViewKind.TEMPORAL_STACKED, WINDOW, null, 140, 3);
    assertEquals(14, o.valueMax(), EPS);
    assertEquals(4, o.blocks().size());
    Block x0 = o.blocks().get(0);
    Block y0 = o.blocks().get(1);
    Block y1 = o.blocks().get(3);
    assertEquals(0, x0.type());
    assertEquals(1 - 4 / 14.0, x0.y0(), EPS);
    assertEquals(1, x0.y1(), EPS);
    assertEquals(1, y0.type());
    assertEquals(1 - 6 / 14.0, y0.y0(), EPS);
    assertEquals(1 - 4 / 14.0, y0.y1(), EPS);
    assertEquals(0, y1.y0(), EPS);
    assertEquals(1 - 4 / 14.0, y1.y1(), EPS);
    assertEquals(o.legend().get(1).colour(), y1.colour());
    assertTrue(o.blocks().stream().allMatch(b -> b.mark() == Mark.NONE));
  }

  @Test
  void thinStackedLayersAreMergedIntoOneMarkedLayerListingThem() {
    ProducerTree one = ProducerTree.flat("root", List.of("p"));
    double[] perType = {100, 0.1, 50, 0.2};
    MicroscopicModel m = model(one, 2, List.of("big", "z", "mid", "w"), (s, t, u) -> perType[u]);
    // 150.3 is the full height of 100 px: z and w would be 0.07 and 0.13 px, below 3 px.
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 0, 1)), ViewKind.TEMPORAL_STACKED,
        WINDOW, null, 100, 3);
    assertEquals(3, o.blocks().size());
    Block merged = o.blocks().get(2);
    assertEquals(Mark.MERGED, merged.mark());
    assertEquals(-1, merged.type());
    assertEquals(List.of("z", "w"), merged.tooltip().merged());
    assertEquals(0, merged.y0(), EPS);
    assertEquals(1 - 150 / 150.3, merged.y1(), EPS);
    assertEquals(List.of(0, 2), List.of(o.blocks().get(0).type(), o.blocks().get(1).type()));
  }

  @Test
  void aLoneThinLayerKeepsItsOwnColour() {
    ProducerTree one = ProducerTree.flat("root", List.of("p"));
    double[] perType = {100, 0.1, 50};
    MicroscopicModel m = model(one, 2, List.of("big", "z", "mid"), (s, t, u) -> perType[u]);
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 0, 1)), ViewKind.TEMPORAL_STACKED,
        WINDOW, null, 100, 3);
    assertEquals(3, o.blocks().size());
    assertTrue(o.blocks().stream().noneMatch(b -> b.mark() == Mark.MERGED));
    assertEquals(1, o.blocks().get(1).type());
  }

  @Test
  void temporalModeIsTheDominantTypeWithItsShareAsOpacity() {
    // On [0,1]: x = 4·2·3 = 24, y = 4·2·1 = 8, share 0.75. On [2,3] everything is 0.
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> t >= 2 ? 0 : u == 0 ? 3 : 1);
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 0, 1), new Part(0, 2, 3)),
        ViewKind.TEMPORAL_MODE, WINDOW, null, 100, 3);
    Block busy = o.blocks().get(0);
    assertEquals(0, busy.type());
    assertEquals(0.75, busy.opacity(), EPS);
    assertEquals(o.legend().get(0).colour(), busy.colour());
    assertEquals(List.of(new TypeShare("x", 24, 0.75), new TypeShare("y", 8, 0.25)), busy.tooltip().types());
    Block empty = o.blocks().get(1);
    assertEquals(-1, empty.type());
    assertEquals(0, empty.opacity(), EPS);
  }

  @Test
  void withASingleTypeModeOpacityIsTheMeanValueOverTheLargestCell() {
    // Leaf b1 (3) runs at a tenth of the others' load during slices 1-2; the largest cell is 5.
    MicroscopicModel m = model(TREE, 4, List.of("load"), (s, t, u) -> s == 3 && (t == 1 || t == 2) ? 0.5 : s == 0 ? 5 : 4);
    Overview o = OverviewGeometry.build(m, partition(new Part(3, 0, 0), new Part(4, 0, 3), new Part(2, 0, 0),
        new Part(5, 1, 3), new Part(6, 1, 2), new Part(6, 3, 3), new Part(3, 1, 3)),
        ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 400, 3);
    Block slowed = o.blocks().stream().filter(b -> b.node() == 6 && b.first() == 1).findFirst().orElseThrow();
    assertEquals(0.5 / 5, slowed.opacity(), EPS);
    Block busiest = o.blocks().stream().filter(b -> b.node() == 3 && b.first() == 0).findFirst().orElseThrow();
    assertEquals(1, busiest.opacity(), EPS);
    Block pair = o.blocks().stream().filter(b -> b.node() == 2).findFirst().orElseThrow();
    assertEquals(4.0 / 5, pair.opacity(), EPS, "B over slice 0: mean 4 over 2 leaves × 1 slice");
  }

  @Test
  void temporalViewsRejectPartsOverASubtree() {
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> OverviewGeometry.build(m, partition(new Part(1, 0, 3), new Part(2, 0, 3)),
            ViewKind.TEMPORAL_MODE, WINDOW, null, 100, 3));
    assertTrue(e.getMessage().contains("covers only A"), e.getMessage());
  }

  @Test
  void aPartitionThatDoesNotTileTheModelIsRejected() {
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> OverviewGeometry.build(m, partition(new Part(1, 0, 3), new Part(5, 0, 3)),
            ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 100, 3));
    assertTrue(e.getMessage().contains("b1, slice 0 uncovered"), e.getMessage());
  }

  // ---- spatiotemporal -------------------------------------------------------------------

  /** A: x only. b0, b1 on [0,1]: y = 3, x = 1 (b1: y = 1, x = 3). B on [2,3]: x = y = 1. */
  static MicroscopicModel spatiotemporalModel() {
    return model(TREE, 4, List.of("x", "y"), (s, t, u) -> {
      if (s < 2) {
        return u == 0 ? 2 : 0;
      }
      if (t >= 2) {
        return 1;
      }
      boolean b0 = s == 2;
      return u == 0 ? (b0 ? 1 : 3) : (b0 ? 3 : 1);
    });
  }

  static final Partition SPLIT_B = partition(new Part(1, 0, 3), new Part(5, 0, 1),
      new Part(6, 0, 1), new Part(2, 2, 3));

  @Test
  void spatiotemporalModeRectanglesCoverTheirLeavesAndSlices() {
    Overview o = OverviewGeometry.build(spatiotemporalModel(), SPLIT_B,
        ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 400, 3);
    assertEquals(4, o.blocks().size());
    Block a = find(o, 1, 0);
    assertEquals(0, a.x0(), EPS);
    assertEquals(1, a.x1(), EPS);
    assertEquals(0, a.y0(), EPS);
    assertEquals(0.5, a.y1(), EPS);
    assertEquals(0, a.type());
    assertEquals(1, a.opacity(), EPS);
    Block b0 = find(o, 5, 0);
    assertEquals(0.5, b0.y0(), EPS);
    assertEquals(0.75, b0.y1(), EPS);
    assertEquals(0.5, b0.x1(), EPS);
    assertEquals(1, b0.type());
    assertEquals(0.75, b0.opacity(), EPS);
    assertEquals("B/b0", b0.tooltip().producer(), "paths start below the root, as the filters spell them");
    Block b1 = find(o, 6, 0);
    assertEquals(0, b1.type());
    assertEquals(0.75, b1.opacity(), EPS);
    Block bLate = find(o, 2, 2);
    // x and y tie: the first type wins, share 1/2 = 1/|U|, the lowest opacity there is.
    assertEquals(0, bLate.type());
    assertEquals(0.5, bLate.opacity(), EPS);
    assertTrue(o.blocks().stream().allMatch(b -> b.mark() == Mark.NONE));
    assertEquals(7, o.producers().size(), "every node is visible at 100 px per leaf");
  }

  @Test
  void thinChildrenSharingOneTemporalPartitionAreDrawnAsTheirParentWithADiagonal() {
    // 8 px for 4 leaves: leaves are 2 px, under the 3 px threshold; A and B are 4 px.
    Overview o = OverviewGeometry.build(spatiotemporalModel(), SPLIT_B,
        ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 8, 3);
    assertEquals(3, o.blocks().size());
    Block b = find(o, 2, 0);
    assertEquals(Mark.DIAGONAL, b.mark());
    assertEquals(-1, b.part());
    assertEquals(0.5, b.y0(), EPS);
    assertEquals(1, b.y1(), EPS);
    assertEquals(0.5, b.x1(), EPS);
    assertEquals(2, b.tooltip().hiddenParts());
    // Over B × [0,1] x = 8 and y = 8: a tie, so x at share 1/2.
    assertEquals(0.5, b.opacity(), EPS);
    assertEquals(Mark.NONE, find(o, 2, 2).mark());
    AxisNode axisB = axis(o, 2);
    assertTrue(axisB.row() && axisB.collapsed());
    assertEquals(Mark.DIAGONAL, axisB.mark());
    AxisNode axisA = axis(o, 1);
    assertTrue(axisA.collapsed());
    assertEquals(Mark.NONE, axisA.mark(), "A hides no part: one part covers it");
    assertEquals(3, o.producers().size(), "root, A, B");
  }

  @Test
  void thinChildrenCutDifferentlyInTimeAreDrawnAsTheirParentWithACross() {
    Partition p = partition(new Part(1, 0, 3), new Part(5, 0, 0), new Part(5, 1, 1),
        new Part(6, 0, 1), new Part(2, 2, 3));
    Overview o = OverviewGeometry.build(spatiotemporalModel(), p,
        ViewKind.SPATIOTEMPORAL_PARTITION, WINDOW, null, 8, 3);
    Block b = find(o, 2, 0);
    assertEquals(Mark.CROSS, b.mark());
    assertEquals(1, b.last());
    assertEquals(3, b.tooltip().hiddenParts());
    assertEquals(Palette.VISUAL_AGGREGATE, b.colour());
    assertEquals(Mark.CROSS, axis(o, 2).mark());
  }

  @Test
  void aCutCommonToAllLeavesSplitsTheVisualAggregate() {
    // b0 and b1 are both cut at slice 1 and at slice 2; b1 alone at slice 3.
    Partition p = partition(new Part(1, 0, 3), new Part(5, 0, 0), new Part(6, 0, 0),
        new Part(5, 1, 3), new Part(6, 1, 2), new Part(6, 3, 3));
    Overview o = OverviewGeometry.build(spatiotemporalModel(), p,
        ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 8, 3);
    List<Block> visual = o.blocks().stream().filter(b -> b.part() < 0).toList();
    assertEquals(2, visual.size());
    assertEquals(List.of(0, 0, 1, 3), List.of(visual.get(0).first(), visual.get(0).last(),
        visual.get(1).first(), visual.get(1).last()));
    assertEquals(Mark.DIAGONAL, visual.get(0).mark());
    assertEquals(Mark.CROSS, visual.get(1).mark());
    assertEquals(2, visual.get(0).tooltip().hiddenParts());
    assertEquals(3, visual.get(1).tooltip().hiddenParts());
    assertEquals(Mark.CROSS, axis(o, 2).mark(), "the axis shows the strongest mark of the row");
  }

  @Test
  void aTallThresholdCollapsesTheRoot() {
    Overview o = OverviewGeometry.build(spatiotemporalModel(), SPLIT_B,
        ViewKind.SPATIOTEMPORAL_MODE, WINDOW, null, 8, 5);
    // Root row: A covers [0,3] for a0, a1; B's leaves are cut at 2 but A's are not.
    assertEquals(1, o.blocks().size());
    Block all = o.blocks().get(0);
    assertEquals(Mark.CROSS, all.mark());
    assertEquals(0, all.node());
    assertEquals(4, all.tooltip().hiddenParts());
    assertEquals(List.of(0), o.producers().stream().map(AxisNode::node).toList());
  }

  @Test
  void partitionViewGivesTouchingPartsDifferentColours() {
    Overview o = OverviewGeometry.build(spatiotemporalModel(), SPLIT_B,
        ViewKind.SPATIOTEMPORAL_PARTITION, WINDOW, null, 400, 3);
    List<Block> blocks = o.blocks();
    for (Block a : blocks) {
      for (Block b : blocks) {
        if (a != b && touch(a, b)) {
          assertNotEquals(a.colour(), b.colour(), a + " and " + b);
        }
      }
    }
  }

  @Test
  void traceColoursWinOverThePalette() {
    MicroscopicModel m = model(TREE, 4, List.of("x", "y"), (s, t, u) -> 1);
    List<String> trace = new ArrayList<>();
    trace.add("1 0 0");
    trace.add(null);
    Overview o = OverviewGeometry.build(m, partition(new Part(0, 0, 3)), ViewKind.TEMPORAL_MODE,
        WINDOW, trace, 100, 3);
    assertEquals("#ff0000", o.legend().get(0).colour());
    assertEquals("#ff0000", o.blocks().get(0).colour());
    assertTrue(Palette.TYPE_COLOURS.contains(o.legend().get(1).colour()));
  }

  static Block find(Overview o, int node, int first) {
    return o.blocks().stream().filter(b -> b.node() == node && b.first() == first).findFirst()
        .orElseThrow(() -> new AssertionError("no block for node " + node + " at slice " + first + " in " + o.blocks()));
  }

  static AxisNode axis(Overview o, int node) {
    return o.producers().stream().filter(a -> a.node() == node).findFirst().orElseThrow();
  }

  /** Rectangles sharing an edge of positive length. */
  static boolean touch(Block a, Block b) {
    boolean sideBySide = (Math.abs(a.x1() - b.x0()) < EPS || Math.abs(b.x1() - a.x0()) < EPS)
        && Math.min(a.y1(), b.y1()) - Math.max(a.y0(), b.y0()) > EPS;
    boolean stacked = (Math.abs(a.y1() - b.y0()) < EPS || Math.abs(b.y1() - a.y0()) < EPS)
        && Math.min(a.x1(), b.x1()) - Math.max(a.x0(), b.x0()) > EPS;
    return sideBySide || stacked;
  }
}
