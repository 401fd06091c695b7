package org.ocelotl.query;

import java.util.regex.Pattern;

/**
 * A regular expression found in the names and values of one selection, within a time bound.
 * {@code java.util.regex} backtracks: an expression such as {@code (.*a){12}$} takes years on a
 * name of a hundred a's and a b, and nothing can interrupt it, so it would hold the thread — a
 * server worker — for that long. The text matched is therefore read through a
 * {@link CharSequence} that looks at the clock every {@value #CHECK_EVERY} characters read and
 * throws once the selection's matching has taken longer than {@link #SLACK_NANOS} plus
 * {@link #PER_TEXT_NANOS} for every text matched: a backtracking expression is stopped within
 * about a second, while a plain one (well under a microsecond for a name or a value) never meets
 * the bound, however many texts a large trace has it match.
 *
 * <p>One per selection, used by one thread.
 */
final class BoundedMatch {
  /** The time matching may take beyond its allowance per text. */
  static final long SLACK_NANOS = 1_000_000_000L;
  /** The allowance per text matched: some hundred times what a plain expression takes. */
  static final long PER_TEXT_NANOS = 10_000L;
  /** Characters read between two looks at the clock: microseconds of matching. */
  private static final int CHECK_EVERY = 4096;

  static final String TOO_SLOW = "match: the regular expression took more than 1 s on the trace's names and values: it "
      + "backtracks (a repetition inside a repetition, such as (.*a){12}, can take years on a long name); "
      + "write it without nested repetitions";

  private final Pattern pattern;
  /** Nanoseconds spent matching so far, and allowed in all. */
  private long spent;
  private long allowed = SLACK_NANOS;

  BoundedMatch(Pattern pattern) {
    this.pattern = pattern;
  }

  /**
   * Whether the expression is found in {@code text}.
   *
   * @throws IllegalArgumentException ({@link #TOO_SLOW}) when the selection's matching passes its bound
   */
  boolean find(String text) {
    allowed += PER_TEXT_NANOS;
    long start = System.nanoTime();
    try {
      return pattern.matcher(new Timed(text, start + allowed - spent)).find();
    } finally {
      spent += System.nanoTime() - start;
    }
  }

  /** A text whose reader is stopped once {@code deadline} (of {@link System#nanoTime}) is past. */
  private static final class Timed implements CharSequence {
    private final String text;
    private final long deadline;
    private int reads;

    Timed(String text, long deadline) {
      this.text = text;
      this.deadline = deadline;
    }

    @Override
    public char charAt(int index) {
      if (++reads % CHECK_EVERY == 0 && System.nanoTime() - deadline > 0) {
        throw new IllegalArgumentException(TOO_SLOW);
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
