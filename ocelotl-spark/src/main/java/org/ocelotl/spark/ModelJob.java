package org.ocelotl.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.parquet.ParquetTable.Columns;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ModelScan;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.VariableColumns;
import static org.apache.spark.sql.functions.col;

/**
 * The microscopic model of a trace's Parquet dataset ({@link ParquetTable}), built on Spark: the
 * driver plans the model on the dataset's metadata.json (refusing what the local tool refuses, before
 * any task runs); each task feeds its partition's rows, in batches of primitive columns, to a
 * {@link ModelScan} — the local scan's kernels — and hands back its partial sums; a tree reduction
 * adds them up, and the driver turns the total into the model.
 */
public final class ModelJob {
  /** Records per batch handed to the kernels: the store's chunk capacity. */
  static final int BATCH = 65_536;

  private ModelJob() {}

  /** The model of {@code request} on the dataset in {@code dataset} (any Hadoop file system path). */
  public static Result build(SparkSession spark, String dataset, ModelRequest request) throws IOException {
    String metadataJson = metadata(spark, dataset);
    StoreMetadata metadata = StoreMetadata.parse(java.nio.file.Path.of(dataset, ParquetTable.METADATA_FILE),
        metadataJson);
    ModelScan total = ModelScan.of(metadata, request);
    ParquetTable table = ParquetTable.of(total.category());
    List<String> columns = columns(total.category());
    Dataset<Row> rows = spark.read().parquet(new Path(dataset, table.directory()).toString())
        .select(columns.stream().map(c -> col(c)).toArray(Column[]::new))
        .where(window(total.category(), total.grid()));
    JavaRDD<double[][]> partials = rows.javaRDD().mapPartitions(new PartitionScan(metadataJson, request));
    int partitions = partials.getNumPartitions();
    total.add(partials.treeReduce(ModelJob::sum));
    return new Result(metadata, total.model(), partitions);
  }

  /**
   * @param partitions how many tasks scanned the records
   */
  public record Result(StoreMetadata metadata, BuiltModel model, int partitions) {}

  private static String metadata(SparkSession spark, String dataset) throws IOException {
    Path file = new Path(dataset, ParquetTable.METADATA_FILE);
    FileSystem fs = file.getFileSystem(spark.sparkContext().hadoopConfiguration());
    try (InputStream in = fs.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      throw new IllegalArgumentException(dataset + ": not a trace's Parquet dataset (no "
          + ParquetTable.METADATA_FILE + "); write one with: ocelotl export TRACE --format parquet --out DIR");
    }
  }

  /** The columns the kernel of a category reads, in the order {@link PartitionScan} copies them. */
  private static List<String> columns(EventCategory category) {
    return switch (category) {
      case STATE -> List.of(Columns.START, Columns.END, Columns.PRODUCER, Columns.TYPE);
      case EVENT -> List.of(Columns.TIME, Columns.PRODUCER, Columns.TYPE);
      case VARIABLE -> List.of(Columns.START, Columns.END, Columns.VALUE, Columns.PRODUCER, Columns.TYPE);
      case LINK -> List.of(Columns.START, Columns.VOLUME, Columns.TYPE, Columns.FROM);
    };
  }

  /**
   * The records that can touch the window, as the kernels decide (they skip the others anyway):
   * Parquet's row-group statistics then spare reading the rest.
   */
  private static Column window(EventCategory category, SliceGrid grid) {
    return switch (category) {
      case STATE, VARIABLE -> col(Columns.START).lt(grid.end()).and(col(Columns.END).geq(grid.start()));
      case EVENT -> col(Columns.TIME).geq(grid.start()).and(col(Columns.TIME).lt(grid.end()));
      case LINK -> col(Columns.START).geq(grid.start()).and(col(Columns.START).lt(grid.end()));
    };
  }

  /** Adds {@code b} into {@code a}: the reduction's step. */
  private static double[][] sum(double[][] a, double[][] b) {
    for (int k = 0; k < a.length; k++) {
      double[] into = a[k];
      double[] from = b[k];
      for (int i = 0; i < into.length; i++) {
        into[i] += from[i];
      }
    }
    return a;
  }

  /**
   * One task's scan: plans again from the metadata (cheap, and nothing but two strings and the
   * request crosses the network), copies rows into reused columns, runs the kernels batch by batch.
   */
  private static final class PartitionScan implements FlatMapFunction<Iterator<Row>, double[][]> {
    private final String metadataJson;
    private final ModelRequest request;

    PartitionScan(String metadataJson, ModelRequest request) {
      this.metadataJson = metadataJson;
      this.request = request;
    }

    @Override
    public Iterator<double[][]> call(Iterator<Row> rows) throws IOException {
      ModelScan scan = ModelScan.of(StoreMetadata.parse(java.nio.file.Path.of(ParquetTable.METADATA_FILE),
          metadataJson), request);
      org.ocelotl.store.Columns columns = org.ocelotl.store.Columns.of(scan.category(), BATCH);
      RowCopy copy = copy(columns);
      int n = 0;
      while (rows.hasNext()) {
        copy.row(rows.next(), n++);
        if (n == BATCH) {
          columns.setSize(n);
          scan.add(columns);
          n = 0;
        }
      }
      columns.setSize(n);
      scan.add(columns);
      return List.<double[][]>of(scan.sums()).iterator();
    }
  }

  /** Copies a row (the columns of {@link #columns}) into position i of the batch. */
  @FunctionalInterface
  private interface RowCopy {
    void row(Row row, int i);
  }

  private static RowCopy copy(org.ocelotl.store.Columns columns) {
    if (columns instanceof StateColumns c) {
      return (row, i) -> {
        c.start()[i] = row.getDouble(0);
        c.end()[i] = row.getDouble(1);
        c.producer()[i] = row.getInt(2);
        c.type()[i] = row.getInt(3);
      };
    } else if (columns instanceof EventColumns c) {
      return (row, i) -> {
        c.time()[i] = row.getDouble(0);
        c.producer()[i] = row.getInt(1);
        c.type()[i] = row.getInt(2);
      };
    } else if (columns instanceof VariableColumns c) {
      return (row, i) -> {
        c.start()[i] = row.getDouble(0);
        c.end()[i] = row.getDouble(1);
        c.value()[i] = row.getDouble(2);
        c.producer()[i] = row.getInt(3);
        c.type()[i] = row.getInt(4);
      };
    }
    LinkColumns c = (LinkColumns) columns;
    return (row, i) -> {
      c.start()[i] = row.getDouble(0);
      // A null volume is the store's NaN: unknown, which link-volume skips.
      c.volume()[i] = row.isNullAt(1) ? Double.NaN : row.getDouble(1);
      c.type()[i] = row.getInt(2);
      c.from()[i] = row.getInt(3);
    };
  }
}
