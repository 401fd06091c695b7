package org.ocelotl.view;

/** The window [start, end) of a model in the trace's own time unit (e.g. "s", "ns", "cycles"). */
public record TimeWindow(double start, double end, String unit) {
  public TimeWindow {
    if (!(end > start) || Double.isInfinite(start) || Double.isInfinite(end)) {
      throw new IllegalArgumentException("a time window needs finite start < end, got [" + start + ", " + end + ")");
    }
  }

  /** The time at a fraction x ∈ [0, 1] of the window. */
  public double at(double x) {
    return start + x * (end - start);
  }

  /** The start time of slice i of n equal slices. */
  public double sliceStart(int i, int slices) {
    return at((double) i / slices);
  }
}
