package org.ocelotl.modelfile;

import java.io.IOException;

/** A model or tree file that does not follow its format; the message names file and line (or byte offset). */
public final class ModelFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public ModelFormatException(String file, long line, String problem) {
    super(file + ":" + line + ": " + problem);
  }

  public ModelFormatException(String file, String problem) {
    super(file + ": " + problem);
  }

  /** For a binary file, whose places are byte offsets: "FILE@OFFSET: problem". */
  public static ModelFormatException atOffset(String file, long offset, String problem) {
    return new ModelFormatException(file + "@" + offset, problem);
  }
}
