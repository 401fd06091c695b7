package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Fuzz target for a selections file (issue 14), as {@code ocelotl selection import FILE} reads it:
 * the file is imported into the selections of a small trace and read back, or refused with an
 * {@link IllegalArgumentException} (the CLI's and the API's "bad input") whose message starts with
 * the file's path; any other exception is a finding, and so is a selection that does not read
 * back as it was imported. The trace (the bundled {@code examples/smpi_sizes.trace}) is imported
 * once per JVM; each input starts from no saved selections.
 */
class SelectionFileFuzzTest {
  private static final Path TRACE = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_sizes.trace")
      .normalize();
  private static SelectionFile selections;
  private static Path exported;

  @FuzzTest(maxDuration = "24h")
  void selections(byte[] data) throws IOException {
    SelectionFile file = selections();
    Files.deleteIfExists(file.file());
    Files.write(exported, data);
    try {
      List<Selection> imported = file.importFrom(exported);
      assertEquals(imported.stream().sorted(java.util.Comparator.comparing(Selection::name)).toList(), file.list(),
          "the selections read back");
    } catch (IllegalArgumentException refused) {
      if (!refused.getMessage().startsWith(exported.toString())) {
        throw new AssertionError("a refusal that does not name the file: " + refused.getMessage(), refused);
      }
    }
  }

  private static SelectionFile selections() throws IOException {
    if (selections == null) {
      Path dir = Files.createTempDirectory("ocelotl-fuzz");
      Workspace workspace = Workspace.open(dir.resolve("workspace"));
      TraceStore store = workspace.importTrace(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE);
      selections = SelectionFile.of(workspace, store);
      exported = dir.resolve("exported.json");
    }
    return selections;
  }
}
