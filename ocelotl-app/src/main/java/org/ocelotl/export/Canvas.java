package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The few drawing operations a picture needs, in pixels (origin top left), so one layout code
 * drives both the SVG and the PNG writer.
 */
interface Canvas {
  enum Anchor { START, MIDDLE, END }

  /** A filled rectangle; {@code tooltip} (may be null) becomes an SVG title, PNG ignores it. */
  void fill(double x, double y, double w, double h, String colour, double opacity, String tooltip);

  void outline(double x, double y, double w, double h, String colour, double width);

  void line(double x1, double y1, double x2, double y2, String colour, double width, boolean dashed);

  /** A line that says what it stands for where the format can (an SVG title); a plain line elsewhere. */
  default void line(double x1, double y1, double x2, double y2, String colour, double width, String tooltip) {
    line(x1, y1, x2, y2, colour, width, false);
  }

  void polyline(double[] xs, double[] ys, String colour, double width);

  /** Diagonal hatching clipped to a rectangle: the mark of merged stacked layers. */
  void hatch(double x, double y, double w, double h, String colour);

  /** Text whose baseline starts, centres or ends at (x, y). */
  void text(double x, double y, String text, double size, String colour, Anchor anchor, boolean bold);

  /** Text rotated a quarter turn anticlockwise, centred on (x, y). */
  void verticalText(double x, double y, String text, double size, String colour);

  void finish(OutputStream out) throws IOException;

  /**
   * Width of a text in pixels, estimated (DejaVu Sans averages about 0.6 em per character):
   * layout must not depend on the output format, and SVG has no font metrics to ask.
   */
  static double textWidth(String text, double size) {
    return text.length() * size * 0.6;
  }
}
