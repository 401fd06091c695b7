package org.ocelotl.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ocelotl.format.ctf.CtfReaders;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * One fuzz target per reader (issue 14): the bytes are written as a trace file of that format and
 * imported as {@code ocelotl import} does, through {@link Importer}. The property: the import
 * succeeds, or fails with the project's one format exception whose message starts with the path
 * of a file of the trace; any other exception is a finding, and so are a hang and an
 * out-of-memory ({@code scripts/fuzz} sets the time limit per input and the heap).
 *
 * <p>While fuzzing, the reader writes into {@link StoreWriter#discarding}: the store writer's own
 * checks, without its files and thread, which made an input cost about 3 ms. {@code mvn verify}
 * runs the inputs kept under {@code ReaderFuzzTestInputs/<target>/} (seeds cut from the shared
 * traces, and every finding) and imports each a second time into a real store on disk, which
 * must end the same way: so the kept inputs show that the fast writer refuses what the real one
 * refuses.
 */
class ReaderFuzzTest {
  private static final Formats FORMATS = Formats.standard();
  /** Records per chunk: small, so that small inputs fill chunks and hand them off too. */
  private static final int CHUNK_CAPACITY = 64;
  /** In regression mode only ({@code JAZZER_FUZZ} unset), each input is imported into a real store too. */
  private static final boolean FUZZING = System.getenv("JAZZER_FUZZ") != null
      && !System.getenv("JAZZER_FUZZ").isEmpty();
  /** One directory per JVM: an input rewrites its file, no per-input setup. */
  private static final Path DIR = temporaryDirectory();
  /**
   * Separates the files of an OTF2 input: anchor, global definitions, then sections
   * "NAME\0BYTES" for the files of the archive's directory (e.g. "0.evt").
   */
  private static final byte[] FILE_MARK = "\n@@file@@\n".getBytes(StandardCharsets.US_ASCII);
  private static final Pattern ARCHIVE_FILE = Pattern.compile("[0-9]{1,20}\\.(evt|def)");
  /**
   * What a refusal must say: the path of a file of the trace (every one lies in DIR) first; for the
   * readers that know where they are at every refusal, the line or byte offset next ("FILE:LINE: …",
   * "FILE@OFFSET: …"), but for their refusals of the whole file, listed. Chrome, JFR and OTF2 may
   * name the file alone: Chrome and JFR declare producers and write records once the whole file
   * is read, JFR's parsing is the JDK's, and OTF2 declares producers once its definitions are read.
   */
  private static final Pattern ANYWHERE = Pattern.compile(Pattern.quote(DIR.toString()) + "/.*", Pattern.DOTALL);
  private static final Pattern PLACED = placed();
  private static final Pattern PAJE = placed("not a Pajé trace: binary data", "the file ends inside the definition of ",
      "empty trace: ");
  /** The gzip data's refusals: its ratio is the whole file's (the message says the decompressed bytes). */
  private static final Pattern PAJE_GZIP = placed("not a Pajé trace: binary data",
      "the file ends inside the definition of ", "empty trace: ", "truncated gzip data: ", "corrupt gzip data ",
      "the gzip data expands more than ");

  @FuzzTest(maxDuration = "24h")
  void paje(byte[] data) throws IOException {
    importAs("paje", write("input.trace", data), PAJE);
  }

  @FuzzTest(maxDuration = "24h")
  void pajeGzip(byte[] data) throws IOException {
    importAs("paje", write("input.trace.gz", data), PAJE_GZIP);
  }

  @FuzzTest(maxDuration = "24h")
  void pjDump(byte[] data) throws IOException {
    importAs("pjdump", write("input.csv", data), PLACED);
  }

  @FuzzTest(maxDuration = "24h")
  void chrome(byte[] data) throws IOException {
    importAs("chrome", write("input.json", data), ANYWHERE);
  }

  @FuzzTest(maxDuration = "24h")
  void jfr(byte[] data) throws IOException {
    importAs("jfr", write("input.jfr", data), ANYWHERE);
  }

  /** The bytes as a Perfetto trace file; seeded with PerfettoReaderTest's drawn example. */
  @FuzzTest(maxDuration = "24h")
  void perfetto(byte[] data) throws IOException {
    importAs("perfetto", write("input.pftrace", data), ANYWHERE);
  }

  /**
   * The bytes as the stream file of a CTF trace beside the metadata of the shared LTTng trace
   * (a copy kept beside this class), imported through that metadata. The metadata, which every
   * input shares, is written and parsed once ({@link CtfTraces#STREAM}): its parse was most of an
   * input's cost. In {@code mvn verify} the real store's import parses it from its file, as
   * {@code ocelotl import} does, and must end the same way.
   */
  @FuzzTest(maxDuration = "24h")
  void ctfStream(byte[] data) throws IOException {
    Files.write(CtfTraces.STREAM.resolve("channel0_0"), data);
    importAs(CtfTraces.STREAM_FORMAT, CtfTraces.STREAM.resolve("metadata"), PLACED);
  }

  /**
   * The bytes as the metadata (TSDL, packetized or not) of two stream files cut from the shared
   * LTTng trace (the first events of each CPU's first packet: every event class it has), written once.
   */
  @FuzzTest(maxDuration = "24h")
  void ctfMetadata(byte[] data) throws IOException {
    importAs(FORMATS.named("ctf"), Files.write(CtfTraces.METADATA.resolve("metadata"), data), PLACED);
  }

  /** The CTF targets' trace directories in DIR, made once per JVM. */
  private static final class CtfTraces {
    static final Path STREAM;
    static final TraceFormat STREAM_FORMAT;
    static final Path METADATA;

    static {
      try {
        STREAM = Files.createDirectory(DIR.resolve("ctfStream"));
        Path metadata = Files.write(STREAM.resolve("metadata"), resource("lttng-ust-metadata"));
        TraceFormat ctf = FORMATS.named("ctf");
        TraceReader reader = CtfReaders.withMetadataOf(metadata);
        STREAM_FORMAT = new TraceFormat(ctf.name(), ctf.description(), () -> reader, ctf.recognizes());
        METADATA = Files.createDirectory(DIR.resolve("ctfMetadata"));
        Files.write(METADATA.resolve("channel0_0"), resource("lttng-ust-stream-cpu0"));
        Files.write(METADATA.resolve("channel0_1"), resource("lttng-ust-stream-cpu1"));
      } catch (IOException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private static byte[] resource(String name) throws IOException {
      try (var in = ReaderFuzzTest.class.getResourceAsStream(name)) {
        return in.readAllBytes();
      }
    }
  }

  /**
   * An OTF2 archive: the bytes are split at {@link #FILE_MARK} into the anchor file, the global
   * definitions and the named files of the archive's directory; a name that is not an OTF2 file
   * name of a location drops its section (the reader then finds a file missing, as in a truncated copy).
   */
  @FuzzTest(maxDuration = "24h")
  void otf2(byte[] data) throws IOException {
    Path archive = DIR.resolve("input");
    clear(archive);
    Files.createDirectories(archive);
    byte[][] parts = split(data);
    Path anchor = write("input.otf2", parts[0]);
    write("input.def", parts.length > 1 ? parts[1] : new byte[0]);
    for (int i = 2; i < parts.length; i++) {
      int nul = indexOf(parts[i], (byte) 0);
      String name = nul < 0 ? "" : new String(parts[i], 0, nul, StandardCharsets.ISO_8859_1);
      if (ARCHIVE_FILE.matcher(name).matches()) {
        Files.write(archive.resolve(name), Arrays.copyOfRange(parts[i], nul + 1, parts[i].length));
      }
    }
    importAs("otf2", anchor, ANYWHERE);
  }

  /** A file of DIR then its line or offset, or one of {@code wholeFile} after the file alone. */
  private static Pattern placed(String... wholeFile) {
    String file = Pattern.quote(DIR.toString()) + "/[^:@]*";
    StringBuilder any = new StringBuilder(file + "(:[0-9]+|@[0-9]+): .*");
    for (String refusal : wholeFile) {
      any.append('|').append(file).append(": ").append(Pattern.quote(refusal)).append(".*");
    }
    return Pattern.compile(any.toString(), Pattern.DOTALL);
  }

  static byte[][] split(byte[] data) {
    List<byte[]> parts = new ArrayList<>();
    int from = 0;
    for (int at = find(data, 0); at >= 0; at = find(data, from)) {
      parts.add(Arrays.copyOfRange(data, from, at));
      from = at + FILE_MARK.length;
    }
    parts.add(Arrays.copyOfRange(data, from, data.length));
    return parts.toArray(new byte[0][]);
  }

  private static int find(byte[] data, int from) {
    outer:
    for (int i = from; i <= data.length - FILE_MARK.length; i++) {
      for (int j = 0; j < FILE_MARK.length; j++) {
        if (data[i + j] != FILE_MARK[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static int indexOf(byte[] data, byte b) {
    for (int i = 0; i < data.length; i++) {
      if (data[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static Path write(String name, byte[] data) throws IOException {
    return Files.write(DIR.resolve(name), data);
  }

  private static void importAs(String formatName, Path file, Pattern refusal) throws IOException {
    importAs(FORMATS.named(formatName), file, refusal);
  }

  /** Through {@code fuzzed}, a reader of the format or a faster equivalent; the real store's import through the format's own. */
  private static void importAs(TraceFormat fuzzed, Path file, Pattern refusal) throws IOException {
    TraceFormat format = FORMATS.named(fuzzed.name());
    String outcome = outcome(file, fuzzed, StoreWriter.discarding(CHUNK_CAPACITY), refusal);
    if (!FUZZING) {
      Path store = Files.createTempDirectory(DIR, "store");
      try {
        assertEquals(outcome, outcome(file, format, new StoreWriter(store, CHUNK_CAPACITY), refusal),
            "the real store writer ends otherwise than the discarding one");
      } finally {
        clear(store);
      }
    }
  }

  /**
   * "imported N records" or the refusal's message, which must match {@code refusal}; anything else
   * escapes as a finding.
   */
  private static String outcome(Path file, TraceFormat format, StoreWriter writer, Pattern refusal) throws IOException {
    try {
      StoreMetadata metadata = Importer.importTrace(file, format, ImportOptions.DEFAULT,
          ImportProgress.NONE, writer);
      return "imported " + Arrays.toString(metadata.counts()) + ", " + metadata.producers().size() + " producers, "
          + metadata.types().size() + " types, " + metadata.warnings().size() + " warnings";
    } catch (TraceFormatException refused) {
      if (!refusal.matcher(refused.getMessage()).matches()) {
        throw new AssertionError("a refusal that does not name the file, and the line or offset where its reader "
            + "knows one: " + refused.getMessage(), refused);
      }
      return refused.getMessage();
    }
  }

  private static Path temporaryDirectory() {
    try {
      Path dir = Files.createTempDirectory("ocelotl-fuzz");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          clear(dir);
        } catch (IOException ignored) {
          // a temporary directory left behind is harmless
        }
      }));
      return dir;
    } catch (IOException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static void clear(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
