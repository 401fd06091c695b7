package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.testing.SharedTraces;

/**
 * {@code ocelotl-spark import} (local[2]) of OTF2 archives against the local import and export: on
 * every archive at hand (those of shared/traces/otf2, and the Score-P-style archive of
 * ocelotl-trace's test resources, whose 72 messages are matched across event files), metadata.json's
 * producers, types (same ids, counts), bounds, counts and warnings are the local export's, and every
 * table's records, sorted, are its records bit for bit ({@link SameDataset}). The rows are in another
 * order (each location's part writes its own files, part-PPPPP-NNNNN.parquet), so the files are
 * not byte for byte the local export's.
 */
class SparkImportTest {
  static final Path OTF2 = SharedTraces.file("otf2");
  /** Score-P-style, with local definitions and MPI messages between its 3 ranks (scripts/gen-otf2-trace). */
  static final Path SCOREP = Path.of("../ocelotl-trace/src/test/resources/org/ocelotl/format/otf2/scorep/traces.otf2");
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

  /** The archives, the name the import says, how many event files (so tasks) each has, and its links. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "ez_mpi4/eztrace_log.otf2, eztrace_log.otf2, 4, 0",
      "ez_hybrid/eztrace_log.otf2, eztrace_log.otf2, 4, 0",
      "pytrace/traces.otf2, traces.otf2, 6, 0",
      "scorep, traces.otf2, 4, 72"})
  void theSparkDatasetHoldsTheLocalRecords(String archive, String name, int locations, long links) throws IOException {
    Path trace = archive.equals("scorep") ? SCOREP.toRealPath() : OTF2.resolve(archive);
    String id = archive.contains("/") ? archive.substring(0, archive.indexOf('/')) : archive;
    Path onSpark = tmp.resolve("spark-" + id);

    SparkModelTest.Run run = SparkModelTest.run("import", trace.toString(), "--out", onSpark.toString());

    StoreMetadata m = SameDataset.assertSameDataset(trace, onSpark, tmp);
    assertEquals(new SparkModelTest.Run(0, String.format("%s: %d producers, %d types, [%s, %s) %s, decoded in %d Spark tasks → %s%n",
        name, m.producers().size(), m.types().size(), m.start(), m.end(), m.timeUnit(), locations, onSpark)), run);
    assertEquals(links, m.count(EventCategory.LINK));
    // Each location's part wrote its own file of each table.
    for (EventCategory category : EventCategory.values()) {
      List<String> names = files(onSpark.resolve(ParquetTable.of(category).directory())).stream()
          .map(Path::toString).toList();
      assertEquals(IntStream.range(0, locations).mapToObj(p -> String.format("part-%05d-00000.parquet", p)).toList(),
          names, category.toString());
    }
  }

  /**
   * What the equality above covers of the unmatched sides: ez_mpi4's 4,000 MPI_ISEND (otf2-print's
   * count) go through the shuffle by channel, find no receive (the archive records only
   * MPI_IRECV_REQUEST), and end as 4,000 events written by their senders' parts.
   */
  @Test
  void ezMpi4sSendsComeBackAsEvents() throws IOException {
    Path out = tmp.resolve("spark-sends");
    assertEquals(0, SparkModelTest.run("import", OTF2.resolve("ez_mpi4/eztrace_log.otf2").toString(), "--out", out.toString()).status());
    Path metadata = out.resolve(ParquetTable.METADATA_FILE);
    var types = StoreMetadata.parse(metadata, Files.readString(metadata)).types();
    assertEquals(List.of(4000L), types.stream().filter(t -> t.name().equals("MPI_ISEND")).map(t -> t.count()).toList());
    assertEquals(0L, types.stream().filter(t -> t.category() == EventCategory.LINK)
        .mapToLong(t -> t.count()).sum());
  }

  @Test
  void aFileThatIsNeitherOtf2NorPajeIsRefusedInOneLine() {
    Path jfr = SharedTraces.file("jfr/workload.jfr");
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
