package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * {@code ocelotl-spark import} (local[2]) against the local import and export: on every OTF2
 * archive at hand, the dataset is the one {@code ocelotl export --format parquet} writes, file for
 * file and byte for byte (the Parquet files hold no time stamp, so equal bytes mean equal records in
 * equal order, equal type ids, equal links matched across event files, equal metadata.json).
 */
class SparkImportTest {
  static final Path OTF2 = SparkModelTest.TRACES.resolve("otf2");
  static SparkSession spark;

  @TempDir static Path tmp;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("SparkImportTest")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "localhost")
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /** The archives, the name the import says, and how many event files (so tasks) each has. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "ez_mpi4/eztrace_log.otf2, eztrace_log.otf2, 4",
      "ez_hybrid/eztrace_log.otf2, eztrace_log.otf2, 4",
      "pytrace/traces.otf2, traces.otf2, 6"})
  void theSparkDatasetIsTheLocalExport(String archive, String name, int locations) throws IOException {
    Path trace = OTF2.resolve(archive);
    String id = archive.substring(0, archive.indexOf('/'));
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    Path local = tmp.resolve("local-" + id);
    ParquetExport.write(store, local, ParquetExport.CHUNKS_PER_FILE, false);
    Path onSpark = tmp.resolve("spark-" + id);

    SparkModelTest.Run run = SparkModelTest.run("import", trace.toString(), "--out", onSpark.toString());

    var m = store.metadata();
    assertEquals(new SparkModelTest.Run(0, String.format("%s: %d producers, %d types, [%s, %s) %s, decoded in %d Spark tasks → %s%n",
        name, m.producers().size(), m.types().size(), m.start(), m.end(), m.timeUnit(), locations, onSpark)), run);
    List<Path> files = files(local);
    assertEquals(files, files(onSpark));
    for (Path file : files) {
      assertArrayEquals(Files.readAllBytes(local.resolve(file)), Files.readAllBytes(onSpark.resolve(file)),
          file.toString());
    }
  }

  /**
   * What the equality above covers of the message path: ez_mpi4's 4,000 MPI_ISEND (otf2-print's
   * count) travel as recorded message sides, wait on the driver for receives the archive does not
   * record (only MPI_IRECV_REQUEST), and end as 4,000 events. No archive at hand records a receive
   * with its sender, so no link is matched across event files here (docs/scale-out.md).
   */
  @Test
  void ezMpi4sSendsComeBackAsEvents() throws IOException {
    Path out = tmp.resolve("spark-sends");
    assertEquals(0, SparkModelTest.run("import", OTF2.resolve("ez_mpi4/eztrace_log.otf2").toString(), "--out", out.toString()).status());
    Path metadata = out.resolve(ParquetTable.METADATA_FILE);
    var types = StoreMetadata.parse(metadata, Files.readString(metadata)).types();
    assertEquals(List.of(4000L), types.stream().filter(t -> t.name().equals("MPI_ISEND")).map(t -> t.count()).toList());
    assertEquals(0L, types.stream().filter(t -> t.category() == org.ocelotl.model.EventCategory.LINK)
        .mapToLong(t -> t.count()).sum());
  }

  @Test
  void aFileThatIsNeitherOtf2NorPajeIsRefusedInOneLine() {
    Path jfr = SparkModelTest.TRACES.resolve("jfr/workload.jfr");
    Path out = tmp.resolve("refused");
    assertEquals(new SparkModelTest.Run(1, "ocelotl-spark: " + jfr + ": neither an OTF2 anchor file (NAME.otf2) nor a Pajé "
        + "trace; this import reads those two\n"), SparkModelTest.run("import", jfr.toString(), "--out", out.toString()));
    assertFalse(Files.exists(out));
  }

  /** The dataset's files, relative, sorted. */
  private static List<Path> files(Path dataset) throws IOException {
    try (Stream<Path> paths = Files.walk(dataset)) {
      return paths.filter(Files::isRegularFile).map(dataset::relativize).sorted().toList();
    }
  }
}
