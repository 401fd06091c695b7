package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The Parquet dataset read back by an independent reader, DuckDB (its own C++ Parquet reader, not
 * the Java library that wrote it): every table has the records of {@code ocelotl info}, and every
 * record holds the store's values bit for bit, in the store's order (files in name order, rows in
 * file order).
 */
class ParquetExportTest {
  static final Path BUNDLED = Path.of("../examples/smpi_perturbed.trace.gz");

  @TempDir Path tmp;

  /** The command line on the bundled trace: default file sizes, counts as {@code ocelotl info --json} says. */
  @Test
  void theBundledTraceReadsBackAsTheStore() throws Exception {
    Path out = tmp.resolve("dataset");
    String ws = tmp.resolve("ws").toString();
    CliTest.Result result = CliTest.run("export", BUNDLED.toString(), "--workspace", ws, "--format", "parquet",
        "--out", out.toString());
    assertEquals(new CliTest.Result(0, "smpi_perturbed.trace.gz: 117312 states, 0 events, 83958 variables, "
        + "38400 links, 169 producers, 16 types → " + out + "\n", ""), result);
    CliTest.Result info = CliTest.run("info", BUNDLED.toString(), "--workspace", ws, "--json");
    JsonNode counts = new ObjectMapper().readTree(info.out());
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      for (EventCategory category : EventCategory.values()) {
        String table = ParquetTable.of(category).directory();
        assertEquals(counts.get(table).asLong(), count(duck, out, table), table);
      }
      assertEquals(counts.get("producers").asLong(), count(duck, out, "producers"));
      TraceStore store = Workspace.open(tmp.resolve("ws")).store(BUNDLED, ImportOptions.DEFAULT, ImportProgress.NONE);
      assertEquals(store.metadata().types().size(), count(duck, out, "types"));
      assertSameRecords(duck, store, out);
      assertSameTables(duck, store.metadata(), out);
    }
    assertEquals(Files.readString(Workspace.open(tmp.resolve("ws"))
            .store(BUNDLED, ImportOptions.DEFAULT, ImportProgress.NONE).metadataFile()),
        Files.readString(out.resolve(ParquetTable.METADATA_FILE)));
  }

  /**
   * The dataset stands on its own: dataset.json names every field (version, unit, categories as
   * {@code --kind} spells them), and every Parquet file says the unit of its times, as DuckDB reads it.
   */
  @Test
  void theDatasetDescribesItselfByNamedFields() throws Exception {
    Path out = tmp.resolve("dataset");
    CliTest.Result result = CliTest.run("export", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--format", "parquet", "--out", out.toString());
    assertEquals(0, result.status(), result.err());
    JsonNode d = new ObjectMapper().readTree(out.resolve(ParquetTable.DATASET_FILE).toFile());
    assertEquals("ocelotl-parquet-dataset", d.get("format").asText());
    assertEquals(2, d.get("version").asInt());
    assertEquals("smpi_perturbed.trace.gz", d.get("trace").asText());
    assertEquals("s", d.get("time_unit").asText());
    assertEquals(1.0, d.get("seconds_per_unit").asDouble());
    assertEquals(117312, d.get("counts").get("state").asLong());
    assertEquals(38400, d.get("counts").get("link").asLong());
    assertEquals(List.of("start_time", "end_time", "producer", "type", "depth", "outer_type"),
        new ObjectMapper().convertValue(d.get("tables").get("states"), List.class));
    JsonNode root = d.get("producers").get(0);
    assertTrue(root.get("parent").isNull());
    assertEquals(169, d.get("producers").size());
    JsonNode rank = d.get("producers").get(168);
    assertEquals(168, rank.get("id").asInt());
    assertEquals(rank.get("name").asText(), rank.get("path").asText().substring(rank.get("path").asText()
        .lastIndexOf('/') + 1));
    List<String> categories = new ArrayList<>();
    d.get("types").forEach(t -> categories.add(t.get("category").asText()));
    assertEquals(List.of("link", "state", "variable"), categories.stream().distinct().sorted().toList());
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery("SELECT DISTINCT decode(key), decode(value) FROM parquet_kv_metadata('"
            + out + "/*/*.parquet') WHERE decode(key) LIKE 'ocelotl.%' ORDER BY 1")) {
      List<String> keyValues = new ArrayList<>();
      while (rs.next()) {
        keyValues.add(rs.getString(1) + "=" + rs.getString(2));
      }
      assertEquals(List.of("ocelotl.dataset.version=2", "ocelotl.seconds_per_unit=1.0", "ocelotl.time_unit=s"),
          keyValues);
    }
  }

  /**
   * Small stores cut into small chunks and three chunks per file, so that tables span several
   * files: the records still come back as the store's, in its order. Events come from pajeng's
   * events.trace, link volumes (and their absence, as nulls) from ms.trace.
   */
  @ParameterizedTest
  @ValueSource(strings = {"paje/simgrid/smpi_small_flat.trace", "paje/pajeng/events.trace", "paje/pajeng/ms.trace"})
  void smallChunksSpanSeveralFiles(String trace) throws Exception {
    TraceStore store = Workspace.open(tmp.resolve("ws"), Formats.standard(), 7)
        .store(SharedTraces.file(trace), ImportOptions.DEFAULT, ImportProgress.NONE);
    Path out = tmp.resolve("dataset");
    ParquetExport.write(store, out, 3, false);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      for (EventCategory category : EventCategory.values()) {
        String table = ParquetTable.of(category).directory();
        assertEquals(store.metadata().count(category), count(duck, out, table), table);
        int chunks = store.chunks(category).size();
        assertEquals(Math.max(1, (chunks + 2) / 3), fileCount(out.resolve(table)), table);
      }
      assertSameRecords(duck, store, out);
      assertSameTables(duck, store.metadata(), out);
    }
  }

  @Test
  void anExistingDirectoryIsReplacedOnlyWithForceAndASelectionIsRefused() throws IOException {
    Path out = tmp.resolve("dataset");
    Files.createDirectories(out);
    Files.writeString(out.resolve("keep"), "me");
    String ws = tmp.resolve("ws").toString();
    Path small = SharedTraces.file("paje/pajeng/events.trace");
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + out + ": exists; give --force to replace it\n"),
        CliTest.run("export", small.toString(), "--workspace", ws, "--format", "parquet", "--out", out.toString()));
    assertEquals("me", Files.readString(out.resolve("keep")));
    assertEquals(new CliTest.Result(1, "", "ocelotl: --format parquet writes the whole trace: drop --from, --to, "
            + "--producers, --types and --selection (the dataset's readers filter)\n"),
        CliTest.run("export", small.toString(), "--workspace", ws, "--format", "parquet", "--from", "1",
            "--out", tmp.resolve("other").toString()));
    CliTest.Result forced = CliTest.run("export", small.toString(), "--workspace", ws, "--format", "parquet",
        "--out", out.toString(), "--force");
    assertEquals(0, forced.status(), forced.err());
    assertFalse(Files.exists(out.resolve("keep")));
    assertTrue(Files.isRegularFile(out.resolve("states/part-00000.parquet")));
    // Nothing but the dataset is left beside it: no temporary, no replaced copy.
    try (Stream<Path> siblings = Files.list(tmp)) {
      assertEquals(List.of("dataset", "ws"), siblings.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void aFailedWriteLeavesNothing() throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws"))
        .store(SharedTraces.file("paje/pajeng/events.trace"), ImportOptions.DEFAULT, ImportProgress.NONE);
    Path blocked = tmp.resolve("blocked");
    Files.writeString(blocked, "a file where the dataset's parent directory should be");
    assertThrows(IOException.class, () -> ParquetExport.write(store, blocked.resolve("dataset"), 1, false));
    Files.delete(blocked);
    Files.createDirectories(tmp.resolve("out"));
    // The store vanishes while the dataset is written: the partial dataset must not stay.
    Files.delete(store.metadataFile());
    assertThrows(IOException.class, () -> ParquetExport.write(store, tmp.resolve("out/dataset"), 1, false));
    try (Stream<Path> left = Files.list(tmp.resolve("out"))) {
      assertEquals(List.of(), left.toList());
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static long count(Connection duck, Path dataset, String table) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM read_parquet('" + dataset.resolve(table) + "/*.parquet')")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long fileCount(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.count();
    }
  }

  /** Every record of every category, column by column, against the store's chunks in order. */
  private static void assertSameRecords(Connection duck, TraceStore store, Path dataset) throws SQLException {
    for (EventCategory category : EventCategory.values()) {
      ParquetTable table = ParquetTable.of(category);
      String sql = "SELECT " + String.join(", ", table.columns()) + " FROM read_parquet('"
          + dataset.resolve(table.directory()) + "/*.parquet', filename = true, file_row_number = true)"
          + " ORDER BY filename, file_row_number";
      try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        long row = 0;
        for (Chunk chunk : store.chunks(category)) {
          Columns columns = columns(store, category);
          store.read(chunk, columns);
          for (int i = 0; i < columns.size(); i++, row++) {
            assertTrue(rs.next(), table + ": row " + row + " missing");
            assertEquals(expected(columns, i), actual(rs, table), table + " row " + row);
          }
        }
        assertFalse(rs.next(), table + ": more rows than the store");
      }
    }
  }

  private static Columns columns(TraceStore store, EventCategory category) {
    return switch (category) {
      case STATE -> store.stateColumns();
      case EVENT -> store.eventColumns();
      case VARIABLE -> store.variableColumns();
      case LINK -> store.linkColumns();
    };
  }

  /** A record as the list of its values, doubles as their bits (so equality is bit for bit), null for NaN. */
  private static List<Object> expected(Columns columns, int i) {
    if (columns instanceof StateColumns c) {
      return List.of(bits(c.start()[i]), bits(c.end()[i]), c.producer()[i], c.type()[i], c.depth()[i], c.outer()[i]);
    } else if (columns instanceof EventColumns c) {
      return List.of(bits(c.time()[i]), c.producer()[i], c.type()[i]);
    } else if (columns instanceof VariableColumns c) {
      return List.of(bits(c.start()[i]), bits(c.end()[i]), bits(c.value()[i]), c.producer()[i], c.type()[i]);
    }
    LinkColumns c = (LinkColumns) columns;
    List<Object> row = new ArrayList<>(List.of(bits(c.start()[i]), bits(c.end()[i])));
    row.add(Double.isNaN(c.volume()[i]) ? null : bits(c.volume()[i]));
    row.addAll(List.of(c.type()[i], c.from()[i], c.to()[i]));
    return row;
  }

  private static List<Object> actual(ResultSet rs, ParquetTable table) throws SQLException {
    List<Object> row = new ArrayList<>();
    for (int k = 1; k <= table.columns().size(); k++) {
      Object value = rs.getObject(k);
      row.add(value instanceof Double d ? bits(d) : value);
    }
    return row;
  }

  private static Long bits(double value) {
    return Double.doubleToRawLongBits(value);
  }

  /** The producers and types tables against the metadata. */
  private static void assertSameTables(Connection duck, StoreMetadata m, Path dataset) throws SQLException {
    List<List<Object>> producers = new ArrayList<>();
    for (StoreMetadata.Producer p : m.producers()) {
      producers.add(java.util.Arrays.asList(p.id(), p.name(), m.path(p.id()), p.kind(),
          p.parent() < 0 ? null : p.parent(), Double.isNaN(p.created()) ? null : bits(p.created()),
          Double.isNaN(p.destroyed()) ? null : bits(p.destroyed())));
    }
    assertEquals(producers, rows(duck, dataset, ParquetTable.PRODUCERS));
    List<List<Object>> types = new ArrayList<>();
    for (StoreMetadata.EventType t : m.types()) {
      types.add(java.util.Arrays.asList(t.id(), t.name(), ParquetTable.kind(t.category()), t.group(),
          t.color(), t.count()));
    }
    assertEquals(types, rows(duck, dataset, ParquetTable.TYPES));
  }

  private static List<List<Object>> rows(Connection duck, Path dataset, ParquetTable table) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT " + String.join(", ",
        table.columns()) + " FROM read_parquet('" + dataset.resolve(table.directory()) + "/*.parquet') ORDER BY id")) {
      while (rs.next()) {
        rows.add(actual(rs, table));
      }
    }
    return rows;
  }
}
