package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;

/**
 * Golden files of the formats Ocelotl writes: store format v4 (docs/store-format.md) and model
 * cache v3, for the contract trace of {@link ImporterContractTest} imported with chunks of 4
 * records (so that every category has several chunks). Any change of a byte fails here and must
 * be made on purpose: bump the format's version, then rewrite the goldens with
 * {@code -Dgolden.update=true} and review them. The committed goldens must also still open and
 * read back as the trace (or the model) they hold.
 *
 * <p>What varies between machines is left out, and only that: the trace file's path and date
 * in the store metadata, and the store identity (a hash of them) in a model cache file.
 */
class GoldenFilesTest {
  static final int CHUNK_CAPACITY = 4;
  static final List<String> STORE_FILES =
      List.of("metadata.json", "states.chunks", "events.chunks", "variables.chunks", "links.chunks");
  static final ModelRequest MODEL = ModelRequest.of(Metric.STATE_DURATION, 5);
  /** Byte offset of the store identity in a model cache file (ModelCacheFile). */
  static final int IDENTITY_OFFSET = 48;

  @TempDir Path dir;

  private TraceStore importContractTrace() throws IOException {
    Path trace = ImporterContractTest.paje(dir.resolve("contract.trace"));
    Path storeDir = Files.createDirectories(dir.resolve("store"));
    Importer.importTrace(trace, Formats.standard().detect(trace), ImportOptions.DEFAULT, ImportProgress.NONE, storeDir,
        CHUNK_CAPACITY);
    return TraceStore.open(storeDir);
  }

  @Test
  void storeFormatV3IsWrittenByteForByte() throws IOException {
    TraceStore store = importContractTrace();
    for (String name : STORE_FILES) {
      byte[] written = Files.readAllBytes(store.directory().resolve(name));
      if (name.equals("metadata.json")) {
        written = machineFree(new String(written, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
      }
      assertGolden("store-v4/" + name, written);
    }
  }

  @Test
  void modelCacheV2IsWrittenByteForByte() throws IOException {
    TraceStore store = importContractTrace();
    new ModelCache(1 << 20).build(store, MODEL);
    byte[] written = Files.readAllBytes(onlyCacheFile(store));
    ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN).putLong(IDENTITY_OFFSET, 0);
    assertGolden("model-cache-v3.model", written);
  }

  @Test
  void theCommittedGoldensStillReadAsTheirTrace() throws IOException {
    Path storeDir = Files.createDirectories(dir.resolve("golden-store"));
    for (String name : STORE_FILES) {
      Files.write(storeDir.resolve(name), golden("store-v4/" + name));
    }
    TraceStore golden = TraceStore.open(storeDir);
    List<String> rows = new java.util.ArrayList<>(ImporterContractTest.rows(golden, true));
    rows.sort(null);
    assertEquals(ImporterContractTest.expected(true), rows);

    // The golden model file, given the identity of this store, is an exact cache hit that
    // equals a fresh scan cell for cell.
    TraceStore fresh = importContractTrace();
    ModelCache cache = new ModelCache(1 << 20);
    BuiltModel scanned = cache.build(fresh, MODEL);
    Path file = onlyCacheFile(fresh);
    long identity = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN).getLong(IDENTITY_OFFSET);
    byte[] goldenModel = golden("model-cache-v3.model");
    ByteBuffer.wrap(goldenModel).order(ByteOrder.LITTLE_ENDIAN).putLong(IDENTITY_OFFSET, identity);
    Files.write(file, goldenModel);
    ModelCache reader = new ModelCache(1 << 20);
    BuiltModel cached = reader.build(fresh, MODEL);
    assertEquals(0, reader.scans(), "served from the golden file");
    assertArrayEquals(ModelBuilder.build(fresh, MODEL).model().values(), cached.model().values());
    assertArrayEquals(scanned.model().values(), cached.model().values());
  }

  private static Path onlyCacheFile(TraceStore store) throws IOException {
    try (Stream<Path> files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      List<Path> models = files.filter(f -> f.toString().endsWith(".model")).toList();
      assertEquals(1, models.size(), models.toString());
      return models.get(0);
    }
  }

  /** The metadata without what depends on the machine: the trace's path and date. */
  static String machineFree(String metadata) {
    return metadata.replaceFirst("\"path\": \"[^\"]*\"", "\"path\": \"/golden/contract.trace\"")
        .replaceFirst("\"modified\": \\d+", "\"modified\": 0");
  }

  static byte[] golden(String name) throws IOException {
    try (InputStream in = GoldenFilesTest.class.getResourceAsStream("golden/" + name)) {
      assertNotNull(in, "no golden file " + name + "; write it with -Dgolden.update=true");
      return in.readAllBytes();
    }
  }

  static void assertGolden(String name, byte[] actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Path source = Path.of(System.getProperty("user.dir"), "src/test/resources/org/ocelotl/workspace/golden", name);
      Files.createDirectories(source.getParent());
      Files.write(source, actual);
      return;
    }
    byte[] expected = golden(name);
    if (name.endsWith(".json")) {
      assertEquals(new String(expected, StandardCharsets.UTF_8), new String(actual, StandardCharsets.UTF_8), name);
    } else {
      assertArrayEquals(expected, actual, name + ": a byte changed; bump the format version and update the goldens");
    }
  }
}
