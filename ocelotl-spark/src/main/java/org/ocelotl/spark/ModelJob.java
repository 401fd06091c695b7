package org.ocelotl.spark;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators.DoubleColumn;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetRecords;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.parquet.ParquetTable.Columns;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ModelScan;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;

/**
 * The microscopic model of a trace's Parquet dataset ({@link ParquetTable}), built on Spark: the
 * driver plans the model on the dataset's metadata.json (refusing what the local tool refuses, before
 * any task runs) and lists the files of the metric's table; each task reads its share of the files,
 * their column chunks straight into the store's primitive columns ({@link ParquetRecords}), and
 * feeds them, batch by batch, to a {@link ModelScan} — the local scan's kernels — then hands back
 * its partial sums as one byte array of their non-zero runs ({@link PartialSums}); a tree reduction
 * adds them up in partition order ({@link OrderedSum}), and the driver turns the total into the model.
 *
 * <p>As many tasks as the application has cores ({@code spark.default.parallelism}), not one per
 * file, each a contiguous share of the files (so, the dataset being in roughly time order, of the
 * slices): a partial model has the model's shape (700 leaves × 1000 slices × 10 types: 56 MB
 * dense), is serialised, moved and added once per task; with a task per file (20 files of 10^6
 * states) that, not the scan, took most of the time (docs/benchmarks.md).
 *
 * <p>Why not Spark's own Parquet source: it assembles every record into a {@code Row} that the task
 * then copies into the columns, which made the job about ten times slower per core than the local
 * scan (docs/benchmarks.md). The dataset is written by the export, so its layout is known.
 */
public final class ModelJob {
  /** Records per batch handed to the kernels: the store's chunk capacity. */
  static final int BATCH = 65_536;

  private ModelJob() {}

  /** The model of {@code request} on the dataset in {@code dataset} (any Hadoop file system path). */
  public static Result build(SparkSession spark, String dataset, ModelRequest request) throws IOException {
    return build(spark, dataset, request, spark.sparkContext().defaultParallelism());
  }

  /**
   * The same with at most {@code maxTasks} tasks: the tests ask for more tasks than their two
   * cores, so that the reduction's intermediate level runs ({@link OrderedSum}).
   */
  static Result build(SparkSession spark, String dataset, ModelRequest request, int maxTasks) throws IOException {
    String metadataJson = metadata(spark, dataset);
    StoreMetadata metadata = parsed(dataset, metadataJson);
    ModelScan total = ModelScan.of(metadata, request);
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    List<FileStatus> files = files(dataset, ParquetTable.of(total.category()), hadoop);
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<byte[]> configuration = context.broadcast(HadoopFiles.serialize(hadoop));
    int tasks = Math.min(files.size(), maxTasks);
    try {
      JavaRDD<byte[]> partials = context.parallelize(shares(files, tasks), tasks)
          .mapPartitions(new FileScan(metadataJson, request, configuration));
      for (byte[] partial : OrderedSum.reduce(partials).collect()) {
        PartialSums.addInto(total.sums(), partial);
      }
    } finally {
      configuration.destroy();
    }
    return new Result(metadata, total.model(), tasks);
  }

  /**
   * @param partitions how many tasks scanned the records
   */
  public record Result(StoreMetadata metadata, BuiltModel model, int partitions) {}

  /** The dataset's metadata: its producers, types and bounds, what a request is checked and planned on. */
  public static StoreMetadata metadataOf(SparkSession spark, String dataset) throws IOException {
    return parsed(dataset, metadata(spark, dataset));
  }

  private static StoreMetadata parsed(String dataset, String metadataJson) throws IOException {
    return StoreMetadata.parse(java.nio.file.Path.of(dataset, ParquetTable.METADATA_FILE), metadataJson);
  }

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

  /**
   * The files cut into {@code tasks} (at most as many as files) contiguous shares in name order, of
   * about equal bytes: a file goes to the share where its middle byte falls. Not equal counts of
   * files (Spark's slices of a list): the files of a dataset written by the Spark import are of
   * unequal sizes (each partition's last file is short), and two tasks of equal counts then did
   * unequal work, one core idle at the end.
   */
  static List<List<String>> shares(List<FileStatus> files, int tasks) {
    long total = 0;
    for (FileStatus file : files) {
      total += file.getLen();
    }
    List<List<String>> shares = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      shares.add(new ArrayList<>());
    }
    long before = 0;
    int share = 0;
    for (int f = 0; f < files.size(); f++) {
      long length = files.get(f).getLen();
      int target = total == 0 ? (int) ((long) f * tasks / files.size())
          : (int) Math.min(tasks - 1, (before + length / 2.0) * tasks / total);
      if (f > 0) {
        share = Math.min(share + 1, Math.max(share, target)); // never back, never past an empty share
      }
      share = Math.max(share, tasks - (files.size() - f)); // a file left for each later share
      shares.get(share).add(files.get(f).getPath().toString());
      before += length;
    }
    return shares;
  }

  /** The table's Parquet files in name order (the export's order); hidden files are others' (a writer's temporaries). */
  private static List<FileStatus> files(String dataset, ParquetTable table, Configuration hadoop) throws IOException {
    Path directory = new Path(dataset, table.directory());
    FileStatus[] listed;
    try {
      listed = directory.getFileSystem(hadoop).listStatus(directory);
    } catch (FileNotFoundException e) {
      listed = new FileStatus[0];
    }
    List<FileStatus> files = Arrays.stream(listed)
        .filter(f -> f.getPath().getName().endsWith(".parquet") && !f.getPath().getName().startsWith(".")
            && !f.getPath().getName().startsWith("_"))
        .sorted(Comparator.comparing(f -> f.getPath().toString())).toList();
    if (files.isEmpty()) {
      throw new IllegalArgumentException(directory + ": no Parquet file; the dataset is incomplete (the export "
          + "writes at least one file per table)");
    }
    return files;
  }

  /** The columns the kernel of a scan's category reads: the outer type for exclusive time. */
  private static List<String> columns(ModelScan scan) {
    return switch (scan.category()) {
      case STATE -> scan.inclusive() ? List.of(Columns.START, Columns.END, Columns.PRODUCER, Columns.TYPE)
          : List.of(Columns.START, Columns.END, Columns.PRODUCER, Columns.TYPE, Columns.OUTER);
      case EVENT -> List.of(Columns.TIME, Columns.PRODUCER, Columns.TYPE);
      case VARIABLE -> List.of(Columns.START, Columns.END, Columns.VALUE, Columns.PRODUCER, Columns.TYPE);
      case LINK -> List.of(Columns.START, Columns.VOLUME, Columns.TYPE, Columns.FROM);
    };
  }

  /**
   * The records that can touch the window, as the kernels decide (they skip the others anyway):
   * row groups whose statistics fail it are not read.
   */
  private static FilterPredicate window(EventCategory category, SliceGrid grid) {
    DoubleColumn start = FilterApi.doubleColumn(Columns.START);
    return switch (category) {
      case STATE, VARIABLE -> FilterApi.and(FilterApi.lt(start, grid.end()),
          FilterApi.gtEq(FilterApi.doubleColumn(Columns.END), grid.start()));
      case EVENT -> {
        DoubleColumn time = FilterApi.doubleColumn(Columns.TIME);
        yield FilterApi.and(FilterApi.gtEq(time, grid.start()), FilterApi.lt(time, grid.end()));
      }
      case LINK -> FilterApi.and(FilterApi.gtEq(start, grid.start()), FilterApi.lt(start, grid.end()));
    };
  }

  /**
   * One task's scan: plans again from the metadata (cheap, and nothing but two strings and the
   * request crosses the network), then reads its files into reused columns, batch by batch.
   */
  private static final class FileScan implements FlatMapFunction<Iterator<List<String>>, byte[]> {
    private final String metadataJson;
    private final ModelRequest request;
    private final Broadcast<byte[]> configuration;

    FileScan(String metadataJson, ModelRequest request, Broadcast<byte[]> configuration) {
      this.metadataJson = metadataJson;
      this.request = request;
      this.configuration = configuration;
    }

    @Override
    public Iterator<byte[]> call(Iterator<List<String>> share) throws IOException {
      ModelScan scan = ModelScan.of(StoreMetadata.parse(java.nio.file.Path.of(ParquetTable.METADATA_FILE),
          metadataJson), request);
      Configuration hadoop = HadoopFiles.deserialize(configuration.value());
      while (share.hasNext()) {
        scan(scan, share.next().iterator(), hadoop);
      }
      return List.of(PartialSums.encode(scan.sums())).iterator();
    }
  }

  /** Adds the records of {@code files} (of the scan's category's table), in that order, to {@code scan}. */
  static void scan(ModelScan scan, Iterator<String> files, Configuration hadoop) throws IOException {
    org.ocelotl.store.Columns batch = org.ocelotl.store.Columns.of(scan.category(), BATCH);
    List<String> columns = columns(scan);
    FilterPredicate window = window(scan.category(), scan.grid());
    while (files.hasNext()) {
      String file = files.next();
      ParquetRecords.read(HadoopInputFile.fromPath(new Path(file), hadoop), file, scan.category(), columns, window,
          batch, scan::add);
    }
  }
}
