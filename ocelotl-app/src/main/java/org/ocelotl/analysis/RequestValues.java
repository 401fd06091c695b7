package org.ocelotl.analysis;

import java.util.List;
import java.util.Locale;

/**
 * The values of one request, read by the {@link RequestSpec}: one reading for every front end, so
 * that a range, a default or a refusal is the same on the command line and in a URL. Only where the
 * text comes from, and how the user spelt the parameter, differ ({@link Source}).
 *
 * <p>Refusals are {@link IllegalArgumentException}s naming the parameter as the user spelt it,
 * what was expected and what was found: the command line prints them as one line, the server
 * answers them with 400.
 */
public final class RequestValues {
  /** Where the text of a request's values comes from: a URL's query, a parsed command line. */
  public interface Source {
    /** The text given for {@code p}, null when it is absent. */
    String value(Param p);

    /** The items given for the list {@code p}, empty when it is absent. */
    List<String> items(Param p);

    /** How the user spells {@code p} in a message: "parameter 'slices'" or "--slices". */
    String spelling(Param p);
  }

  private final Source source;
  private final List<Param> params;

  /** The values of {@code source} for a request taking {@code params} (whose defaults apply). */
  public RequestValues(Source source, List<Param> params) {
    this.source = source;
    this.params = params;
  }

  /** Whether this request takes {@code p} at all. */
  public boolean takes(Param p) {
    return params.stream().anyMatch(q -> q.name().equals(p.name()));
  }

  /** Whether the user gave {@code p}. */
  public boolean given(Param p) {
    return p.type() == Param.Type.LIST ? !source.items(p).isEmpty() : source.value(own(p)) != null;
  }

  /** The text of {@code p}: its value, or its default (null when it has none). */
  public String text(Param p) {
    Param q = own(p);
    String value = source.value(q);
    return value == null || value.isEmpty() ? q.fallback() : value;
  }

  /** One of the words of {@code p}, in lower case. */
  public String choice(Param p) {
    String value = text(p);
    String lower = value == null ? null : value.toLowerCase(Locale.ROOT);
    if (lower == null || !own(p).words().contains(lower)) {
      throw refusal(p, "expected one of " + String.join(", ", own(p).words()) + ", found '" + value + "'");
    }
    return lower;
  }

  /** An integer in the range of {@code p}; {@code ifWord} where the value is one of its words. */
  public int integer(Param p, int ifWord) {
    String value = text(p);
    if (value == null) {
      throw refusal(p, "missing");
    }
    if (own(p).words().contains(value.toLowerCase(Locale.ROOT))) {
      return ifWord;
    }
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw refusal(p, "expected " + (own(p).words().isEmpty() ? "an integer" : "an integer or "
          + String.join(", ", own(p).words())) + ", found '" + value + "'");
    }
    if (n < own(p).min() || n > own(p).max()) {
      throw refusal(p, "expected " + own(p).range() + ", found " + n);
    }
    return n;
  }

  /** An integer in the range of {@code p}, which takes no words. */
  public int integer(Param p) {
    return integer(p, 0);
  }

  /** An integer, or {@code absent} when {@code p} is not given and has no default. */
  public int integerOr(Param p, int absent) {
    return text(p) == null ? absent : integer(p, absent);
  }

  /** A finite number in the range of {@code p}, or NaN when it is absent (or one of its words). */
  public double number(Param p) {
    String value = text(p);
    if (value == null || own(p).words().contains(value.toLowerCase(Locale.ROOT))) {
      return Double.NaN;
    }
    double x;
    try {
      x = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw refusal(p, "expected a number" + (own(p).min() > -Double.MAX_VALUE ? " in " + own(p).range() : "")
          + ", found '" + value + "'");
    }
    if (!Double.isFinite(x)) {
      throw refusal(p, "expected a finite number, found '" + value + "'");
    }
    if (x < own(p).min() || x > own(p).max()) {
      throw refusal(p, "expected a number in " + own(p).range() + ", found " + value);
    }
    return x;
  }

  /**
   * A time of a trace starting at {@code origin} in {@code unit}, or NaN when {@code p} is absent:
   * a bare number in the trace's unit, or a time since the trace's start with a unit suffix
   * ({@link TimeText}).
   */
  public double time(Param p, double origin, String unit) {
    String value = text(p);
    Double t;
    try {
      t = value == null ? null : TimeText.time(value, origin, unit);
    } catch (IllegalArgumentException e) {
      throw refusal(p, e.getMessage());
    }
    return t != null ? t : number(p);
  }

  /** A duration in {@code unit}, or NaN when {@code p} is absent: a bare number, or one with a unit suffix. */
  public double duration(Param p, String unit) {
    String value = text(p);
    Double d;
    try {
      d = value == null ? null : TimeText.duration(value, unit);
    } catch (IllegalArgumentException e) {
      throw refusal(p, e.getMessage());
    }
    return d != null ? d : number(p);
  }

  /** The names of the list {@code p}, empty when absent. */
  public List<String> list(Param p) {
    return source.items(own(p));
  }

  /** A refusal of {@code p}'s value: "SPELLING: WHAT". */
  public IllegalArgumentException refusal(Param p, String what) {
    return new IllegalArgumentException(source.spelling(own(p)) + ": " + what);
  }

  /** How the user spells {@code p}. */
  public String spelling(Param p) {
    return source.spelling(own(p));
  }

  /** {@code p} as this request declares it (with its own default). */
  private Param own(Param p) {
    return RequestSpec.in(params, p);
  }
}
