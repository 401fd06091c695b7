package org.ocelotl.workspace;

/**
 * How to import a trace.
 *
 * @param format  the format's name, or null to recognise it from the file's content
 * @param lenient skip malformed lines (counted and reported as warnings) instead of failing
 */
public record ImportOptions(String format, boolean lenient) {
  public static final ImportOptions DEFAULT = new ImportOptions(null, false);
}
