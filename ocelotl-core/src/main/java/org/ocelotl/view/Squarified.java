package org.ocelotl.view;

/**
 * The squarified treemap layout of Bruls, Huizing and van Wijk (2000): the items fill a
 * rectangle in rows laid along its shorter side; an item joins the current row while that
 * does not worsen the row's worst aspect ratio, else the row is closed and the rest of the
 * rectangle is filled the same way. Areas are exactly proportional to the values.
 *
 * <p>The items are taken in the order given. The original sorts them by decreasing value; the
 * treemap passes the order of the whole window so that stepping through time keeps each node
 * near its place (see {@link TreemapGeometry}).
 */
public final class Squarified {
  private Squarified() {}

  /**
   * One rectangle per value, in the same order; values of 0 get an empty rectangle at the
   * corner of the space left.
   *
   * @throws IllegalArgumentException for a negative or non-finite value
   */
  public static Rect[] layout(double[] values, Rect space) {
    double total = 0;
    for (double v : values) {
      if (!(v >= 0) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("treemap values must be finite and ≥ 0, got " + v);
      }
      total += v;
    }
    Rect[] result = new Rect[values.length];
    if (total == 0) {
      for (int i = 0; i < values.length; i++) {
        result[i] = new Rect(space.x(), space.y(), 0, 0);
      }
      return result;
    }
    double scale = space.area() / total; // area per unit of value
    double x = space.x();
    double y = space.y();
    double w = space.w();
    double h = space.h();
    int start = 0;
    double rowSum = 0;
    for (int i = 0; i < values.length; i++) {
      double area = values[i] * scale;
      double side = Math.min(w, h);
      if (i > start && worst(values, start, i + 1, rowSum + area, scale, side)
          > worst(values, start, i, rowSum, scale, side)) {
        Rect left = place(values, start, i, rowSum, scale, x, y, w, h, result);
        x = left.x();
        y = left.y();
        w = left.w();
        h = left.h();
        start = i;
        rowSum = 0;
      }
      rowSum += area;
    }
    place(values, start, values.length, rowSum, scale, x, y, w, h, result);
    return result;
  }

  /** The worst aspect ratio of the items [from, to) laid as one row of the given area along a side. */
  private static double worst(double[] values, int from, int to, double rowArea, double scale, double side) {
    double max = 0;
    double min = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      double a = values[i] * scale;
      if (a > 0) {
        max = Math.max(max, a);
        min = Math.min(min, a);
      }
    }
    if (max == 0) {
      return 0;
    }
    double s2 = rowArea * rowArea;
    double w2 = side * side;
    return Math.max(w2 * max / s2, s2 / (w2 * min));
  }

  /** Lays the row [from, to) along the shorter side and returns the rectangle left. */
  private static Rect place(double[] values, int from, int to, double rowArea, double scale,
      double x, double y, double w, double h, Rect[] result) {
    if (w >= h) { // a column on the left, items stacked downwards
      double thick = h > 0 ? Math.min(w, rowArea / h) : 0; // rounding must not overflow the last row
      double cy = y;
      for (int i = from; i < to; i++) {
        double len = thick > 0 ? values[i] * scale / thick : 0;
        result[i] = new Rect(x, cy, thick, i == to - 1 && thick > 0 ? y + h - cy : len);
        cy += len;
      }
      return new Rect(x + thick, y, Math.max(0, w - thick), h);
    }
    double thick = w > 0 ? Math.min(h, rowArea / w) : 0; // a row on top, items left to right
    double cx = x;
    for (int i = from; i < to; i++) {
      double len = thick > 0 ? values[i] * scale / thick : 0;
      result[i] = new Rect(cx, y, i == to - 1 && thick > 0 ? x + w - cx : len, thick);
      cx += len;
    }
    return new Rect(x, y + thick, w, Math.max(0, h - thick));
  }
}
