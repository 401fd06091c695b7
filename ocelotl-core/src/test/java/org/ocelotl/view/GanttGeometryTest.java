package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.ProducerTree;

/**
 * Exact Gantt geometry on a drawn example, 10 pixels over [0, 10) s, rows tall enough:
 * <pre>
 *   root ─ A ─ a0   run [0, 4) with send [1, 2) nested; a link to B [2.2, 8.7)
 *            └ a1   run [5, 5.05), wait [5.05, 5.1): narrower than a pixel, summarised
 *        └ B        two events at 7.3 and 7.6 (one pixel column); a variable = 3 on [0, 10)
 * </pre>
 */
class GanttGeometryTest {
  static final double EPS = 1e-12;
  static final ProducerTree TREE = new ProducerTree(new String[] {"root", "A", "a0", "a1", "B"},
      new int[] {-1, 0, 1, 1, 0});
  static final List<String> TYPES = List.of("run", "send", "wait", "tick", "msg", "load");

  static Gantt gantt(double height) {
    GanttGeometry g = new GanttGeometry(TREE, TYPES, null, new TimeWindow(0, 10, "s"), 10, height, 4);
    g.add(EventCategory.STATE, 0, 0, 0, 4, 0, Double.NaN, -1);
    g.add(EventCategory.STATE, 0, 1, 1, 2, 1, Double.NaN, -1);
    g.add(EventCategory.STATE, 1, 0, 5, 5.05, 0, Double.NaN, -1);
    g.add(EventCategory.STATE, 1, 2, 5.05, 5.1, 0, Double.NaN, -1);
    g.add(EventCategory.EVENT, 2, 3, 7.3, 7.3, 0, Double.NaN, -1);
    g.add(EventCategory.EVENT, 2, 3, 7.6, 7.6, 0, Double.NaN, -1);
    g.add(EventCategory.LINK, 0, 4, 2.2, 8.7, 0, Double.NaN, 2);
    g.add(EventCategory.VARIABLE, 2, 5, 0, 6, 0, 3, -1);
    g.add(EventCategory.VARIABLE, 2, 5, 6, 10, 0, 1.5, -1);
    return g.build();
  }

  static Gantt.Shape only(Gantt g, Gantt.Kind kind, int type) {
    List<Gantt.Shape> found = g.shapes().stream().filter(s -> s.kind() == kind && s.type() == type).toList();
    assertEquals(1, found.size(), kind + " " + TYPES.get(type) + ": " + found);
    return found.get(0);
  }

  @Test
  void statesAreDrawnAsThemselvesInsetByDepth() {
    Gantt g = gantt(300);
    Gantt.Shape run = g.shapes().stream().filter(s -> s.kind() == Gantt.Kind.STATE && s.type() == 0).findFirst().get();
    assertEquals(0, run.x0(), EPS);
    assertEquals(0.4, run.x1(), EPS);
    assertEquals(0, run.y0(), EPS);
    assertEquals(1.0 / 3, run.y1(), EPS);
    assertEquals("A/a0", run.producer());
    Gantt.Shape send = only(g, Gantt.Kind.STATE, 1);
    assertEquals(0.1, send.x0(), EPS);
    assertEquals(0.2, send.x1(), EPS);
    assertEquals(0.15 / 3, send.y0(), EPS);
    assertEquals(1.0 / 3 - 0.15 / 3, send.y1(), EPS);
    assertEquals(1, send.depth());
  }

  @Test
  void statesNarrowerThanAPixelAreOneSummaryMarkSaidSo() {
    Gantt g = gantt(300);
    assertTrue(g.summarised());
    Gantt.Shape summary = only(g, Gantt.Kind.SUMMARY, 0);
    assertEquals(0.5, summary.x0(), EPS);
    assertEquals(0.6, summary.x1(), EPS);
    assertEquals(1.0 / 3, summary.y0(), EPS);
    assertEquals(2.0 / 3, summary.y1(), EPS);
    assertEquals(0.5, summary.opacity(), 1e-9, "run and wait share the column equally: run, the first, dominates");
    assertEquals(2, summary.records());
    assertEquals("A/a1", summary.producer());
  }

  @Test
  void eventsLinksAndVariables() {
    Gantt g = gantt(300);
    Gantt.Shape tick = only(g, Gantt.Kind.EVENT, 3);
    assertEquals(0.75, tick.x0(), EPS);
    assertEquals(2, tick.records(), "two events in one pixel column: one tick that says 2");
    Gantt.Shape arrow = only(g, Gantt.Kind.LINK, 4);
    assertEquals(0.25, arrow.x0(), EPS);
    assertEquals(0.85, arrow.x1(), EPS);
    assertEquals(1.0 / 6, arrow.y0(), EPS);
    assertEquals(5.0 / 6, arrow.y1(), EPS);
    assertEquals("A/a0", arrow.producer());
    assertEquals("B", arrow.to());
    List<Gantt.Shape> steps = g.shapes().stream().filter(s -> s.kind() == Gantt.Kind.VARIABLE).toList();
    assertEquals(2, steps.size(), "one segment per value held over neighbouring pixel columns: " + steps);
    assertEquals(1 - 0.9 / 3, steps.get(0).y0(), EPS, "the variable's maximum near the top of its row");
    assertEquals(3, steps.get(0).value(), 0);
    assertEquals(0, steps.get(0).x0(), EPS);
    assertEquals(0.6, steps.get(0).x1(), EPS);
    assertEquals(6, steps.get(0).end(), 0);
    assertEquals(1 - 0.45 / 3, steps.get(1).y0(), EPS, "half the maximum: half way up");
    assertEquals(0.6, steps.get(1).x0(), EPS);
    assertEquals(1, steps.get(1).x1(), EPS);
    assertEquals(1.5, steps.get(1).value(), 0);
  }

  @Test
  void rowsTooThinAreTheOverviewsAggregatedRows() {
    // root ─ A ─ a0…a3, B ─ b0…b3 in 24 px: 3 px a leaf, so A and B (12 px) are the rows
    ProducerTree tree = new ProducerTree(new String[] {"root", "A", "a0", "a1", "a2", "a3", "B", "b0", "b1", "b2", "b3"},
        new int[] {-1, 0, 1, 1, 1, 1, 0, 6, 6, 6, 6});
    GanttGeometry g = new GanttGeometry(tree, TYPES, null, new TimeWindow(0, 10, "s"), 10, 24, 4);
    g.add(EventCategory.STATE, 1, 0, 0, 5, 0, Double.NaN, -1);
    Gantt gantt = g.build();
    assertFalse(gantt.producers().stream().anyMatch(a -> a.name().equals("a1") && a.row()), "a1 is not a row");
    assertTrue(gantt.producers().stream().anyMatch(a -> a.name().equals("A") && a.row()), "A is the row");
    assertTrue(gantt.shapes().stream().noneMatch(s -> s.kind() == Gantt.Kind.STATE), "A's states are summarised");
    assertEquals(1, gantt.shapes().size(), "the five pixel columns of [0, 5) look the same: one mark");
    Gantt.Shape mark = gantt.shapes().get(0);
    assertEquals(0, mark.x0(), EPS);
    assertEquals(0.5, mark.x1(), EPS);
    assertEquals(1, mark.records(), "one state, counted once though it spans five columns");
    assertEquals(1, mark.opacity(), EPS);
    assertTrue(gantt.summarised());
  }

  /** Neighbouring columns are one mark only when they look the same: dominant type and opacity. */
  @Test
  void summaryMarksSpanTheColumnsThatLookTheSame() {
    ProducerTree tree = new ProducerTree(new String[] {"root", "A", "a0", "a1", "a2", "a3", "B", "b0", "b1", "b2", "b3"},
        new int[] {-1, 0, 1, 1, 1, 1, 0, 6, 6, 6, 6});
    GanttGeometry g = new GanttGeometry(tree, TYPES, null, new TimeWindow(0, 10, "s"), 10, 24, 4);
    g.add(EventCategory.STATE, 0, 0, 0, 4, 0, Double.NaN, -1); // a0: type 0 over columns 0-3
    g.add(EventCategory.STATE, 1, 1, 2, 4, 0, Double.NaN, -1); // a1: type 1 over columns 2-3
    g.add(EventCategory.STATE, 2, 1, 5, 6, 0, Double.NaN, -1); // a2: type 1 alone in column 5
    g.add(EventCategory.STATE, 3, 0, 7, 7, 0, Double.NaN, -1); // a3: an instant in column 7
    List<Gantt.Shape> marks = g.build().shapes();
    assertEquals(4, marks.size(), marks.toString());
    assertEquals(List.of(0.0, 0.2, 0.5, 0.7), marks.stream().map(m -> Math.round(m.x0() * 10) / 10.0).toList());
    assertEquals(List.of(0.2, 0.4, 0.6, 0.8), marks.stream().map(m -> Math.round(m.x1() * 10) / 10.0).toList());
    assertEquals(List.of(1.0, 0.5, 1.0, 1.0), marks.stream().map(Gantt.Shape::opacity).toList(),
        "columns 2-3 are half type 0, half type 1: another mark than columns 0-1");
    assertEquals(List.of(0, 0, 1, 0), marks.stream().map(Gantt.Shape::type).toList());
    assertEquals(List.of(1, 1, 1, 1), marks.stream().map(Gantt.Shape::records).toList(),
        "each state counted once, in the column it starts in");
  }

  @Test
  void whatIsKeptIsBoundedByThePixelsNotTheRecords() {
    GanttGeometry g = new GanttGeometry(TREE, TYPES, null, new TimeWindow(0, 10, "s"), 100, 300, 4);
    for (int i = 0; i < 200_000; i++) {
      double t = i * 10.0 / 200_000;
      g.add(EventCategory.STATE, 1, i % 3, t, t + 10.0 / 200_000, 0, Double.NaN, -1);
      g.add(EventCategory.EVENT, 2, 3, t, t, 0, Double.NaN, -1);
    }
    Gantt gantt = g.build();
    assertTrue(gantt.shapes().size() <= 2 * 100, gantt.shapes().size() + " shapes for 400,000 records");
  }

  /**
   * Geometries fed the records of disjoint rows merge into the chart one geometry fed them all
   * draws, shape for shape and in order: seeded records of every kind on a tree of 40 leaves in
   * rows of one and of several leaves, split into 1 to 5 parts of contiguous rows as GanttView
   * splits them.
   */
  @Test
  void geometriesOfDisjointRowsMergeIntoTheSameChart() {
    String[] names = new String[45];
    int[] parents = new int[45];
    names[0] = "root";
    parents[0] = -1;
    for (int h = 0; h < 4; h++) {
      names[1 + h] = "h" + h;
      parents[1 + h] = 0;
    }
    for (int r = 0; r < 40; r++) {
      names[5 + r] = "r" + r;
      parents[5 + r] = 1 + r % 4;
    }
    ProducerTree tree = new ProducerTree(names, parents);
    java.util.Random random = new java.util.Random(33);
    for (int round = 0; round < 30; round++) {
      double height = round % 2 == 0 ? 400 : 60; // a row per leaf, or per host
      List<double[]> records = new java.util.ArrayList<>();
      for (int i = 0; i < 600; i++) {
        double start = random.nextDouble() * 10;
        int kind = random.nextInt(4);
        records.add(new double[] {kind, random.nextInt(40), random.nextInt(TYPES.size()), start,
            kind == 1 ? start : start + random.nextDouble() * (random.nextBoolean() ? 0.05 : 3), random.nextInt(2),
            random.nextInt(5), random.nextInt(40)});
      }
      GanttGeometry one = new GanttGeometry(tree, TYPES, null, new TimeWindow(0, 10, "s"), 50, height, 4);
      records.forEach(r -> feed(one, r));
      int parts = 1 + round % 5;
      List<GanttGeometry> split = new java.util.ArrayList<>();
      for (int k = 0; k < parts; k++) {
        split.add(new GanttGeometry(tree, TYPES, null, new TimeWindow(0, 10, "s"), 50, height, 4));
      }
      for (double[] r : records) {
        GanttGeometry g = split.get(0);
        feed(split.get(g.rowOfLeaf((int) r[1]) * parts / g.rowCount()), r);
      }
      for (GanttGeometry g : split.subList(1, parts)) {
        split.get(0).merge(g);
      }
      assertEquals(one.build().shapes(), split.get(0).build().shapes(), "round " + round + ", " + parts + " parts");
    }
  }

  private static void feed(GanttGeometry g, double[] r) {
    EventCategory kind = EventCategory.values()[(int) r[0]];
    g.add(kind, (int) r[1], (int) r[2], r[3], r[4], kind == EventCategory.STATE ? (int) r[5] : 0, r[6],
        kind == EventCategory.LINK ? (int) r[7] : -1);
  }
}
