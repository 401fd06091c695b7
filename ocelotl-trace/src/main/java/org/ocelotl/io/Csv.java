package org.ocelotl.io;

/**
 * The one CSV quoting rule of every CSV Ocelotl writes (the analysis service's tables, the event
 * table, the statistics, the model files): RFC 4180, a field in double quotes, its quotes doubled,
 * when it holds a comma, a quote or a line break, or is empty (so that an empty name is not read
 * as a missing field). pj_dump's CSV is pj_dump's own layout, written as pj_dump writes it.
 */
public final class Csv {
  private Csv() {}

  public static String field(String text) {
    if (!text.isEmpty() && text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0
        && text.indexOf('\r') < 0) {
      return text;
    }
    return '"' + text.replace("\"", "\"\"") + '"';
  }
}
