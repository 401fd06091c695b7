package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.DatasetDescription;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.parquet.ParquetTable.Columns;
import org.ocelotl.store.StoreFormatException;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceFormatProvider;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * A Parquet dataset ({@code ocelotl export --format parquet}, {@code ocelotl-spark import}) read
 * back as a trace, so that every command opens it (docs/scale-out.md, decision 048). The trace is
 * named by the dataset's {@value ParquetTable#DATASET_FILE}, which a directory given as a trace
 * resolves to. Producers, types, bounds and warnings come from the store metadata the dataset
 * carries ({@value ParquetTable#METADATA_FILE}), with their ids, so the store imported from it is
 * the original's: the same records under the same ids, the same answers.
 *
 * <p>The records are read by DuckDB, which the tool embeds for SQL: parquet-hadoop's reader needs
 * Hadoop's classes on the class path, which the tool leaves out (decision 019). The format is
 * added through the plug-in interface ({@link Provider}), the one a reader from outside uses.
 */
public final class DatasetReader implements TraceReader {
  private static final Pattern FORMAT = Pattern.compile("\"format\"\\s*:\\s*\"" + DatasetDescription.FORMAT + "\"");

  /** The format, found by {@link java.util.ServiceLoader} as any plug-in's (META-INF/services). */
  public static final class Provider implements TraceFormatProvider {
    @Override
    public TraceFormat format() {
      return new TraceFormat("parquet", "Parquet dataset of ocelotl export or ocelotl-spark import: give its directory",
          DatasetReader::new, DatasetReader::sniff);
    }
  }

  /** A dataset.json: its format field, among the first bytes (it is the file's first field). */
  public static boolean sniff(byte[] head) {
    return FORMAT.matcher(new String(head, StandardCharsets.UTF_8)).find();
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    Path dataset = file.toAbsolutePath().getParent();
    checkDescription(file);
    StoreMetadata m = metadata(dataset.resolve(ParquetTable.METADATA_FILE));
    for (StoreMetadata.Producer p : m.producers()) {
      sink.producer(p.id(), p.name(), p.kind(), p.parent(), p.created());
    }
    for (StoreMetadata.EventType t : m.types()) {
      sink.eventType(t.id(), t.name(), t.category(), t.group(), t.color());
    }
    try (Connection duck = TraceSql.connect(); Statement s = duck.createStatement()) {
      for (EventCategory category : EventCategory.values()) {
        long read = records(s, dataset, category, sink);
        if (read != m.count(category)) {
          throw new TraceFormatException(dataset.resolve(ParquetTable.of(category).directory()) + ": " + read + " "
              + ParquetTable.kind(category) + " records, where " + ParquetTable.METADATA_FILE + " counts "
              + m.count(category) + ": expected the files of one export");
        }
      }
    } catch (SQLException e) { // a file cut short, not Parquet, or without a column: DuckDB names it
      throw new TraceFormatException(dataset + ": " + TraceSql.firstLine(e.getMessage()));
    }
    for (StoreMetadata.Producer p : m.producers()) {
      if (!Double.isNaN(p.destroyed())) {
        sink.producerEnd(p.id(), p.destroyed());
      }
    }
    m.warnings().forEach(sink::warning);
    sink.origin(m.origin());
    sink.end(m.start(), m.end(), m.timeUnit());
  }

  /** The description's format and version: a dataset of another layout is refused, not misread. */
  private static void checkDescription(Path file) throws IOException {
    JsonNode description;
    try {
      description = new ObjectMapper().readTree(file.toFile());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new TraceFormatException(file + ": not JSON (" + e.getOriginalMessage() + "): expected the "
          + ParquetTable.DATASET_FILE + " of a Parquet dataset");
    }
    if (description == null || !DatasetDescription.FORMAT.equals(description.path("format").asText())) {
      throw new TraceFormatException(file + ": expected \"format\": \"" + DatasetDescription.FORMAT + "\"");
    }
    if (description.path("version").asInt(-1) != ParquetTable.VERSION) {
      throw new TraceFormatException(file + ": dataset layout version " + description.path("version") + ", expected "
          + ParquetTable.VERSION + " (export the trace again with this version of Ocelotl)");
    }
  }

  private static StoreMetadata metadata(Path file) throws IOException {
    try {
      return StoreMetadata.parse(file, Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(file + ": missing: expected the store metadata every dataset carries");
    } catch (StoreFormatException e) {
      throw new TraceFormatException(e.getMessage());
    }
  }

  /**
   * Streams a table's records into the sink in the files' order, which is the order of the store
   * they were exported from (chunk by chunk): the store made from them holds every chunk as it
   * was, so sums over records add in the same order and answers are the same to the last bit.
   * Variables go as the steps they are ({@link TraceSink#variableStep}). Returns the records read.
   */
  private static long records(Statement s, Path dataset, EventCategory category, TraceSink sink)
      throws IOException, SQLException {
    Path directory = dataset.resolve(ParquetTable.of(category).directory());
    if (!Files.isDirectory(directory)) {
      throw new TraceFormatException(directory + ": missing: expected the " + ParquetTable.kind(category)
          + " table's directory");
    }
    List<Path> files = files(directory);
    if (files.isEmpty()) {
      return 0;
    }
    // The files in name order (listed, not globbed), each in row order, which DuckDB keeps for a
    // plain scan (preserve_insertion_order, its default).
    String from = " FROM read_parquet([" + files.stream().map(f -> TraceSql.literal(f.toString()))
        .collect(Collectors.joining(", ")) + "])";
    String query = switch (category) {
      case STATE -> "SELECT " + String.join(", ", Columns.PRODUCER, Columns.TYPE, Columns.START, Columns.END,
          Columns.DEPTH, Columns.OUTER) + from;
      case EVENT -> "SELECT " + String.join(", ", Columns.PRODUCER, Columns.TYPE, Columns.TIME) + from;
      case VARIABLE -> "SELECT " + String.join(", ", Columns.PRODUCER, Columns.TYPE, Columns.START, Columns.END,
          Columns.VALUE) + from;
      case LINK -> "SELECT " + String.join(", ", Columns.TYPE, Columns.FROM, Columns.TO, Columns.START, Columns.END,
          Columns.VOLUME) + from;
    };
    long read = 0;
    try (ResultSet r = s.executeQuery(query)) {
      while (r.next()) {
        switch (category) {
          case STATE -> sink.state(r.getInt(1), r.getInt(2), r.getDouble(3), r.getDouble(4), r.getInt(5), r.getInt(6));
          case EVENT -> sink.event(r.getInt(1), r.getInt(2), r.getDouble(3));
          case VARIABLE -> sink.variableStep(r.getInt(1), r.getInt(2), r.getDouble(3), r.getDouble(4), r.getDouble(5));
          case LINK -> {
            double volume = r.getDouble(6);
            sink.link(r.getInt(1), r.getInt(2), r.getInt(3), r.getDouble(4), r.getDouble(5),
                r.wasNull() ? Double.NaN : volume);
          }
        }
        read++;
      }
    }
    return read;
  }

  /** The table's files in name order; a table with no records may have none. */
  private static List<Path> files(Path directory) throws IOException {
    try (var listed = Files.list(directory)) {
      return listed.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted().toList();
    }
  }
}
