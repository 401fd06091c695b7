package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/** Refusals of a selections file found by fuzzing (SelectionFileFuzzTest), each with its exact message. */
class SelectionFileTest {
  private static final Path FILE = Path.of("s.json");

  /** Input not-utf8: it was the decoder's "Input length = 1", naming neither file nor place. */
  @Test
  void bytesThatAreNotUtf8AreNamedByTheirOffset() {
    byte[] bytes = {'{', '"', 'f', 'o', 'r', 'm', 'a', 't', '"', ':', ' ', '"', (byte) 0xFF, '"', '}'};
    assertEquals("s.json: not a selections file: expected UTF-8 text, found a byte that is not at offset 12",
        assertThrows(IllegalArgumentException.class, () -> SelectionFile.parse(FILE, bytes, null)).getMessage());
  }

  /** Input unknown-type: the refusal of a name the trace lacks did not say which file held it. */
  @Test
  void anImportedSelectionNamingATypeTheTraceLacksNamesTheFile(@TempDir Path dir) throws Exception {
    Workspace workspace = Workspace.open(dir.resolve("ws"));
    TraceStore store = workspace.importTrace(Path.of(System.getProperty("user.dir")).resolve(
        "../examples/smpi_sizes.trace").normalize(), ImportOptions.DEFAULT, ImportProgress.NONE);
    Path exported = Files.writeString(dir.resolve("e.json"), "{\"format\": \"ocelotl-selections\", \"version\": 1,"
        + " \"selections\": [{\"name\": \"busy\", \"from\": 0, \"to\": 1, \"types\": [\"PMPI_Waitalh\"]}]}");
    assertEquals(exported + ": selection 'busy': unknown type 'PMPI_Waitalh' in smpi_sizes.trace",
        assertThrows(IllegalArgumentException.class, () -> SelectionFile.of(workspace, store).importFrom(exported))
            .getMessage());
  }

  /** Input active-rule-threshold: the threshold was read, never written, so lost on the next save. */
  @Test
  void anActiveRuleWithAShareThresholdIsRefused() {
    byte[] bytes = ("{\"format\": \"ocelotl-selections\", \"version\": 1, \"selections\": [{\"name\": \"busy\","
        + " \"from\": 0, \"to\": 1, \"rule\": {\"kind\": \"active\", \"types\": [\"computing\"], \"above\": 1.5}}]}")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals("s.json: not a selections file: selections[0]: an active rule takes no share threshold, got 1.5",
        assertThrows(IllegalArgumentException.class, () -> SelectionFile.parse(FILE, bytes, null)).getMessage());
  }
}
