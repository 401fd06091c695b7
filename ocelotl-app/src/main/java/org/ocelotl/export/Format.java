package org.ocelotl.export;

import java.util.Locale;

/** Picture formats the exporters write. */
public enum Format {
  SVG,
  PNG;

  /**
   * The format named by a file's extension (.svg or .png, any case).
   *
   * @throws IllegalArgumentException for any other extension
   */
  public static Format ofFileName(String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".svg")) {
      return SVG;
    }
    if (lower.endsWith(".png")) {
      return PNG;
    }
    throw new IllegalArgumentException("cannot tell the picture format of " + fileName
        + ": expected a name ending in .svg or .png");
  }
}
