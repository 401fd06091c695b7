package org.ocelotl.parquet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetTable.Columns;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;
import org.ocelotl.view.TimeScale;

/**
 * Writes a store as a Parquet dataset ({@link ParquetTable}): the record tables chunk by chunk in
 * the store's order, straight from the store's columns through Parquet's record consumer (no
 * object per record), the producers and types from the metadata, and the metadata file itself.
 *
 * <p>The dataset appears complete or not at all: it is written into a hidden sibling directory,
 * renamed at the end, and deleted on failure.
 */
public final class ParquetExport {
  /**
   * Store chunks per Parquet file: 16 × 65,536 records (about 30 MB of states) give a Spark task a
   * useful share of work without a file per chunk.
   */
  public static final int CHUNKS_PER_FILE = 16;

  /** What the name of every Parquet file of a dataset starts with. */
  public static final String PART = "part-";

  private ParquetExport() {}

  /**
   * Writes the dataset of {@code store} as the directory {@code out}.
   *
   * @param chunksPerFile store chunks per Parquet file of a record table
   * @param replace       replace {@code out} if it exists; else an existing {@code out} is refused
   * @throws IllegalArgumentException when {@code out} exists and {@code replace} is false (message for the user)
   */
  public static void write(TraceStore store, Path out, int chunksPerFile, boolean replace) throws IOException {
    Path target = out.toAbsolutePath().normalize();
    if (Files.exists(target) && !replace) {
      throw new IllegalArgumentException(out + " exists; --force replaces it");
    }
    Path parent = target.getParent();
    Files.createDirectories(parent);
    String hidden = "." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong());
    Path temporary = parent.resolve(hidden + ".part");
    Path old = parent.resolve(hidden + ".old");
    try {
      Files.createDirectory(temporary);
      for (EventCategory category : EventCategory.values()) {
        writeRecords(store, category, temporary.resolve(ParquetTable.of(category).directory()), PART, chunksPerFile);
      }
      writeDescription(store.metadata(), temporary);
      Files.copy(store.metadataFile(), temporary.resolve(ParquetTable.METADATA_FILE));
      if (Files.exists(target)) {
        Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      deleteTree(temporary);
      deleteTree(old);
    }
  }

  /**
   * Writes the store's records of {@code category} into {@code directory} (created if need be) as
   * files {@code prefix}NNNNN.parquet, NNNNN from 0: the files of one store, or of one part of a
   * dataset written in parts (the Pajé import on Spark, whose parts name their files apart).
   */
  public static void writeRecords(TraceStore store, EventCategory category, Path directory, String prefix,
      int chunksPerFile) throws IOException {
    Files.createDirectories(directory);
    ParquetTable table = ParquetTable.of(category);
    List<Chunk> chunks = store.chunks(category);
    RowSource source = source(store, category);
    // An empty table still gets one file: readers infer a table's columns from its files.
    int files = Math.max(1, (chunks.size() + chunksPerFile - 1) / chunksPerFile);
    for (int f = 0; f < files; f++) {
      try (ParquetWriter<Row> writer = writer(directory.resolve(fileName(prefix, f)), table.schema(), source.rows,
          store.metadata())) {
        Row row = new Row();
        for (int c = f * chunksPerFile; c < Math.min(chunks.size(), (f + 1) * chunksPerFile); c++) {
          store.read(chunks.get(c), source.columns);
          for (row.index = 0; row.index < source.columns.size(); row.index++) {
            writer.write(row);
          }
        }
      }
    }
  }

  /** The store's columns of a category, and how one of their rows becomes a Parquet record. */
  private record RowSource(org.ocelotl.store.Columns columns, RowWriter rows) {}

  private static RowSource source(TraceStore store, EventCategory category) {
    return switch (category) {
      case STATE -> {
        StateColumns c = store.stateColumns();
        yield new RowSource(c, (out, i) -> {
          doubleField(out, Columns.START, 0, c.start()[i]);
          doubleField(out, Columns.END, 1, c.end()[i]);
          intField(out, Columns.PRODUCER, 2, c.producer()[i]);
          intField(out, Columns.TYPE, 3, c.type()[i]);
          intField(out, Columns.DEPTH, 4, c.depth()[i]);
          intField(out, Columns.OUTER, 5, c.outer()[i]);
        });
      }
      case EVENT -> {
        EventColumns c = store.eventColumns();
        yield new RowSource(c, (out, i) -> {
          doubleField(out, Columns.TIME, 0, c.time()[i]);
          intField(out, Columns.PRODUCER, 1, c.producer()[i]);
          intField(out, Columns.TYPE, 2, c.type()[i]);
        });
      }
      case VARIABLE -> {
        VariableColumns c = store.variableColumns();
        yield new RowSource(c, (out, i) -> {
          doubleField(out, Columns.START, 0, c.start()[i]);
          doubleField(out, Columns.END, 1, c.end()[i]);
          doubleField(out, Columns.VALUE, 2, c.value()[i]);
          intField(out, Columns.PRODUCER, 3, c.producer()[i]);
          intField(out, Columns.TYPE, 4, c.type()[i]);
        });
      }
      case LINK -> {
        LinkColumns c = store.linkColumns();
        yield new RowSource(c, (out, i) -> {
          doubleField(out, Columns.START, 0, c.start()[i]);
          doubleField(out, Columns.END, 1, c.end()[i]);
          // The store's NaN (the trace does not say) is a null: what SQL and pandas users expect.
          optionalDouble(out, Columns.VOLUME, 2, c.volume()[i]);
          intField(out, Columns.TYPE, 3, c.type()[i]);
          intField(out, Columns.FROM, 4, c.from()[i]);
          intField(out, Columns.TO, 5, c.to()[i]);
        });
      }
    };
  }

  /**
   * Writes the producers and types tables of {@code metadata} and {@link ParquetTable#DATASET_FILE}
   * into the dataset directory {@code root} (the store's metadata file is the caller's to write:
   * the local export copies the store's).
   */
  public static void writeDescription(StoreMetadata metadata, Path root) throws IOException {
    writeProducers(metadata, root);
    writeTypes(metadata, root);
    Files.writeString(root.resolve(ParquetTable.DATASET_FILE), DatasetDescription.json(metadata));
  }

  private static void writeProducers(StoreMetadata metadata, Path root) throws IOException {
    Path directory = Files.createDirectory(root.resolve(ParquetTable.PRODUCERS.directory()));
    List<StoreMetadata.Producer> producers = metadata.producers();
    RowWriter rows = (out, i) -> {
      StoreMetadata.Producer p = producers.get(i);
      intField(out, Columns.ID, 0, p.id());
      stringField(out, Columns.NAME, 1, p.name());
      stringField(out, Columns.PATH, 2, metadata.path(p.id()));
      stringField(out, Columns.KIND, 3, p.kind());
      if (p.parent() >= 0) {
        intField(out, Columns.PARENT, 4, p.parent());
      }
      optionalDouble(out, Columns.CREATED, 5, p.created());
      optionalDouble(out, Columns.DESTROYED, 6, p.destroyed());
    };
    writeAll(directory, ParquetTable.PRODUCERS, rows, producers.size(), metadata);
  }

  private static void writeTypes(StoreMetadata metadata, Path root) throws IOException {
    Path directory = Files.createDirectory(root.resolve(ParquetTable.TYPES.directory()));
    List<StoreMetadata.EventType> types = metadata.types();
    RowWriter rows = (out, i) -> {
      StoreMetadata.EventType t = types.get(i);
      intField(out, Columns.ID, 0, t.id());
      stringField(out, Columns.NAME, 1, t.name());
      stringField(out, Columns.CATEGORY, 2, ParquetTable.kind(t.category()));
      stringField(out, Columns.GROUP, 3, t.group());
      stringField(out, Columns.COLOR, 4, t.color());
      out.startField(Columns.COUNT, 5);
      out.addLong(t.count());
      out.endField(Columns.COUNT, 5);
    };
    writeAll(directory, ParquetTable.TYPES, rows, types.size(), metadata);
  }

  private static void writeAll(Path directory, ParquetTable table, RowWriter rows, int count, StoreMetadata metadata)
      throws IOException {
    try (ParquetWriter<Row> writer = writer(directory.resolve(fileName(PART, 0)), table.schema(), rows, metadata)) {
      Row row = new Row();
      for (row.index = 0; row.index < count; row.index++) {
        writer.write(row);
      }
    }
  }

  private static String fileName(String prefix, int file) {
    return String.format("%s%05d.parquet", prefix, file);
  }

  private static ParquetWriter<Row> writer(Path file, MessageType schema, RowWriter rows, StoreMetadata metadata)
      throws IOException {
    return new Builder(new LocalOutputFile(file), new RowSupport(schema, rows, keyValues(metadata)))
        .withConf(new PlainParquetConfiguration())
        .withWriteMode(ParquetFileWriter.Mode.CREATE)
        .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
        .build();
  }

  /** What a reader of one file alone needs to read its times: their unit, and the layout's version. */
  private static Map<String, String> keyValues(StoreMetadata metadata) {
    Map<String, String> keyValues = new java.util.LinkedHashMap<>();
    keyValues.put(ParquetTable.VERSION_KEY, String.valueOf(ParquetTable.VERSION));
    keyValues.put(ParquetTable.TIME_UNIT_KEY, metadata.timeUnit());
    double seconds = TimeScale.secondsPerUnit(metadata.timeUnit());
    if (!Double.isNaN(seconds)) {
      keyValues.put(ParquetTable.SECONDS_PER_UNIT_KEY, String.valueOf(seconds));
    }
    return Map.copyOf(keyValues);
  }

  private static void doubleField(RecordConsumer out, String name, int index, double value) {
    out.startField(name, index);
    out.addDouble(value);
    out.endField(name, index);
  }

  private static void optionalDouble(RecordConsumer out, String name, int index, double value) {
    if (!Double.isNaN(value)) {
      doubleField(out, name, index, value);
    }
  }

  private static void intField(RecordConsumer out, String name, int index, int value) {
    out.startField(name, index);
    out.addInteger(value);
    out.endField(name, index);
  }

  /** A null string is a missing value. */
  private static void stringField(RecordConsumer out, String name, int index, String value) {
    if (value != null) {
      out.startField(name, index);
      out.addBinary(Binary.fromString(value));
      out.endField(name, index);
    }
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Writes the fields of row {@code row} (the record's start and end are written around it). */
  @FunctionalInterface
  private interface RowWriter {
    void write(RecordConsumer out, int row);
  }

  /** The one mutable cursor handed to the writer for every record of a file: no object per record. */
  private static final class Row {
    int index;
  }

  private static final class RowSupport extends WriteSupport<Row> {
    private final MessageType schema;
    private final RowWriter rows;
    private final Map<String, String> keyValues;
    private RecordConsumer consumer;

    RowSupport(MessageType schema, RowWriter rows, Map<String, String> keyValues) {
      this.schema = schema;
      this.rows = rows;
      this.keyValues = keyValues;
    }

    @Override
    public WriteContext init(Configuration configuration) {
      return new WriteContext(schema, keyValues);
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
      return new WriteContext(schema, keyValues);
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.consumer = recordConsumer;
    }

    @Override
    public void write(Row row) {
      consumer.startMessage();
      rows.write(consumer, row.index);
      consumer.endMessage();
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
    private final RowSupport support;

    Builder(LocalOutputFile file, RowSupport support) {
      super(file);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Row> getWriteSupport(Configuration configuration) {
      return support;
    }

    @Override
    protected WriteSupport<Row> getWriteSupport(ParquetConfiguration configuration) {
      return support;
    }
  }
}
