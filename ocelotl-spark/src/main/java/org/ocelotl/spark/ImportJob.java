package org.ocelotl.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.ocelotl.format.otf2.Otf2Files;
import org.ocelotl.format.otf2.Otf2Reader;
import org.ocelotl.format.otf2.Otf2Split;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * The import of an OTF2 archive on Spark (docs/scale-out.md), from any file system Hadoop reads
 * ({@link HadoopOtf2Files}): the driver reads the anchor and the global definitions once and
 * broadcasts them; one task per location decodes its event file into a recording; the driver
 * takes the recordings one partition at a time, in location order, and replays them into a store
 * with the local reader's own code ({@link Otf2Split#assemble}: type ids, message matching across
 * locations, warnings), then writes the store's Parquet dataset with the local export's writer. The dataset is therefore the local export's, file for file.
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
    // A local archive is read and named by its anchor's real path, as the local import does.
    Path anchor = HadoopFiles.isLocal(trace) ? HadoopFiles.local(trace).toRealPath() : null;
    Otf2Split split = Otf2Split.open(anchor != null ? Otf2Files.local(anchor) : new HadoopOtf2Files(trace, hadoop));
    List<Long> locations = split.locations();
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<Otf2Split> shared = context.broadcast(split);
    // One partition per location, in definition order. toLocalIterator hands them back in that
    // order but computes them one after the other: count() first decodes them all at once, and
    // the iterator then fetches the kept recordings (spilled to the executors' disks if need be).
    JavaRDD<byte[]> decoded = context.parallelize(locations, Math.max(1, locations.size()))
        .map(location -> shared.value().decode(location))
        .persist(StorageLevel.MEMORY_AND_DISK());
    Path store = null;
    try {
      decoded.count();
      Iterator<byte[]> recordings = decoded.toLocalIterator();
      store = HadoopFiles.storeDirectory(out);
      TraceFormat replayed = new TraceFormat("otf2", "OTF2 archive decoded on Spark", () -> (file, sink, options) ->
          split.assemble(recordings, sink), Otf2Reader::sniff);
      if (anchor != null) {
        Importer.importTrace(anchor, replayed, ImportOptions.DEFAULT, ImportProgress.NONE, store,
            StoreWriter.DEFAULT_CHUNK_CAPACITY);
      } else {
        // Described as the local import describes an archive: by its anchor file (size, time, fingerprint).
        String name = trace.toString();
        Importer.importTrace(Path.of(name), HadoopFiles.describe(name, status, hadoop, replayed.name()), replayed,
            ImportOptions.DEFAULT, ImportProgress.NONE, new StoreWriter(store, StoreWriter.DEFAULT_CHUNK_CAPACITY));
      }
      TraceStore imported = TraceStore.open(store);
      HadoopFiles.writeDataset(imported, out, hadoop, replace);
      return new Result(imported.metadata(), locations.size());
    } finally {
      decoded.unpersist();
      shared.destroy();
      if (store != null) {
        deleteTree(store);
      }
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
