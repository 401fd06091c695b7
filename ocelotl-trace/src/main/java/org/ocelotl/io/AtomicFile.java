package org.ocelotl.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/** Output files that appear complete or not at all: written under a hidden name, then renamed. */
public final class AtomicFile {
  /** What writes the content. */
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private AtomicFile() {}

  public static void write(Path file, Content content) throws IOException {
    Path target = file.toAbsolutePath();
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      // A device or pipe (/dev/null, /dev/stdout): renaming onto it would replace it.
      try (OutputStream out = Files.newOutputStream(target)) {
        content.writeTo(out);
      }
      return;
    }
    Files.createDirectories(target.getParent());
    // Not Files.createTempFile: its owner-only permissions would stick to the result.
    Path temporary = target.resolveSibling("." + target.getFileName() + "."
        + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".part");
    try {
      try (OutputStream out = Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW)) {
        content.writeTo(out);
      }
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
