package org.ocelotl.view;

import java.util.List;

/**
 * What a Gantt chart draws, independent of pixels (like {@link Overview}): shapes in [0, 1]²
 * (x across the window, y over the same producer rows as the overview's axis), the producer
 * axis, the legend. {@code summarised} says that some marks stand for several records (drawn
 * one per pixel column, or run of columns alike, where records crowd), which the picture must say.
 */
public record Gantt(TimeWindow window, List<AxisNode> producers, List<Shape> shapes, boolean summarised,
    List<LegendEntry> legend) {
  public Gantt {
    producers = List.copyOf(producers);
    shapes = List.copyOf(shapes);
    legend = List.copyOf(legend);
  }

  /** What a shape is. */
  public enum Kind {
    /** One state, inset by its nesting depth. */
    STATE,
    /** The states of a pixel column (or run of columns alike) of a row: the dominant type, its share as opacity. */
    SUMMARY,
    /** A punctual event: a tick (x0 = x1). */
    EVENT,
    /** A link: an arrow from (x0, y0) to (x1, y1). */
    LINK,
    /** One step of a variable: a horizontal segment at the height of its value within the row. */
    VARIABLE
  }

  /**
   * One shape, with what its hover shows.
   *
   * @param type     the event type's index in the legend (the dominant one for a summary)
   * @param records  how many records it stands for (1 but for summaries and crowded ticks)
   * @param producer the producer's path ("site/host/rank"), the row's for a summary
   * @param to       a link's destination path, else null
   * @param value    a variable's value, else NaN
   */
  public record Shape(Kind kind, double x0, double y0, double x1, double y1, String colour, double opacity, int type,
      int depth, int records, double start, double end, String producer, String to, double value) {}
}
