package org.ocelotl.workspace;

import org.ocelotl.trace.StateRules;

/**
 * How to import a trace.
 *
 * @param format  the format's name, or null to recognise it from the file's content
 * @param lenient skip malformed lines (counted and reported as warnings) instead of failing
 * @param states  the user's entry/exit state rules (CTF only), or null for the format's own
 */
public record ImportOptions(String format, boolean lenient, StateRules states) {
  public static final ImportOptions DEFAULT = new ImportOptions(null, false);

  public ImportOptions(String format, boolean lenient) {
    this(format, lenient, null);
  }
}
