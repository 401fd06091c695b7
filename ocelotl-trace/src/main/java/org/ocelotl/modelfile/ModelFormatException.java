package org.ocelotl.modelfile;

import java.io.IOException;

/** A model or tree file that does not follow its format; the message names file and line. */
public final class ModelFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public ModelFormatException(String file, long line, String problem) {
    super(file + ":" + line + ": " + problem);
  }

  public ModelFormatException(String file, String problem) {
    super(file + ": " + problem);
  }
}
