package org.ocelotl.analysis;

import java.util.List;

/**
 * One parameter of a request, as every front end spells it (decision 031): declared once in
 * {@link RequestSpec}, read by the command line (its flag), the server (its URL key), the Spark
 * commands and the web page (which reads the spec from {@code /api/vocabulary}).
 *
 * @param name     the parameter's name in the docs
 * @param flags    its command-line flags, the first one shown (later ones: older spellings); empty
 *                 when the command line has no such option
 * @param keys     its URL keys, the first one written (later ones: older keys, still read so that
 *                 bookmarks keep working); empty when the API has no such parameter
 * @param type     what its value is
 * @param label    the value's placeholder in the help ("N", "P|auto")
 * @param min      the smallest number it takes (integers and numbers)
 * @param max      the largest
 * @param words    the words it takes: a choice's values, or words beside a number ("auto")
 * @param fallback the value when it is absent, as text; null when absence means "not given"
 * @param switchTo the value a command-line switch stands for (the flag takes no value), or null
 * @param doc      one line of documentation, shown by {@code --help} and in the docs' tables
 */
public record Param(String name, List<String> flags, List<String> keys, Type type, String label, double min,
    double max, List<String> words, String fallback, String switchTo, String doc) {
  /** What a parameter's value is. */
  public enum Type {
    /** An integer in [min, max], or one of the words. */
    INTEGER,
    /** A finite number in [min, max], or one of the words. */
    NUMBER,
    /** One of the words (case-insensitive). */
    CHOICE,
    /** Free text. */
    TEXT,
    /** A list of names: '|'-separated in a URL (names may hold commas), ','-separated on the command line. */
    LIST
  }

  public Param {
    flags = List.copyOf(flags);
    keys = List.copyOf(keys);
    words = List.copyOf(words);
  }

  /** The flag shown in the help and the docs, or null when the command line has none. */
  public String flag() {
    return flags.isEmpty() ? null : flags.get(0);
  }

  /** The URL key written by the page and shown in the docs, or null when the API has none. */
  public String key() {
    return keys.isEmpty() ? null : keys.get(0);
  }

  /** The same parameter with another default: one endpoint's (a treemap's 20 slices). */
  public Param defaulting(String value) {
    return new Param(name, flags, keys, type, label, min, max, words, value, switchTo, doc);
  }

  /** The same parameter with another range: what one endpoint can draw (a picture's smallest side). */
  public Param ranging(double newMin, double newMax) {
    return new Param(name, flags, keys, type, label, newMin, newMax, words, fallback, switchTo, doc);
  }

  /** The range or words it takes, as the docs and the refusals write it. */
  public String range() {
    String numbers = switch (type) {
      case INTEGER -> whole(min) + " to " + whole(max);
      case NUMBER -> "[" + whole(min) + ", " + whole(max) + "]";
      default -> "";
    };
    String choices = String.join(", ", words);
    return numbers.isEmpty() ? choices : choices.isEmpty() ? numbers : numbers + " or " + choices;
  }

  private static String whole(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
