package org.ocelotl.format;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/** The real traces of the project (shared/traces beside the repository, or $OCELOTL_TRACES). */
public final class SharedTraces {
  private SharedTraces() {}

  public static Path dir() {
    String configured = System.getenv("OCELOTL_TRACES");
    if (configured != null) {
      return Path.of(configured);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("traces");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return fail("shared/traces not found above " + Path.of("").toAbsolutePath()
        + "; set OCELOTL_TRACES");
  }

  public static Path file(String relative) {
    Path file = dir().resolve(relative);
    if (!Files.exists(file)) {
      fail("missing shared trace " + file);
    }
    return file;
  }
}
