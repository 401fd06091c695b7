package org.ocelotl.trace;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Malformed input. The message is meant for the analyst as it is: the file, where in it
 * (line, or byte offset for binary formats), and what was expected instead of what was found.
 */
public final class TraceFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public TraceFormatException(String message) {
    super(message);
  }

  /** "FILE:LINE: WHAT\n  LINE_TEXT" — the layout compilers use, so editors can jump to it. */
  public static TraceFormatException atLine(Path file, long line, String what, String text) {
    return atLine(file.toString(), line, what, text);
  }

  /** As {@link #atLine(Path, long, String, String)}, the file named by a string (a URI, for a trace on HDFS). */
  public static TraceFormatException atLine(String file, long line, String what, String text) {
    return new TraceFormatException(file + ":" + line + ": " + what
        + (text == null ? "" : "\n  " + abbreviate(text)));
  }

  /** "FILE@OFFSET: WHAT" for binary formats. */
  public static TraceFormatException atOffset(Path file, long offset, String what) {
    return atOffset(file.toString(), offset, what);
  }

  /** As {@link #atOffset(Path, long, String)}, the file named by a string (a URI, for a trace on HDFS). */
  public static TraceFormatException atOffset(String file, long offset, String what) {
    return new TraceFormatException(file + "@" + offset + ": " + what);
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
