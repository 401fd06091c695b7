package org.ocelotl.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.StoreFormatException;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * Fuzz target for the store opener (issue 14): a valid small store (the first 200 lines of
 * {@code examples/smpi_sizes.trace}: 28 states and 8 links, in chunks of {@value #CHUNK_CAPACITY}
 * records so that the states span two) with one of its files replaced by the input's bytes after
 * the first, which says which file (its value modulo the number of files, in name order:
 * {@link #FILES}). The store is opened and queried (its records, and a model of every metric
 * whose category has records); that works, or fails with the store's one format error,
 * {@link StoreFormatException}, whose message starts with the path of a file of the store. Any
 * other exception is a finding.
 */
class StoreFuzzTest {
  static final int CHUNK_CAPACITY = 16;
  /** The store's files, in name order; the first byte of an input picks one. */
  static final List<String> FILES = List.of("events.chunks", "links.chunks", "metadata.json", "states.chunks",
      "variables.chunks");
  private static Path template;
  private static Path work;

  @FuzzTest(maxDuration = "24h")
  void store(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    Path store = freshCopy();
    Files.write(store.resolve(FILES.get(Math.floorMod(data[0], FILES.size()))), Arrays.copyOfRange(data, 1, data.length));
    try {
      query(TraceStore.open(store));
    } catch (StoreFormatException refused) {
      if (!refused.getMessage().startsWith(store.toString())) {
        throw new AssertionError("a refusal that does not name the file: " + refused.getMessage(), refused);
      }
    }
  }

  private static void query(TraceStore store) {
    StoreMetadata m = store.metadata();
    double from = Math.min(m.start(), m.end());
    double to = Math.max(from + 1, m.end());
    RecordQuery.select(store, new RecordQuery.Selection(from, to, null, null, Set.of(EventCategory.values()), null,
        Double.NaN, Double.NaN, RecordQuery.Column.START, false, 0, 100));
    for (Metric metric : org.ocelotl.model.BuiltInMetric.values()) {
      // A metric of a category the trace has no record of is refused as a bad request, not a bad store.
      if (m.counts()[metric.category().ordinal()] > 0 && m.offers(metric)) {
        ModelBuilder.build(store, ModelRequest.of(metric, 10).withExact(true));
      }
    }
  }

  /** A copy of the valid store in a directory of its own (opening and querying may write cache files). */
  private static Path freshCopy() throws IOException {
    if (template == null) {
      Path dir = Files.createTempDirectory("ocelotl-fuzz");
      template = dir.resolve("template");
      work = dir.resolve("store");
      importBase(dir.resolve("base.trace"), template);
    }
    delete(work);
    Files.createDirectory(work);
    for (String file : FILES) {
      Files.copy(template.resolve(file), work.resolve(file));
    }
    return work;
  }

  /** Imports the base trace into {@code store}: the store every input starts from. */
  static void importBase(Path trace, Path store) throws IOException {
    try (InputStream in = StoreFuzzTest.class.getResourceAsStream("StoreFuzzTest.trace")) {
      Files.copy(in, trace);
    }
    Files.createDirectory(store);
    Importer.importTrace(trace, Formats.standard().named("paje"), ImportOptions.DEFAULT, ImportProgress.NONE, store,
        CHUNK_CAPACITY);
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
