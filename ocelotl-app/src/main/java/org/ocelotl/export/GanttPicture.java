package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.export.Canvas.Anchor;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.view.AxisNode;
import org.ocelotl.view.Gantt;
import org.ocelotl.view.LegendEntry;
import org.ocelotl.view.Tick;
import org.ocelotl.view.Ticks;
import org.ocelotl.view.TimeScale;

/**
 * A Gantt chart as a picture: title and caption, the producer rows (the overview's), states,
 * summary marks, event ticks, link arrows and variable steps from the {@link Gantt} geometry, a
 * time axis since the trace's start, the legend. The geometry is computed for the chart area of
 * this picture, so a pixel column of the geometry is a pixel here.
 */
public final class GanttPicture {
  static final double MARGIN = 16;
  static final double LABELS = 170;
  /** The width of one level of group brackets in the label column. */
  private static final double BRACKET_COLUMN = 16;
  static final double LEGEND = 190;
  static final double TOP = 64;
  static final double BOTTOM = 46;
  private static final String INK = "#222222";
  private static final String GREY = "#666666";
  private static final String FRAME = "#999999";

  private GanttPicture() {}

  /** The chart area of a picture of this size: what the geometry must be computed for. */
  static int chartWidth(int width) {
    return (int) Math.max(10, width - 2 * MARGIN - LABELS - LEGEND);
  }

  static int chartHeight(int height) {
    return (int) Math.max(10, height - TOP - BOTTOM - MARGIN);
  }

  /**
   * What hovering a mark shows: the record (or what a summary stands for), times since the start.
   * Concatenated rather than formatted: a chart holds tens of thousands of them.
   */
  static String hover(Gantt.Shape s, Gantt g, TimeScale scale) {
    String type = g.legend().get(s.type()).name();
    String times = "[" + OverviewPicture.number(scale.at(s.start())) + ", " + OverviewPicture.number(scale.at(s.end()))
        + ") " + scale.unit();
    String lasts = OverviewPicture.number((s.end() - s.start()) * scale.factor()) + " " + scale.unit();
    return switch (s.kind()) {
      case SUMMARY -> s.producer() + " · " + s.records() + " records in " + times + " · mostly " + type + " ("
          + Decimals.fixed(100 * s.opacity(), 0) + "% of the time)";
      case EVENT -> s.producer() + " · " + type + " · "
          + (s.records() == 1 ? "one event" : s.records() + " events in this pixel column");
      case LINK -> s.producer() + " → " + s.to() + " · " + type + " · "
          + (s.records() == 1 ? "one link" : s.records() + " links between these rows and pixel columns");
      case VARIABLE -> s.producer() + " · " + type + " = " + OverviewPicture.number(s.value()) + " · " + times
          + " · lasts " + lasts;
      case STATE -> s.producer() + " · " + type + " · " + times + " · lasts " + lasts + " · depth " + s.depth();
    };
  }

  /**
   * The picture of a chart whose geometry was computed for its request's width × height: the chart
   * area is that size, a pixel of the geometry a pixel here, and the picture adds the producer
   * labels, the axis, the legend and the caption around it.
   */
  public static void render(GanttView.Result r, Format format, OutputStream out) throws IOException {
    render(r.gantt(), r.timeScale(), r.trace().name(), r.records(), r.fromSummary(), format, pictureWidth(r.request().width()),
        pictureHeight(r.request().height()), out);
  }

  public static void write(GanttView.Result r, Path file) throws IOException {
    Format format = Format.ofFileName(file.getFileName().toString());
    AtomicFile.write(file, out -> render(r, format, out));
  }

  /** The width of the picture around a chart area this wide: the inverse of {@link #chartWidth}. */
  static int pictureWidth(int chartWidth) {
    return (int) (chartWidth + 2 * MARGIN + LABELS + LEGEND);
  }

  static int pictureHeight(int chartHeight) {
    return (int) (chartHeight + TOP + BOTTOM + MARGIN);
  }

  /**
   * The producer axis: each row named (a row standing for several leaves with their count), the
   * groups above the rows as brackets with their names, one column per level, so that rows of
   * different hosts or clusters are never read as one list.
   */
  private static void drawProducers(Canvas c, List<AxisNode> producers, double left, double top, double w, double h) {
    int levels = 0;
    for (AxisNode a : producers) {
      if (!a.row() && a.depth() >= 1) {
        levels = Math.max(levels, a.depth());
      }
    }
    // The brackets take at most half the label column: deeper levels than that go unnamed.
    int columns = (int) Math.min(levels, LABELS / 2 / BRACKET_COLUMN);
    double labelWidth = LABELS - 10 - columns * BRACKET_COLUMN;
    for (AxisNode a : producers) {
      double y0 = top + a.y0() * h;
      double y1 = top + a.y1() * h;
      if (a.row()) {
        if (y1 - y0 >= 9) {
          String name = a.collapsed() ? a.name() + " (" + a.leaves() + ")" : a.name();
          c.text(left - 6, (y0 + y1) / 2 + 4, OverviewPicture.fit(name, labelWidth, 10.5), 10.5, INK, Anchor.END,
              false);
        }
        c.line(left, y1, left + w, y1, "#eeeeee", 1, false);
      } else if (a.depth() >= 1 && a.depth() <= columns) {
        double x = MARGIN + (a.depth() - 1) * BRACKET_COLUMN + 4;
        c.line(x, y0 + 2, x, y1 - 2, GREY, 1.5, false);
        c.line(x, y0 + 2, x + 4, y0 + 2, GREY, 1.5, false);
        c.line(x, y1 - 2, x + 4, y1 - 2, GREY, 1.5, false);
        String name = OverviewPicture.fit(a.name(), y1 - y0 - 8, 10);
        if (!name.isEmpty()) {
          c.verticalText(x + 9, (y0 + y1) / 2, name, 10, INK);
        }
      }
    }
  }

  /** Draws the chart {@code g} (computed for {@link #chartWidth} × {@link #chartHeight} of this size). */
  static void render(Gantt g, TimeScale scale, String traceName, long records, GanttView.FromSummary fromSummary,
      Format format, int width,
      int height, OutputStream out) throws IOException {
    Canvas c = format == Format.SVG ? new SvgCanvas(width, height) : new PngCanvas(width, height);
    double left = MARGIN + LABELS;
    double top = TOP;
    double w = chartWidth(width);
    double h = chartHeight(height);
    c.text(MARGIN, MARGIN + 14, traceName + " — Gantt chart", 16, INK, Anchor.START, true);
    List<String> caption = new ArrayList<>();
    caption.add(String.format(Locale.ROOT, "window [%s, %s) %s since the start", OverviewPicture.number(scale.at(g.window().start())),
        OverviewPicture.number(scale.at(g.window().end())), scale.unit()));
    caption.add(String.format(Locale.ROOT, "%,d records", records));
    if (fromSummary != null) {
      caption.add(fromSummary.caption());
    } else if (g.summarised()) {
      caption.add("SUMMARISED: crowded pixel columns are one mark each, alike neighbours joined (dominant type; share = opacity)");
    }
    c.text(MARGIN, MARGIN + 34, String.join(" · ", caption), 12, g.summarised() ? "#b3261e" : GREY, Anchor.START, false);
    drawProducers(c, g.producers(), left, top, w, h);
    for (Gantt.Shape s : g.shapes()) {
      double x0 = left + s.x0() * w;
      double x1 = left + s.x1() * w;
      double y0 = top + s.y0() * h;
      double y1 = top + s.y1() * h;
      switch (s.kind()) {
        case STATE, SUMMARY -> c.fill(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0), s.colour(), s.opacity(),
            hover(s, g, scale));
        case EVENT -> c.line(x0, y0, x0, y1, s.colour(), 1.5, hover(s, g, scale));
        case LINK -> {
          c.line(x0, y0, x1, y1, s.colour(), 1, hover(s, g, scale));
          double angle = Math.atan2(y1 - y0, x1 - x0);
          c.line(x1, y1, x1 - 6 * Math.cos(angle - 0.4), y1 - 6 * Math.sin(angle - 0.4), s.colour(), 1, false);
          c.line(x1, y1, x1 - 6 * Math.cos(angle + 0.4), y1 - 6 * Math.sin(angle + 0.4), s.colour(), 1, false);
        }
        case VARIABLE -> c.line(x0, y0, x1, y1, s.colour(), 1.5, hover(s, g, scale));
        default -> throw new AssertionError(s.kind());
      }
    }
    c.outline(left, top, w, h, FRAME, 1);
    int maxTicks = (int) Math.max(2, w / 90);
    for (Tick t : Ticks.nice(scale.at(g.window().start()), scale.at(g.window().end()), maxTicks)) {
      double x = left + t.at() * w;
      c.line(x, top + h, x, top + h + 4, FRAME, 1, false);
      c.text(x, top + h + 16, t.label(), 10.5, INK, Anchor.MIDDLE, false);
    }
    c.text(left + w / 2, top + h + 33, "time since the trace's start (" + scale.unit() + ")", 11, GREY, Anchor.MIDDLE, false);
    double lx = left + w + 18;
    c.text(lx, top + 10, "Event types", 11, INK, Anchor.START, true);
    double ly = top + 28;
    for (LegendEntry e : g.legend()) {
      c.fill(lx, ly - 9, 10, 10, e.colour(), 1, null);
      c.text(lx + 16, ly, OverviewPicture.fit(e.name(), LEGEND - 30, 11), 11, INK, Anchor.START, false);
      ly += 16;
    }
    c.finish(out);
  }
}
