package org.ocelotl.view;

/** An axis-aligned rectangle: left, top, width, height (y grows downwards). */
public record Rect(double x, double y, double w, double h) {
  public double area() {
    return w * h;
  }

  /** Longer side over shorter side (≥ 1); infinite for a degenerate rectangle. */
  public double aspect() {
    double lo = Math.min(w, h);
    return lo > 0 ? Math.max(w, h) / lo : Double.POSITIVE_INFINITY;
  }
}
