package org.ocelotl.analysis;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A time as a user writes it (decision 036): a bare number is in the trace's own unit and means
 * what the trace stores (an absolute time, a duration); a number with a unit suffix ({@code 150ms},
 * {@code 2.5s}, {@code 300us}, {@code 10ns}, {@code 1.5min}) is a time since the trace's start, as
 * the axes show it, or a duration. Converted in decimal, rounded once to a double: {@code 150ms} on
 * a trace in ns starting at t0 is exactly the double nearest t0 + 150 000 000.
 */
public final class TimeText {
  private TimeText() {}

  /** The suffixes, each with its length in seconds. */
  private static final Map<String, BigDecimal> SUFFIXES = Map.of("ns", new BigDecimal("1e-9"), "us",
      new BigDecimal("1e-6"), "µs", new BigDecimal("1e-6"), "ms", new BigDecimal("1e-3"), "s", BigDecimal.ONE, "min",
      new BigDecimal("60"), "h", new BigDecimal("3600"));
  /** The suffixes as a message lists them. */
  static final String SUFFIX_LIST = "ns, us, ms, s, min or h";
  /** A number, and whatever letters follow it. */
  private static final Pattern TEXT = Pattern.compile(
      "\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*(\\p{L}+)\\s*");
  /** A unit of ticks ({@code Otf2Reader.timeUnit}): ticks@N/s. */
  private static final Pattern TICKS = Pattern.compile("ticks@(\\d+)/s");

  /**
   * The trace time {@code text} names on a trace starting at {@code origin} whose times are in
   * {@code unit}; null when {@code text} has no suffix (a bare number, read by the caller).
   *
   * @throws IllegalArgumentException an unknown suffix, or a trace whose unit has no length in seconds
   */
  public static Double time(String text, double origin, String unit) {
    BigDecimal since = traceUnits(text, unit);
    return since == null ? null : new BigDecimal(origin).add(since).doubleValue();
  }

  /**
   * The trace time {@code text} names, a bare number or one with a unit suffix.
   *
   * @throws IllegalArgumentException saying what was expected and what was found
   */
  public static double parse(String text, double origin, String unit) {
    Double t = time(text, origin, unit);
    if (t != null) {
      return t;
    }
    double x;
    try {
      x = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      x = Double.NaN;
    }
    if (!Double.isFinite(x)) {
      throw new IllegalArgumentException("expected a time (a number in the trace's unit, or since the trace's start "
          + "with " + SUFFIX_LIST + "), found '" + text + "'");
    }
    return x;
  }

  /** The duration {@code text} names in trace units ({@code unit}); null for a bare number. */
  public static Double duration(String text, String unit) {
    BigDecimal d = traceUnits(text, unit);
    return d == null ? null : d.doubleValue();
  }

  private static BigDecimal traceUnits(String text, String unit) {
    Matcher m = TEXT.matcher(text);
    if (!m.matches()) {
      return null;
    }
    String suffix = m.group(2);
    BigDecimal perSuffix = SUFFIXES.get(suffix);
    if (perSuffix == null) {
      throw new IllegalArgumentException("unknown time unit '" + suffix + "' in '" + text.trim() + "': expected a "
          + "bare number (the trace's unit) or a number with " + SUFFIX_LIST + " (time since the trace's start)");
    }
    BigDecimal seconds = new BigDecimal(m.group(1)).multiply(perSuffix);
    Matcher ticks = TICKS.matcher(unit == null ? "" : unit);
    if (ticks.matches()) {
      return seconds.multiply(new BigDecimal(ticks.group(1)));
    }
    BigDecimal perUnit = SUFFIXES.get(unit == null ? "" : unit);
    if (perUnit == null) {
      throw new IllegalArgumentException("'" + text.trim() + "': this trace's times are in " + unit
          + ", which has no length in seconds; give a bare number");
    }
    return seconds.divide(perUnit, MathContext.DECIMAL128);
  }
}
