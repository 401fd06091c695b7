package org.ocelotl.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.ocelotl.split.MatchedEnds;
import org.ocelotl.split.MessageEnd;
import org.ocelotl.split.MessageSplit;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.split.SplitWarnings;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.workspace.Formats;
import scala.Tuple2;

/**
 * The import of an OTF2 archive on Spark (docs/scale-out.md, {@link MessageSplit}), from any file
 * system Hadoop reads ({@link HadoopOtf2Files}): the driver reads the anchor and the global
 * definitions once and broadcasts them; a task per location decodes its event file; a shuffle
 * keyed by channel brings each channel's message sides together, in the order the sequential
 * reader meets them, and a task per group of channels matches them; the driver numbers the types
 * and words the warnings from small summaries (a few numbers per location and per channel); a task
 * per location then writes its records, the links it sent and its unmatched sides as its files of
 * the dataset ({@link DatasetParts}). The records are those of the local import, bit for bit; the
 * rows are in another order, in files named {@code part-PPPPP-NNNNN.parquet} (P the location).
 */
final class ImportJob {
  private ImportJob() {}

  /** What an import did: the trace's metadata (counts, bounds) and the number of tasks that decoded it. */
  record Result(StoreMetadata metadata, int tasks) {}

  /**
   * Imports {@code trace} (an OTF2 anchor file, qualified, on a file system the driver and every
   * executor read: a local path the same on all of them, HDFS, S3…) and writes its dataset as
   * {@code out} (qualified, any file system). The driver reads the anchor and the global
   * definitions; each task opens only its location's event file and local definitions.
   *
   * @throws IllegalArgumentException for an existing out without replace, or a trace that is not a file
   */
  static Result run(SparkSession spark, org.apache.hadoop.fs.Path trace, org.apache.hadoop.fs.Path out,
      boolean replace) throws IOException {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    HadoopFiles.requireAbsentOrReplaced(out, hadoop, replace);
    FileStatus status = HadoopFiles.file(trace, hadoop);
    // A local archive is read and named by its anchor's real path, and described, as the local import does.
    Path anchor = HadoopFiles.isLocal(trace) ? HadoopFiles.local(trace).toRealPath() : null;
    MessageSplit<?, ?, ?, ?, ?> split =
        Formats.otf2Split(anchor != null ? Otf2Files.local(anchor) : new HadoopOtf2Files(trace, hadoop));
    // Described as the local import describes an archive: by its anchor file (size, time, fingerprint).
    StoreMetadata.Source source = anchor != null ? SourceFile.describe(anchor, "otf2")
        : HadoopFiles.describe(trace.toString(), status, hadoop, "otf2");
    return run(spark, split, source, out, replace);
  }

  /** The import of a split opened on the driver; its type parameters are the split's own records. */
  private static <D, S, E extends MessageEnd<E>, C, P> Result run(SparkSession spark, MessageSplit<D, S, E, C, P> split,
      StoreMetadata.Source source, org.apache.hadoop.fs.Path out, boolean replace) throws IOException {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    int n = split.tasks();
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<MessageSplit<D, S, E, C, P>> shared = context.broadcast(split);
    Broadcast<byte[]> configuration = context.broadcast(HadoopFiles.serialize(hadoop));
    org.apache.hadoop.fs.Path temporary = HadoopFiles.temporarySibling(out);
    FileSystem fs = out.getFileSystem(hadoop);
    String target = temporary.toString();
    int partitions = Math.max(1, n);
    // One partition per location, in definition order (parallelize puts element i in partition i).
    JavaRDD<D> decoded = context.parallelize(IntStream.range(0, n).boxed().toList(), partitions)
        .map(index -> shared.value().decode(index))
        .persist(StorageLevel.MEMORY_AND_DISK());
    JavaRDD<MatchedEnds<C>> matched = null;
    Broadcast<P> planned = null;
    try {
      List<S> summaries = decoded.map(d -> shared.value().summary(d)).collect();
      // Each channel's sides, sorted in the order the sequential reader meets them, in one task.
      matched = decoded.flatMapToPair(d -> shared.value().ends(d).stream().map(e -> new Tuple2<>(e, Boolean.TRUE)).iterator())
          .repartitionAndSortWithinPartitions(new KeyPartitioner<E>(partitions,
              end -> Math.floorMod(end.channelHash(), partitions)))
          .mapPartitions(ends -> List.of(shared.value().match(keys(ends))).iterator())
          .persist(StorageLevel.MEMORY_AND_DISK());
      List<C> channels = matched.flatMap(m -> m.channels().iterator()).collect();
      P plan = split.plan(summaries, channels);
      Broadcast<P> broadcastPlan = context.broadcast(plan);
      planned = broadcastPlan;
      // The links and unmatched sides to the partition of the location that writes them, in a fixed order.
      JavaPairRDD<PartKey, byte[]> toParts = JavaPairRDD.fromJavaRDD(matched.mapPartitionsWithIndex((group, ms) -> {
        List<Tuple2<PartKey, byte[]>> pieces = new ArrayList<>();
        ms.forEachRemaining(m -> m.byLocation().forEach((location, bytes) ->
            pieces.add(new Tuple2<>(new PartKey(location, group), bytes))));
        return pieces.iterator();
      }, false)).repartitionAndSortWithinPartitions(new KeyPartitioner<PartKey>(partitions, PartKey::location));
      List<String> parts = n == 0 ? List.of(writePart(split, plan, null, List.of(), source, target,
          HadoopFiles.serialize(hadoop)))
          : decoded.zipPartitions(toParts, (ds, pieces) -> {
            List<byte[]> mine = new ArrayList<>();
            pieces.forEachRemaining(p -> mine.add(p._2()));
            return List.of(writePart(shared.value(), broadcastPlan.value(), ds.next(), mine, source, target,
                configuration.value())).iterator();
          }).collect();
      List<StoreMetadata> stores = new ArrayList<>();
      List<String> storeWarnings = new ArrayList<>();
      for (String part : parts) {
        StoreMetadata metadata = StoreMetadata.parse(Path.of(source.path()), part);
        stores.add(metadata);
        storeWarnings.addAll(metadata.warnings());
      }
      // The sequential read's warnings, then those of the parts' store writers, merged as one writer words them.
      List<String> warnings = new ArrayList<>(split.warnings(plan));
      warnings.addAll(SplitWarnings.merged(storeWarnings));
      StoreMetadata metadata = StoreMetadata.ofParts(stores, source, warnings);
      DatasetParts.writeDescription(metadata, temporary, hadoop);
      HadoopFiles.publish(temporary, out, hadoop, replace);
      return new Result(metadata, n);
    } finally {
      decoded.unpersist();
      if (matched != null) {
        matched.unpersist();
      }
      if (planned != null) {
        planned.destroy();
      }
      shared.destroy();
      configuration.destroy();
      fs.delete(temporary, true);
    }
  }

  /** A location's share of the dataset: its records, and the links and unmatched sides it got, as its files. */
  private static <D, P> String writePart(MessageSplit<D, ?, ?, ?, P> split, P plan, D decoded, List<byte[]> matched,
      StoreMetadata.Source source, String target, byte[] configuration) throws IOException {
    TraceFormat part = new TraceFormat("otf2", "OTF2 archive assembled on Spark", () -> (file, sink, options) ->
        split.assemblePart(plan, decoded, matched.iterator(), sink), otf2().recognizes());
    return DatasetParts.write(decoded == null ? 0 : split.task(decoded), part, source, target, configuration);
  }

  private static <E> Iterator<E> keys(Iterator<Tuple2<E, Boolean>> ends) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return ends.hasNext();
      }

      @Override
      public E next() {
        return ends.next()._1();
      }
    };
  }

  /** Where a location's share of the matched messages goes: its partition, in the order of the matching tasks. */
  record PartKey(int location, int group) implements Serializable, Comparable<PartKey> {
    @Override
    public int compareTo(PartKey other) {
      return location != other.location ? Integer.compare(location, other.location) : Integer.compare(group, other.group);
    }
  }

  static boolean isOtf2(org.apache.hadoop.fs.Path file, Configuration hadoop) throws IOException {
    return otf2().recognizes().test(HadoopFiles.head(file, hadoop, 16));
  }

  private static TraceFormat otf2() {
    return Formats.standard().named("otf2");
  }

  static void deleteTree(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
