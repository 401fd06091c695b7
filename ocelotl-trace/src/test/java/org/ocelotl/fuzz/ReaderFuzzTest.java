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

  /**
   * The bytes as the stream file of a CTF trace beside the metadata of the shared LTTng trace
   * (a copy kept beside this class), imported through that metadata.
   */
  @FuzzTest(maxDuration = "24h")
  void ctfStream(byte[] data) throws IOException {
    ctf(resource("lttng-ust-metadata"), data);
  }

  /** The bytes as the metadata (TSDL, packetized or not) of the shared LTTng trace's first stream file. */
  @FuzzTest(maxDuration = "24h")
  void ctfMetadata(byte[] data) throws IOException {
    ctf(data, resource("lttng-ust-stream"));
  }

  private static byte[] resource(String name) throws IOException {
    try (var in = ReaderFuzzTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private static void ctf(byte[] metadata, byte[] stream) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      Files.write(dir.resolve("channel0_0"), stream);
      importInto(dir, "ctf", Files.write(dir.resolve("metadata"), metadata));
    } finally {
      delete(dir);
    }
  }

  private static void importAs(String formatName, String fileName, byte[] data) throws IOException {
    Path dir = Files.createTempDirectory("ocelotl-fuzz");
    try {
      importInto(dir, formatName, Files.write(dir.resolve(fileName), data));
    } finally {
      delete(dir);
    }
  }

  /** A refusal must name a file of the trace: the one given, or (CTF) a stream file beside it. */
  private static void importInto(Path dir, String formatName, Path file) throws IOException {
    TraceFormat format = FORMATS.named(formatName);
    try {
      Importer.importTrace(file, format, ImportOptions.DEFAULT, ImportProgress.NONE,
          Files.createDirectory(dir.resolve("store")),
          StoreWriter.DEFAULT_CHUNK_CAPACITY);
    } catch (TraceFormatException refused) {
      String named = formatName.equals("ctf") ? dir.toString() : file.toString();
      if (!refused.getMessage().startsWith(named)) {
        throw new AssertionError("a refusal that does not name the file: " + refused.getMessage(), refused);
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
