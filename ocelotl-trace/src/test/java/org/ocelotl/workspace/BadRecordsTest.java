package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.trace.TraceFormatException;

/**
 * Records that end before they start, or whose numbers are not finite, fail the import with a
 * message naming the file and the record, and leave no store behind (issue 14: they used to leave
 * a store that no command could open). One small input per reader that could let one through.
 */
class BadRecordsTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "neg.json|[{\"name\":\"a\",\"ph\":\"X\",\"ts\":10,\"dur\":-5,\"pid\":1,\"tid\":1}]"
          + "|neg.json: a state of tid 1 (a) ends before it starts: [10.0, 5.0]",
      "reversed.csv|Container, 0, P, 0, 9, 9, p1\\nState, p1, S, 5.0, 2.0, -3.0, 0, run"
          + "|reversed.csv:2: a state of p1 (run) ends before it starts: [5.0, 2.0]⏎State, p1, S, 5.0, 2.0, -3.0, 0, run",
      "infinite.csv|Container, 0, P, 0, 9, 9, p1\\nState, p1, S, 1.0, Infinity, 1, 0, run"
          + "|infinite.csv:2: expected a finite number (time), found \"Infinity\"⏎State, p1, S, 1.0, Infinity, 1, 0, run",
      "deep.csv|Container, 0, P, 0, 9, 9, p1\\nState, p1, S, 1.0, 2.0, 1, 1e20, run"
          + "|deep.csv:2: expected a nesting depth (imbrication: an integer ≥ 0), found \"1e20\"⏎State, p1, S, 1.0, 2.0, 1, 1e20, run",
      "negative.csv|Container, 0, P, 0, 9, 9, p1\\nState, p1, S, 1.0, 2.0, 1, -7, run"
          + "|negative.csv:2: expected a nesting depth (imbrication: an integer ≥ 0), found \"-7\"⏎State, p1, S, 1.0, 2.0, 1, -7, run",
  })
  void theImportFailsNamingTheRecordAndLeavesNoStore(String name, String content, String message) throws IOException {
    Path trace = tmp.resolve(name);
    Files.writeString(trace, content.replace("\\n", "\n"));
    Workspace workspace = Workspace.open(tmp.resolve("ws"));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> workspace.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE));
    // ⏎: the line quoted under the message, indented
    assertEquals(tmp.resolve(name) + message.substring(name.length()).replace("⏎", "\n  "), e.getMessage());
    try (Stream<Path> stores = Files.list(workspace.directory().resolve(Workspace.TRACES))) {
      assertEquals(0, stores.count(), "nothing left behind");
    }
  }

  /** Bytes that are not UTF-8 are named by their line, not by the decoder's "Input length = 1". */
  @org.junit.jupiter.api.Test
  void aPjDumpFileWithBytesThatAreNotUtf8NamesTheirLine() throws IOException {
    Path trace = tmp.resolve("latin.csv");
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.writeBytes("Container, 0, P, 0, 9, 9, p1\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    for (int i = 0; i < 500; i++) { // more than the reader's read-ahead
      bytes.writeBytes("State, p1, S, 1.0, 2.0, 1, 0, run\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    bytes.writeBytes(new byte[] {'S', 't', 'a', 't', 'e', ',', ' ', (byte) 0xff, '\n'});
    Files.write(trace, bytes.toByteArray());
    Workspace workspace = Workspace.open(tmp.resolve("ws"));
    assertEquals(trace + ":502: expected UTF-8 text, found bytes that are not", assertThrows(TraceFormatException.class,
        () -> workspace.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE)).getMessage());
  }
}
