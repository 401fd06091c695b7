package org.ocelotl.analysis;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A saved selection (docs/selections.md): a window, producers and types under a name, with a
 * note, and the rule that chose the producers when they were derived from the trace.
 *
 * @param from      window start, in the trace's unit
 * @param to        window end (exclusive)
 * @param producers names or paths of producers (with their subtrees); empty: all
 * @param types     type names or groups; empty: all
 * @param note      free text, "" when none
 * @param rule      how the producers were derived, or null when they were given
 */
public record Selection(String name, double from, double to, List<String> producers, List<String> types,
    String note, Rule rule) {
  /** Names are used on command lines and in URLs: no blanks, slashes or '|' (the API's list separator). */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:+-]{0,99}");

  public Selection {
    checkName(name);
    if (!(Double.isFinite(from) && Double.isFinite(to) && to > from)) {
      throw new IllegalArgumentException("selection '" + name + "': the window needs from < to, got [" + from + ", "
          + to + ")");
    }
    producers = List.copyOf(producers);
    types = List.copyOf(types);
    note = note == null ? "" : note;
  }

  /** @throws IllegalArgumentException naming what a selection name may hold */
  public static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("selection name '" + name + "': expected 1 to 100 letters, digits or ._:+- "
          + "starting with a letter or digit");
    }
  }

  /**
   * Refuses a selection together with any of the options it replaces: a command reads its window,
   * producers and types either from a selection or from its options, never a mix of both.
   *
   * @param given whether any of those options was given
   * @param what  how the caller spells them ("--from, --to, --producers, --types")
   */
  public static void exclusive(String selection, boolean given, String what) {
    if (selection != null && given) {
      throw new IllegalArgumentException("a selection ('" + selection + "') sets the window, producers and types: "
          + "give it or " + what + ", not both");
    }
  }

  public Selection renamed(String newName) {
    return new Selection(newName, from, to, producers, types, note, rule);
  }

  /**
   * A derived producer filter, resolved when the selection was saved: the producers it chose are
   * the selection's {@code producers}; the rule is kept to say where they came from.
   *
   * @param kind    {@code active}: producers having records of {@code types} in the window;
   *                {@code share}: producers whose share of {@code types} (one type) in the window is
   *                above {@code above}; {@code sequence}: producers on which {@code types} occur as a
   *                sequence (docs/analysis.md#sequences), the window narrowed to the occurrences
   * @param types   the rule's types (a sequence's steps, in order)
   * @param above   the share threshold in [0, 1) for {@code share}; NaN otherwise
   * @param within  the producers the rule chose among (names or paths); empty: all
   * @param longest a sequence's longest occurrence ({@code --within}), in the trace's unit; NaN: no bound,
   *                and for the other rules
   */
  public record Rule(String kind, List<String> types, double above, List<String> within, double longest) {
    public static final String ACTIVE = "active";
    public static final String SHARE = "share";
    public static final String SEQUENCE = "sequence";

    public Rule {
      types = List.copyOf(types);
      within = List.copyOf(within);
      if (!kind.equals(ACTIVE) && !kind.equals(SHARE) && !kind.equals(SEQUENCE)) {
        throw new IllegalArgumentException("rule kind: expected active, share or sequence, got '" + kind + "'");
      }
      if (types.isEmpty() || kind.equals(SHARE) && types.size() != 1) {
        throw new IllegalArgumentException(kind.equals(SHARE) ? "a share rule takes one type"
            : (kind.equals(ACTIVE) ? "an active" : "a sequence") + " rule takes at least one type");
      }
      if (kind.equals(SHARE) && !(above >= 0 && above < 1)) {
        throw new IllegalArgumentException("share threshold: expected a number in [0, 1), got " + above);
      }
      // Never written but for a share rule, so a file's would be lost on the next save (found by fuzzing).
      if (!kind.equals(SHARE) && !Double.isNaN(above)) {
        throw new IllegalArgumentException((kind.equals(ACTIVE) ? "an active" : "a sequence")
            + " rule takes no share threshold, got " + above);
      }
      if (kind.equals(SEQUENCE) ? longest < 0 : !Double.isNaN(longest)) {
        throw new IllegalArgumentException(kind.equals(SEQUENCE)
            ? "a sequence's longest occurrence: expected a duration ≥ 0, got " + longest
            : "a " + kind + " rule takes no longest occurrence, got " + longest);
      }
    }

    /** How the rule reads in a listing. */
    public String describe(Selection s) {
      String where = within.isEmpty() ? "" : " among " + String.join(",", within);
      return switch (kind) {
        case ACTIVE -> "producers with records of " + String.join(",", types) + " in [" + s.from() + ", " + s.to()
            + ")" + where;
        case SHARE -> "producers whose share of " + types.get(0) + " in [" + s.from() + ", " + s.to() + ") is above "
            + above + where;
        default -> "producers where the sequence " + String.join(",", types) + " occurs"
            + (Double.isNaN(longest) ? "" : " within " + longest) + ", the window spanning its occurrences" + where;
      };
    }
  }
}
