package org.ocelotl.store;

import java.io.IOException;
import java.nio.file.Path;

/** A store file that is not what this version writes: names the file, the field, expected and found. */
public final class StoreFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public StoreFormatException(Path file, String field, String expected, String found) {
    super(file + ": " + field + ": expected " + expected + ", found " + found);
  }
}
