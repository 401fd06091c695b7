package org.ocelotl.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * One fuzz target per reader (issue 14): the bytes are written as a trace file of that format and
 * imported into a store, as {@code ocelotl import} does. The property: the import succeeds, or
 * fails with the project's one format exception whose message starts with the file's path; any
 * other exception is a finding (Jazzer also reports hangs and memory beyond its limits).
 *
 * <p>{@code mvn verify} runs the inputs kept under {@code ReaderFuzzTestInputs/<target>/} (seeds cut
 * from the shared traces, and every finding, each a regression test); {@code scripts/fuzz TARGET
 * SECONDS} fuzzes one target for real.
 */
class ReaderFuzzTest {
  private static final Formats FORMATS = Formats.standard();

  @FuzzTest(maxDuration = "24h")
  void paje(byte[] data) throws IOException {
    importAs("paje", "input.trace", data);
  }

  @FuzzTest(maxDuration = "24h")
  void pajeGzip(byte[] data) throws IOException {
    importAs("paje", "input.trace.gz", data);
  }

  @FuzzTest(maxDuration = "24h")
  void pjDump(byte[] data) throws IOException {
    importAs("pjdump", "input.csv", data);
  }

  @FuzzTest(maxDuration = "24h")
  void chrome(byte[] data) throws IOException {
    importAs("chrome", "input.json", data);
  }

  @FuzzTest(maxDuration = "24h")
  void jfr(byte[] data) throws IOException {
    importAs("jfr", "input.jfr", data);
  }

  private static void importAs(String formatName, String fileName, byte[] data) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      Path file = Files.write(dir.resolve(fileName), data);
      TraceFormat format = FORMATS.named(formatName);
      try {
        Importer.importTrace(file, format, ImportOptions.DEFAULT, ImportProgress.NONE,
            Files.createDirectory(dir.resolve("store")),
            StoreWriter.DEFAULT_CHUNK_CAPACITY);
      } catch (TraceFormatException refused) {
        if (!refused.getMessage().startsWith(file.toString())) {
          throw new AssertionError("a refusal that does not name the file: " + refused.getMessage(), refused);
        }
      }
    } finally {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
