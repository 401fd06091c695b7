package org.ocelotl.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The programs some tests compare with or record traces with (pj_dump, otf2-print, babeltrace2,
 * LTTng, the OTF2 Python bindings), which scripts/install-test-deps installs. Where one is missing
 * the test is skipped, saying which package to install — and fails instead when {@value #REQUIRE}
 * is set, as scripts/test (and so CI) sets it after installing them: there a comparison cannot
 * vanish in silence.
 */
public final class InstalledTools {
  public static final String REQUIRE = "OCELOTL_REQUIRE_TOOLS";

  private InstalledTools() {}

  /** {@code program}, if it is an executable; else the test is skipped or failed (see above). */
  public static Path executable(String program, String debianPackage) {
    Path path = Path.of(program);
    require(Files.isExecutable(path), program + " (Debian package " + debianPackage + ")");
    return path;
  }

  /** {@code dir}, if it exists (a library's files); else the test is skipped or failed. */
  public static Path directory(String dir, String debianPackage) {
    Path path = Path.of(dir);
    require(Files.isDirectory(path), dir + " (Debian package " + debianPackage + ")");
    return path;
  }

  /** Skips or fails the test (see above) unless {@code present}; {@code what} names what is missing. */
  public static void require(boolean present, String what) {
    String missing = what + " is not installed: scripts/install-test-deps installs it";
    if (!present && required()) {
      fail(missing + " (" + REQUIRE + " is set)");
    }
    Assumptions.assumeTrue(present, missing);
  }

  static boolean required() {
    String value = System.getenv(REQUIRE);
    return value != null && !value.isEmpty() && !value.equals("0");
  }
}
