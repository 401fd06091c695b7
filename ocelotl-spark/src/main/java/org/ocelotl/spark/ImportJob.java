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
import org.ocelotl.format.otf2.Otf2Files;
import org.ocelotl.format.otf2.Otf2Reader;
import org.ocelotl.format.otf2.Otf2Split;
import org.ocelotl.format.paje.PajeSplit;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.trace.TraceFormat;
import scala.Tuple2;

/**
 * The import of an OTF2 archive on Spark (docs/scale-out.md, {@link Otf2Split}), from any file
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
    Otf2Split split = Otf2Split.open(anchor != null ? Otf2Files.local(anchor) : new HadoopOtf2Files(trace, hadoop));
    // Described as the local import describes an archive: by its anchor file (size, time, fingerprint).
    StoreMetadata.Source source = anchor != null ? SourceFile.describe(anchor, "otf2")
        : HadoopFiles.describe(trace.toString(), status, hadoop, "otf2");
    int n = split.locations().size();
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<Otf2Split> shared = context.broadcast(split);
    Broadcast<byte[]> configuration = context.broadcast(HadoopFiles.serialize(hadoop));
    org.apache.hadoop.fs.Path temporary = HadoopFiles.temporarySibling(out);
    FileSystem fs = out.getFileSystem(hadoop);
    String target = temporary.toString();
    int partitions = Math.max(1, n);
    // One partition per location, in definition order (parallelize puts element i in partition i).
    JavaRDD<Otf2Split.Decoded> decoded = context.parallelize(IntStream.range(0, n).boxed().toList(), partitions)
        .map(index -> shared.value().decode(index))
        .persist(StorageLevel.MEMORY_AND_DISK());
    JavaRDD<Otf2Split.Matched> matched = null;
    Broadcast<Otf2Split.Plan> planned = null;
    try {
      List<Otf2Split.LocationSummary> summaries = decoded.map(Otf2Split.Decoded::summary).collect();
      // Each channel's sides, sorted in the order the sequential reader meets them, in one task.
      matched = decoded.flatMapToPair(d -> Otf2Split.ends(d).stream().map(e -> new Tuple2<>(e, Boolean.TRUE)).iterator())
          .repartitionAndSortWithinPartitions(new KeyPartitioner<Otf2Split.End>(partitions,
              end -> Math.floorMod(end.channelHash(), partitions)))
          .mapPartitions(ends -> List.of(Otf2Split.match(keys(ends))).iterator())
          .persist(StorageLevel.MEMORY_AND_DISK());
      List<Otf2Split.ChannelSummary> channels = matched.flatMap(m -> m.channels().iterator()).collect();
      Otf2Split.Plan plan = split.plan(summaries, channels);
      Broadcast<Otf2Split.Plan> broadcastPlan = context.broadcast(plan);
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
      List<String> warnings = new ArrayList<>(plan.warnings());
      warnings.addAll(PajeSplit.merged(storeWarnings));
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
  private static String writePart(Otf2Split split, Otf2Split.Plan plan, Otf2Split.Decoded decoded, List<byte[]> matched,
      StoreMetadata.Source source, String target, byte[] configuration) throws IOException {
    TraceFormat part = new TraceFormat("otf2", "OTF2 archive assembled on Spark", () -> (file, sink, options) ->
        split.assemblePart(plan, decoded, matched.iterator(), sink), Otf2Reader::sniff);
    return DatasetParts.write(decoded == null ? 0 : decoded.summary().index(), part, source, target, configuration);
  }

  private static Iterator<Otf2Split.End> keys(Iterator<Tuple2<Otf2Split.End, Boolean>> ends) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return ends.hasNext();
      }

      @Override
      public Otf2Split.End next() {
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
    return Otf2Reader.sniff(HadoopFiles.head(file, hadoop, 16));
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
