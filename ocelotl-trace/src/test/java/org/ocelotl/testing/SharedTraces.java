package org.ocelotl.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real traces the tests read: {@code $OCELOTL_TRACES}, else {@code shared/traces} in the
 * nearest directory above the working directory that has one (the repository's {@code
 * ../shared/traces} from a module, a worktree or a clone). A missing directory or file fails the
 * test: a test that reads a real trace never passes without it.
 */
public final class SharedTraces {
  public static final String VARIABLE = "OCELOTL_TRACES";

  private SharedTraces() {}

  public static Path dir() {
    String configured = System.getenv(VARIABLE);
    if (configured != null && !configured.isEmpty()) {
      Path dir = Path.of(configured).toAbsolutePath();
      return Files.isDirectory(dir) ? dir : fail(VARIABLE + "=" + configured + " is not a directory");
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("traces");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return fail("shared/traces not found above " + Path.of("").toAbsolutePath() + "; set " + VARIABLE);
  }

  /** {@code relative} under {@link #dir()}, which must exist. */
  public static Path file(String relative) {
    Path file = dir().resolve(relative);
    if (!Files.exists(file)) {
      fail("missing shared trace " + file);
    }
    return file;
  }
}
