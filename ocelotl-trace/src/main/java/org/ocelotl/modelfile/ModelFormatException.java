package org.ocelotl.modelfile;

import java.io.IOException;

/** A model or tree file that does not follow its format; the message names file and line (or byte offset). */
public final class ModelFormatException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String file;
  /** The line at fault, 0 when the message names none. */
  private final long line;
  private final String problem;

  public ModelFormatException(String file, long line, String problem) {
    super(file + ":" + line + ": " + problem);
    this.file = file;
    this.line = line;
    this.problem = problem;
  }

  public ModelFormatException(String file, String problem) {
    super(file + ": " + problem);
    this.file = file;
    this.line = 0;
    this.problem = problem;
  }

  /**
   * The same problem {@code lines} lines further down: a part of a file read on its own numbers
   * its lines from 1 (CsvCells).
   */
  ModelFormatException linesLater(long lines) {
    return line == 0 || lines == 0 ? this : new ModelFormatException(file, line + lines, problem);
  }

  /** For a binary file, whose places are byte offsets: "FILE@OFFSET: problem". */
  public static ModelFormatException atOffset(String file, long offset, String problem) {
    return new ModelFormatException(file + "@" + offset, problem);
  }
}
