package org.ocelotl.spark;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * A dataset written in parts by the executors, as the Spark imports write it (Pajé and OTF2): each
 * partition replays its share of the trace into a store of its own (every producer and type, its
 * own records) and writes that store's records as its files of each table; the driver writes the
 * producers, the types, dataset.json and metadata.json, merged from the parts' metadata
 * ({@link StoreMetadata#ofParts}), into the same hidden directory, then publishes it.
 */
final class DatasetParts {
  private DatasetParts() {}

  /**
   * A partition's share of the dataset: {@code part} (a format whose reader replays the share)
   * imported into a store in the executor's temporary directory, whose records the export writes as
   * the partition's files of each table ({@code part-PPPPP-NNNNN.parquet}, P the partition), moved
   * under {@code target}; returns the store's metadata file (its producers and types, its counts).
   */
  static String write(int index, TraceFormat part, StoreMetadata.Source source, String target, byte[] configuration)
      throws IOException {
    Configuration hadoop = HadoopFiles.deserialize(configuration);
    java.nio.file.Path scratch = Files.createTempDirectory("ocelotl-spark-part");
    try {
      java.nio.file.Path store = Files.createDirectory(scratch.resolve("store"));
      StoreMetadata metadata = Importer.importTrace(java.nio.file.Path.of(source.path()), source, part,
          ImportOptions.DEFAULT, ImportProgress.NONE, new StoreWriter(store, StoreWriter.DEFAULT_CHUNK_CAPACITY));
      TraceStore written = TraceStore.open(store);
      for (EventCategory category : EventCategory.values()) {
        // Written beside the store, then moved: a retried task replaces a failed attempt's files.
        String table = ParquetTable.of(category).directory();
        ParquetExport.writeRecords(written, category, scratch.resolve(table),
            String.format("%s%05d-", ParquetExport.PART, index), ParquetExport.CHUNKS_PER_FILE);
        HadoopFiles.moveInto(scratch.resolve(table), new Path(target, table), hadoop);
      }
      return metadata.json();
    } finally {
      ImportJob.deleteTree(scratch);
    }
  }

  /** The dataset's producers and types tables and its metadata file, written by the driver. */
  static void writeDescription(StoreMetadata metadata, Path dataset, Configuration hadoop) throws IOException {
    boolean local = HadoopFiles.isLocal(dataset);
    java.nio.file.Path directory = local ? HadoopFiles.local(dataset) : Files.createTempDirectory("ocelotl-spark-dataset");
    try {
      ParquetExport.writeDescription(metadata, directory);
      Files.writeString(directory.resolve(ParquetTable.METADATA_FILE), metadata.json());
      if (!local) {
        HadoopFiles.moveInto(directory, dataset, hadoop);
      }
    } finally {
      if (!local) {
        ImportJob.deleteTree(directory);
      }
    }
  }
}
