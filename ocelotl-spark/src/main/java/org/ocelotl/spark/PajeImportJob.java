package org.ocelotl.spark;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.ZipException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.ocelotl.split.LineBatch;
import org.ocelotl.split.RangeSplit;
import org.ocelotl.split.RoutedLines;
import org.ocelotl.split.SplitWarnings;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.workspace.Formats;
import scala.Tuple2;

/**
 * The import of a Pajé trace on Spark, split by byte ranges (docs/scale-out.md, {@link RangeSplit}):
 * the driver reads the header; a first pass over the ranges counts their lines and collects the
 * definitions; a second pass sends each event line to the partition of its container (or of its
 * link), in batches that a shuffle puts in trace order; each partition reads the definitions and its lines
 * with the local reader, then replays its recording into a store of its own (every producer and
 * type, its own records) whose records the local export writes as the partition's files of the
 * dataset; the driver writes the producers, the types and the metadata, sums of the partitions'.
 * No task reads the whole file, but for gzip, which cannot be split: one task reads it, and the
 * command says so. The trace and the dataset may be on any file system Hadoop reads ({@link
 * HadoopFiles}).
 */
final class PajeImportJob {
  /** The most bytes per range by default: Spark's own default split of a text file. */
  static final long MAX_DEFAULT_RANGE_BYTES = 128L << 20;

  private PajeImportJob() {}

  /** Whether the file is a Pajé trace, plain or gzip'd (what the local tool recognises). */
  static boolean isPaje(Path file, Configuration hadoop) throws IOException {
    try (InputStream in = text(file, file.toString(), isGzip(file, hadoop), hadoop)) {
      return Formats.looksLikePaje(in.readNBytes(4096));
    }
  }

  static boolean isGzip(Path file, Configuration hadoop) throws IOException {
    byte[] magic = HadoopFiles.head(file, hadoop, 2);
    return magic.length == 2 && magic[0] == (byte) 0x1f && magic[1] == (byte) 0x8b;
  }

  /** One byte range of the body. */
  record Range(int index, long start, long end, boolean first) implements Serializable {}

  /**
   * Imports {@code trace} (a Pajé file, qualified, on a file system the driver and every executor
   * read: a local path the same on all of them, HDFS, S3…) with ranges of {@code rangeBytes} and
   * writes its dataset as {@code out} (qualified, any file system); returns the number of ranges.
   * {@code rangeBytes} 0 lets the job choose ({@link #defaultRangeBytes}).
   */
  static ImportJob.Result run(SparkSession spark, Path trace, Path out, boolean replace, long rangeBytes)
      throws IOException {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    HadoopFiles.requireAbsentOrReplaced(out, hadoop, replace);
    FileStatus status = HadoopFiles.file(trace, hadoop);
    // A local trace is named by its real path, as the local import names it (its messages start with it).
    String file = HadoopFiles.isLocal(trace) ? HadoopFiles.local(trace).toRealPath().toString() : trace.toString();
    boolean gzip = isGzip(trace, hadoop);
    RangeSplit<?, ?, ?, ?> split;
    try (InputStream in = new BufferedInputStream(text(trace, file, gzip, hadoop), 1 << 16)) {
      split = Formats.pajeSplit(in, file);
    }
    return run(spark, split, trace, status, file, gzip, out, replace, rangeBytes);
  }

  /** The import of a split opened on the driver; its type parameters are the split's own records. */
  private static <S, P, R, T> ImportJob.Result run(SparkSession spark, RangeSplit<S, P, R, T> split, Path trace,
      FileStatus status, String file, boolean gzip, Path out, boolean replace, long requestedRangeBytes)
      throws IOException {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    long rangeBytes = requestedRangeBytes != 0 ? requestedRangeBytes
        : defaultRangeBytes(status.getLen() - split.bodyStart(), spark.sparkContext().defaultParallelism());
    List<Range> ranges = ranges(split.bodyStart(), gzip ? Long.MAX_VALUE : status.getLen(), gzip, rangeBytes);
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<RangeSplit<S, P, R, T>> shared = context.broadcast(split);
    Broadcast<byte[]> configuration = context.broadcast(HadoopFiles.serialize(hadoop));
    String location = trace.toString(); // Hadoop's Path does not serialise
    int n = ranges.size();
    // Pass one reads every byte of its range (gzip: the whole text), so a cut or corrupt gzip stream is
    // found here, and said as the local reader says it.
    List<S> summaries = context.parallelize(ranges, n)
        .map(r -> {
          try (InputStream in = open(location, shared.value(), gzip, r, configuration.value())) {
            return shared.value().summarize(in);
          } catch (EOFException | ZipException e) {
            throw Formats.gzipError(shared.value().file(), e);
          }
        }).collect();
    Broadcast<P> plan = context.broadcast(split.plan(summaries, n));
    JavaRDD<R> read = context.parallelize(ranges, n)
        .flatMapToPair(r -> batches(shared.value().route(
            open(location, shared.value(), gzip, r, configuration.value()), r.index(), plan.value()), r.index(), n, batchBytes(rangeBytes)))
        .repartitionAndSortWithinPartitions(new KeyPartitioner<BatchKey>(n, BatchKey::partition))
        .mapPartitions(batches -> List.of(shared.value().interpret(plan.value(), lines(batches))).iterator())
        .persist(StorageLevel.MEMORY_AND_DISK());
    StoreMetadata.Source source = HadoopFiles.describe(file, status, hadoop, "paje");
    Path temporary = HadoopFiles.temporarySibling(out);
    FileSystem fs = out.getFileSystem(hadoop);
    Broadcast<T> order = null;
    try {
      // The types of every partition first (small), numbered as the sequential read numbers them;
      // then each partition writes its own store's records as its files of the dataset.
      order = context.broadcast(split.typeOrder(read.map(r -> shared.value().types(r)).collect()));
      Broadcast<T> types = order;
      String target = temporary.toString();
      List<Part> parts = read.mapPartitionsWithIndex((index, recordings) -> List.of(writePart(shared.value(),
          index, recordings.next(), types.value(), source, target, configuration.value())).iterator(), false).collect();
      List<StoreMetadata> stores = new ArrayList<>();
      // A list, not a set: two partitions may word the same counted warning alike, and both count.
      List<String> warnings = new ArrayList<>();
      for (Part part : parts) {
        stores.add(StoreMetadata.parse(java.nio.file.Path.of(file), part.metadata()));
        warnings.addAll(part.warnings());
      }
      StoreMetadata metadata = StoreMetadata.ofParts(stores, source, SplitWarnings.merged(warnings));
      DatasetParts.writeDescription(metadata, temporary, hadoop);
      HadoopFiles.publish(temporary, out, hadoop, replace);
      return new ImportJob.Result(metadata, n);
    } finally {
      read.unpersist();
      shared.destroy();
      plan.destroy();
      configuration.destroy();
      if (order != null) {
        order.destroy();
      }
      fs.delete(temporary, true);
    }
  }

  /**
   * What a partition wrote: its store's metadata file (its producers and types, its counts) and its
   * warnings, to be merged with the other partitions'.
   */
  record Part(String metadata, List<String> warnings) implements Serializable {}

  /**
   * A partition's share of the dataset: its recording replayed into a store of its own
   * ({@link DatasetParts#write}), its records written as the partition's files of each table under
   * {@code target}.
   */
  private static <R, T> Part writePart(RangeSplit<?, ?, R, T> split, int index, R recording, T order,
      StoreMetadata.Source source, String target, byte[] configuration) throws IOException {
    List<String> warnings = new ArrayList<>();
    TraceFormat part = new TraceFormat("paje", "Pajé trace read on Spark", () -> (f, sink, options) ->
        split.assemblePart(order, recording, sink, warnings), Formats::looksLikePaje);
    String metadata = DatasetParts.write(index, part, source, target, configuration);
    return new Part(metadata, List.copyOf(warnings));
  }

  /**
   * Bytes per range for a body of {@code bytes} on {@code cores} (the application's default
   * parallelism): ranges of at most {@link #MAX_DEFAULT_RANGE_BYTES}, as many as a multiple of the
   * cores, of equal sizes. The ranges are also the partitions that interpret the lines, so each
   * wave of tasks keeps every core busy: with Spark's fixed 128 MiB, the large SimGrid trace
   * (297 MB) made 3 tasks on 2 cores, the third alone, and local[2] was 1.07× faster than local[1].
   */
  static long defaultRangeBytes(long bytes, int cores) {
    long ranges = Math.max(1, ceilDiv(bytes, MAX_DEFAULT_RANGE_BYTES));
    ranges = ceilDiv(ranges, Math.max(1, cores)) * Math.max(1, cores);
    return Math.max(1, ceilDiv(bytes, ranges));
  }

  /** Math.ceilDiv, which Java 17 lacks, for a ≥ 0 and b > 0. */
  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  private static List<Range> ranges(long body, long length, boolean gzip, long rangeBytes) {
    List<Range> ranges = new ArrayList<>();
    if (gzip) {
      ranges.add(new Range(0, body, Long.MAX_VALUE, true));
      return ranges;
    }
    for (long start = body; start < length || ranges.isEmpty(); start += rangeBytes) {
      ranges.add(new Range(ranges.size(), start, Math.min(length, start + rangeBytes), ranges.isEmpty()));
    }
    return ranges;
  }

  /**
   * The trace's text from its start: for gzip, decompressed and refused beyond the local reader's
   * expansion limit ({@code ocelotl.gzip.maxRatio}, a system property of the JVM that reads it: the
   * driver's for the header, the executor's for the passes).
   */
  private static InputStream text(Path file, String name, boolean gzip, Configuration hadoop) throws IOException {
    InputStream in = HadoopFiles.open(file, hadoop);
    return gzip ? Formats.gunzipPaje(name, in, file.getFileSystem(hadoop).getFileStatus(file).getLen()) : in;
  }

  /** A range's lines: from the byte before it (to see whether a line starts on it), or through the gzip text. */
  private static InputStream open(String location, RangeSplit<?, ?, ?, ?> split, boolean gzip, Range range, byte[] configuration)
      throws IOException {
    Configuration hadoop = HadoopFiles.deserialize(configuration);
    Path path = new Path(location);
    InputStream in;
    if (gzip) {
      in = new BufferedInputStream(text(path, split.file(), true, hadoop), 1 << 16);
      in.skipNBytes(split.bodyStart());
    } else {
      FSDataInputStream stream = path.getFileSystem(hadoop).open(path);
      stream.seek(range.first() ? range.start() : range.start() - 1);
      in = new BufferedInputStream(stream, 1 << 16);
    }
    return split.range(in, range.start(), range.end(), range.first());
  }

  /**
   * Bytes of lines per batch: lines travel in batches, each a run of one range's lines for one
   * partition, so that the shuffle moves and sorts a few large records instead of a record per line
   * (a key, a byte array, Java serialisation each). A sixteenth of a range, between 1 KiB and 4 MiB,
   * keeps a task's buffers small (a default range makes batches of 4 MiB) and gives the tests' small
   * ranges several batches each.
   */
  static int batchBytes(long rangeBytes) {
    return (int) Math.min(4 << 20, Math.max(1 << 10, rangeBytes / 16));
  }

  /**
   * A range's routed lines as batches for the shuffle ({@link LineBatch}), made as the shuffle
   * asks for them: each batch holds lines of one partition in trace order, keyed by (partition,
   * range, sequence), the order in which a partition reads them back.
   */
  private static Iterator<Tuple2<BatchKey, byte[]>> batches(RoutedLines lines, int range, int partitions,
      int batchBytes) {
    return new Iterator<>() {
      private final LineBatch[] buffers = new LineBatch[partitions];
      private final int[] sequence = new int[partitions];
      private final ArrayDeque<Tuple2<BatchKey, byte[]>> ready = new ArrayDeque<>();
      private boolean ended;

      @Override
      public boolean hasNext() {
        try {
          while (ready.isEmpty() && !ended) {
            if (lines.next()) {
              int p = lines.partition();
              if (buffers[p] == null) {
                buffers[p] = new LineBatch(Math.min(batchBytes, 1 << 16));
              }
              lines.addTo(buffers[p]);
              if (buffers[p].size() >= batchBytes) {
                emit(p);
              }
            } else {
              ended = true;
              for (int p = 0; p < partitions; p++) {
                emit(p);
              }
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return !ready.isEmpty();
      }

      private void emit(int p) {
        if (buffers[p] != null && buffers[p].size() > 0) {
          ready.add(new Tuple2<>(new BatchKey(p, range, sequence[p]++), buffers[p].take()));
        }
      }

      @Override
      public Tuple2<BatchKey, byte[]> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return ready.poll();
      }
    };
  }

  /** A partition's batches, in key order: its lines in trace order. */
  private static Iterator<byte[]> lines(Iterator<Tuple2<BatchKey, byte[]>> batches) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return batches.hasNext();
      }

      @Override
      public byte[] next() {
        return batches.next()._2();
      }
    };
  }

  /**
   * A batch's key: its partition, then the range and the batch's place in it, by which the shuffle
   * sorts a partition's batches (ranges in trace order, each range's lines in order): trace order.
   */
  record BatchKey(int partition, int range, int sequence) implements Serializable, Comparable<BatchKey> {
    @Override
    public int compareTo(BatchKey other) {
      return range != other.range ? Integer.compare(range, other.range) : Integer.compare(sequence, other.sequence);
    }
  }
}
