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
}
