package org.ocelotl.trace;

import java.util.function.LongConsumer;

/**
 * How to read a trace.
 *
 * @param lenient   skip malformed lines (counting them by kind and reporting the counts as
 *                  sink warnings) instead of failing on the first one
 * @param bytesRead told, from time to time, how many bytes of the source have been consumed
 *                  (for progress bars); never on every line
 * @param states    which events open and close states, for formats whose states are event pairs (CTF)
 */
public record ReadOptions(boolean lenient, LongConsumer bytesRead, StateRules states) {
  public static final ReadOptions STRICT = new ReadOptions(false, bytes -> { });

  /** With the default state rules. */
  public ReadOptions(boolean lenient, LongConsumer bytesRead) {
    this(lenient, bytesRead, StateRules.DEFAULT);
  }
}
