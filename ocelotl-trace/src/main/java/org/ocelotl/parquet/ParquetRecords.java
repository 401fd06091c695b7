package org.ocelotl.parquet;

import java.io.IOException;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetTable.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.VariableColumns;

/**
 * Reads a record file of the dataset ({@link ParquetTable}) straight into the store's primitive
 * columns, batch by batch: each column chunk's pages are decoded into the array the store would
 * fill ({@link ColumnPages}), with no record assembled and no object per record — what a Spark
 * task feeds to the scan kernels. Only the columns asked for are read from the file, and row groups whose
 * statistics fail the filter are not read at all.
 */
public final class ParquetRecords {
  private ParquetRecords() {}

  /** What receives each batch: the columns, their first {@code size()} entries filled. */
  @FunctionalInterface
  public interface Batches {
    void accept(org.ocelotl.store.Columns batch) throws IOException;
  }

  /**
   * Reads the records of {@code file} (a file of {@code category}'s table) into {@code into}, one
   * batch of at most its capacity at a time, handing each to {@code batches}.
   *
   * @param name the file's name for messages (an {@link InputFile} has none)
   * @param columns the table's columns to read (names of {@link Columns}); the others keep stale values
   * @param rowGroups row groups whose statistics cannot satisfy it are skipped; null reads them all
   * @throws IllegalArgumentException when the file lacks a column or holds it with another type
   */
  public static void read(InputFile file, String name, EventCategory category, List<String> columns, FilterPredicate rowGroups,
      org.ocelotl.store.Columns into, Batches batches) throws IOException {
    ParquetReadOptions.Builder options = ParquetReadOptions.builder(new PlainParquetConfiguration())
        .useDictionaryFilter(false).useColumnIndexFilter(false).useBloomFilter(false).useRecordFilter(false);
    if (rowGroups != null) {
      options.withRecordFilter(FilterCompat.get(rowGroups));
    }
    try (ParquetFileReader reader = ParquetFileReader.open(file, options.build())) {
      MessageType projection = projection(name, reader.getFooter().getFileMetaData().getSchema(),
          ParquetTable.of(category).schema(), columns);
      reader.setRequestedSchema(projection);
      Target[] targets = columns.stream().map(c -> target(into, c)).toArray(Target[]::new);
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        ColumnPages[] pages = new ColumnPages[targets.length];
        for (int c = 0; c < pages.length; c++) {
          ColumnDescriptor column = projection.getColumnDescription(new String[] {columns.get(c)});
          pages[c] = new ColumnPages(name, column, rowGroup.getPageReader(column));
        }
        for (long left = rowGroup.getRowCount(); left > 0; ) {
          int n = (int) Math.min(into.capacity(), left);
          for (int c = 0; c < targets.length; c++) {
            targets[c].fill(pages[c], n);
          }
          into.setSize(n);
          batches.accept(into);
          left -= n;
        }
      }
    }
  }

  /**
   * The requested columns, typed as the table declares them; a file written by anything but the
   * export (another writer, another version of the layout) is refused here, naming the column.
   */
  private static MessageType projection(String file, MessageType actual, MessageType table, List<String> columns) {
    List<Type> fields = columns.stream().map(name -> {
      Type wanted = table.getType(name);
      if (!actual.containsField(name) || !actual.getType(name).equals(wanted)) {
        throw new IllegalArgumentException(file + ": column " + name + ": expected " + wanted + ", found "
            + (actual.containsField(name) ? actual.getType(name) : "none"));
      }
      return wanted;
    }).toList();
    return new MessageType(table.getName(), fields);
  }

  /** One column of the file poured into one array of the batch. */
  @FunctionalInterface
  private interface Target {
    void fill(ColumnPages column, int count) throws IOException;
  }

  private static Target doubles(double[] into) {
    return (column, count) -> column.doubles(into, count);
  }

  private static Target ints(int[] into) {
    return (column, count) -> column.ints(into, count);
  }

  private static Target target(org.ocelotl.store.Columns into, String column) {
    if (into instanceof StateColumns c) {
      return switch (column) {
        case Columns.START -> doubles(c.start());
        case Columns.END -> doubles(c.end());
        case Columns.PRODUCER -> ints(c.producer());
        case Columns.TYPE -> ints(c.type());
        case Columns.DEPTH -> ints(c.depth());
        case Columns.OUTER -> ints(c.outer());
        default -> throw unknown(column, "states");
      };
    } else if (into instanceof EventColumns c) {
      return switch (column) {
        case Columns.TIME -> doubles(c.time());
        case Columns.PRODUCER -> ints(c.producer());
        case Columns.TYPE -> ints(c.type());
        default -> throw unknown(column, "events");
      };
    } else if (into instanceof VariableColumns c) {
      return switch (column) {
        case Columns.START -> doubles(c.start());
        case Columns.END -> doubles(c.end());
        case Columns.VALUE -> doubles(c.value());
        case Columns.PRODUCER -> ints(c.producer());
        case Columns.TYPE -> ints(c.type());
        default -> throw unknown(column, "variables");
      };
    }
    LinkColumns c = (LinkColumns) into;
    return switch (column) {
      case Columns.START -> doubles(c.start());
      case Columns.END -> doubles(c.end());
      case Columns.VOLUME -> doubles(c.volume());
      case Columns.TYPE -> ints(c.type());
      case Columns.FROM -> ints(c.from());
      case Columns.TO -> ints(c.to());
      default -> throw unknown(column, "links");
    };
  }

  private static IllegalArgumentException unknown(String column, String table) {
    return new IllegalArgumentException("no column " + column + " in the " + table + " table");
  }
}
