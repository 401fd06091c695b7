package org.ocelotl.view;

import java.util.List;

/**
 * How times are shown to a reader: relative to the trace's start ({@code origin}), in a unit
 * that suits the span on screen (ns … s, min, h), whatever unit the trace stores. A time t of
 * the trace reads {@code (t − origin) × factor} {@code unit}. Traces in a unit this does not
 * know (ticks, slices) keep it, relative to their start.
 *
 * @param origin the trace's start, in the trace's unit
 * @param factor trace units → display units
 * @param unit   the display unit
 */
public record TimeScale(double origin, double factor, String unit) {
  /** Display units, smallest first, each with its length in seconds. */
  private record Unit(String name, double seconds) {}

  private static final List<Unit> UNITS = List.of(new Unit("ns", 1e-9), new Unit("µs", 1e-6), new Unit("ms", 1e-3),
      new Unit("s", 1), new Unit("min", 60), new Unit("h", 3600));

  /**
   * The scale for a window of {@code span} trace units: below 10 minutes, the largest of ns, µs,
   * ms, s in which the span is at least 1 (0 to 850 ms, not 0 to 0.85 s; 0 to 13.56 s); then
   * minutes up to 10 hours, then hours.
   */
  public static TimeScale of(String traceUnit, double origin, double span) {
    Unit unit = unitNamed(traceUnit);
    if (unit == null || !(span > 0)) {
      return new TimeScale(origin, 1, traceUnit);
    }
    double seconds = span * unit.seconds();
    Unit best = UNITS.get(0);
    if (seconds >= 36_000) {
      best = UNITS.get(5);
    } else if (seconds >= 600) {
      best = UNITS.get(4);
    } else {
      for (Unit candidate : UNITS.subList(0, 4)) {
        if (seconds >= candidate.seconds()) {
          best = candidate;
        }
      }
    }
    return new TimeScale(origin, unit.seconds() / best.seconds(), best.name());
  }

  /** The display value of a trace time. */
  public double at(double traceTime) {
    return (traceTime - origin) * factor;
  }

  /**
   * The length of one unit of a trace in seconds: ns … h, "us" for µs, and OTF2's
   * "ticks@N/s" (docs/formats.md); NaN for a unit that names no length.
   */
  public static double secondsPerUnit(String traceUnit) {
    if (traceUnit != null && traceUnit.startsWith("ticks@") && traceUnit.endsWith("/s")) {
      try {
        return 1 / Double.parseDouble(traceUnit.substring("ticks@".length(), traceUnit.length() - "/s".length()));
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    Unit unit = unitNamed(traceUnit);
    return unit == null ? Double.NaN : unit.seconds();
  }

  private static Unit unitNamed(String name) {
    String n = name == null ? "" : name.equals("us") ? "µs" : name;
    for (Unit unit : UNITS) {
      if (unit.name().equals(n)) {
        return unit;
      }
    }
    return null;
  }
}
