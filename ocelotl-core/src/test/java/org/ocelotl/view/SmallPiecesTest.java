package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;

/** Quality curves, ticks, palette, view names. */
class SmallPiecesTest {
  static final double EPS = 1e-12;

  static Breakpoint breakpoint(double p, double gain, double loss, int parts) {
    List<Part> list = IntStream.range(0, parts).mapToObj(t -> new Part(0, t, t)).toList();
    return new Breakpoint(p, new Partition(list, gain, loss));
  }

  @Test
  void qualityCurvesAreStepsNormalisedByTheirValuesAtOne() {
    QualityCurves q = QualityCurves.of(List.of(breakpoint(0, 0, 0, 4), breakpoint(0.3, 5, 1, 2),
        breakpoint(0.7, 10, 4, 1)), 0.5);
    assertEquals(List.of(new QualityCurves.Step(0, 0.3, 0), new QualityCurves.Step(0.3, 0.7, 0.5),
        new QualityCurves.Step(0.7, 1, 1)), q.gain());
    assertEquals(List.of(new QualityCurves.Step(0, 0.3, 0), new QualityCurves.Step(0.3, 0.7, 0.25),
        new QualityCurves.Step(0.7, 1, 1)), q.loss());
    assertEquals(List.of(0.0, 0.3, 0.7), q.breakpoints());
    assertEquals(1, q.chosen());
    assertEquals(0.5, q.chosenGain(), EPS);
    assertEquals(0.25, q.chosenLoss(), EPS);
    assertEquals(2, QualityCurves.of(q.gain().isEmpty() ? List.of() : List.of(breakpoint(0, 0, 0, 4),
        breakpoint(0.3, 5, 1, 2), breakpoint(0.7, 10, 4, 1)), 0.7).chosen(), "p on a breakpoint picks it");
  }

  @Test
  void qualityCurvesOfAModelWithNothingToGainStayAtZero() {
    QualityCurves q = QualityCurves.of(List.of(breakpoint(0, 0, 0, 1)), 0.5);
    assertEquals(0, q.chosenGain(), EPS);
    assertEquals(0, q.chosenLoss(), EPS);
  }

  @Test
  void qualityCurvesRejectUnsortedBreakpoints() {
    assertThrows(IllegalArgumentException.class,
        () -> QualityCurves.of(List.of(breakpoint(0.5, 0, 0, 1), breakpoint(0.2, 1, 1, 1)), 0.5));
  }

  @Test
  void ticksAreNiceValuesInsideTheRange() {
    assertEquals(List.of("0", "2", "4", "6", "8", "10"),
        Ticks.nice(0, 10, 6).stream().map(Tick::label).toList());
    assertEquals(List.of("0.2", "0.4", "0.6", "0.8"),
        Ticks.nice(0.13, 0.87, 5).stream().map(Tick::label).toList());
    Tick first = Ticks.nice(0.13, 0.87, 5).get(0);
    assertEquals((0.2 - 0.13) / (0.87 - 0.13), first.at(), 1e-9);
    assertEquals(List.of("0", "5e8", "1e9", "1.5e9", "2e9", "2.5e9", "3e9"),
        Ticks.nice(0, 3.2e9, 8).stream().map(Tick::label).toList());
    assertEquals(List.of("1e-5", "2e-5"), Ticks.nice(0.5e-5, 2.4e-5, 3).stream().map(Tick::label).toList());
  }

  @Test
  void paletteIsStableDistinctAndKeepsNeighboursApart() {
    List<String> types = IntStream.range(0, 24).mapToObj(i -> "MPI_Type" + i).toList();
    List<String> colours = Palette.typeColours(types, null);
    assertEquals(colours, Palette.typeColours(types, null));
    assertEquals(24, new HashSet<>(colours).size());
    for (int u = 1; u < types.size() - 1; u++) { // the last slots may have no other choice left
      int a = Palette.TYPE_COLOURS.indexOf(colours.get(u - 1));
      int b = Palette.TYPE_COLOURS.indexOf(colours.get(u));
      assertNotEquals(a % 12, b % 12, "types " + (u - 1) + " and " + u + " share a hue");
    }
    assertEquals(Palette.typeColours(List.of("Compute"), null).get(0),
        Palette.typeColours(List.of("Compute", "Wait"), null).get(0), "a type's colour does not depend on later types");
    List<String> many = IntStream.range(0, 30).mapToObj(i -> "t" + i).toList();
    assertEquals(30, Palette.typeColours(many, null).size());
  }

  @Test
  void traceColoursWinUnlessTheyWouldHideTheirType() {
    // SimGrid's variables: speed and bandwidth both white, speed_used and bandwidth_used both grey.
    List<String> types = List.of("speed", "speed_used", "bandwidth", "bandwidth_used", "computing");
    List<String> colours = Palette.typeColours(types, List.of("1 1 1", "0.5 0.5 0.5", "1 1 1", "0.5 0.5 0.5", "0 1 1"));
    // Issue 15: a grey type read as a visual aggregate, and a grey heatmap as nothing at all.
    assertTrue(Palette.TYPE_COLOURS.contains(colours.get(1)), "grey belongs to visual aggregates: a palette colour");
    assertTrue(Palette.grey("#808080") && !Palette.grey("#000000") && !Palette.grey("#00ffff"));
    assertEquals("#00ffff", colours.get(4), "a distinct, visible trace colour is kept");
    assertTrue(Palette.TYPE_COLOURS.contains(colours.get(0)), "white is replaced by a palette colour");
    assertTrue(Palette.TYPE_COLOURS.contains(colours.get(2)));
    assertTrue(Palette.TYPE_COLOURS.contains(colours.get(3)), "the second grey would look like the first");
    assertEquals(5, new java.util.HashSet<>(colours).size(), "every type has its own colour: " + colours);
  }

  @Test
  void traceColoursAreParsedAndCheckedStrictly() {
    assertEquals("#ff8000", Palette.parseTraceColour("1.0 0.5 0", "Run"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Palette.parseTraceColour("255 0 0", "Run"));
    assertTrue(e.getMessage().contains("colour of type Run"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Palette.parseTraceColour("red", "Run"));
  }

  @Test
  void viewKindsAreNamedByAggregationAndView() {
    assertEquals(ViewKind.TEMPORAL_STACKED, ViewKind.of("temporal", "stacked"));
    assertEquals(ViewKind.SPATIOTEMPORAL_MODE, ViewKind.of("Spatiotemporal", "MODE"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ViewKind.of("spatiotemporal", "stacked"));
    assertTrue(e.getMessage().contains("spatiotemporal has partition, mode"), e.getMessage());
  }
}
