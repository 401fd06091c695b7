package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The Pajé import on Spark (local[2]) against the local export, with byte ranges forced small so
 * that states, variable steps and links span ranges: the same producers and types (same ids, names,
 * counts, in metadata.json) and the same records, bit for bit — compared sorted, since the
 * partitions hand records to the store in another order than the sequential read, so the rows of a
 * store chunk (and of the files) come in another order. gzip input is read by one task, with a
 * warning.
 */
class SparkPajeImportTest {
  static SparkSession spark;

  @TempDir static Path tmp;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("SparkPajeImportTest")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "localhost")
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /**
   * ms.trace has links with sizes; s4u_mw_small states, variables and links over 69 producers;
   * smpi_perturbed is large enough (0.9 M records) that sums added in the tasks' order differed in
   * their last digits before the statistics' sums were compensated. The task count is that of the ranges, ⌈(file size − header bytes) / range bytes⌉.
   */
  @ParameterizedTest(name = "{0} in ranges of {1} bytes")
  @CsvSource({"paje/pajeng/ms.trace, 1500, 15", "paje/simgrid/s4u_mw_small.trace, 16384, 19",
      "paje/simgrid/smpi_perturbed.trace, 4000000, 4"})
  void smallRangesGiveTheLocalRecords(String trace, long rangeBytes, int ranges) throws IOException {
    Path file = SharedTraces.file(trace);
    Path out = tmp.resolve("spark-" + file.getFileName());
    SparkModelTest.Run run = SparkModelTest.run("import", file.toString(), "--out", out.toString(), "--range-bytes",
        Long.toString(rangeBytes));
    StoreMetadata local = assertSameDataset(file, out);
    assertEquals(new SparkModelTest.Run(0, String.format("%s: %d producers, %d types, [%s, %s) s, read in %d Spark tasks → %s%n",
        file.getFileName(), local.producers().size(), local.types().size(), local.start(), local.end(), ranges, out)), run);
    // The dataset opens as a trace (issue 34, item 1) and its statistics are the original's byte
    // for byte, though its records come in the tasks' order: the sums do not show the order.
    String window = Double.toString((local.start() + local.end()) / 3);
    for (List<String> options : List.<List<String>>of(List.of(), List.of("--by", "producer"), List.of("--kind", "variable,link"),
        List.of("--from", window, "--by", "producer", "--top", "3", "--inclusive"))) {
      String original = stats(file, options);
      assertTrue(original.lines().count() > 2, original);
      assertEquals(original, stats(out, options), options.toString());
    }
  }

  /** What {@code ocelotl stats TRACE --csv OPTIONS} prints, in a workspace of its own per trace. */
  private static String stats(Path trace, List<String> options) {
    List<String> command = new ArrayList<>(List.of("stats", "--csv"));
    command.addAll(options);
    SparkHdfsTest.Output run = SparkHdfsTest.output(false, command, trace.toString(),
        tmp.resolve("stats-ws-" + trace.getFileName()).toString());
    assertEquals(0, run.status(), run.err());
    return run.out();
  }

  @Test
  void gzipIsReadByOneTaskWithAWarning() throws IOException {
    Path gzip = tmp.resolve("ms.trace.gz");
    try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(gzip))) {
      Files.copy(SharedTraces.file("paje/pajeng/ms.trace"), z);
    }
    Path out = tmp.resolve("spark-gzip");
    SparkModelTest.Run run = SparkModelTest.run("import", gzip.toString(), "--out", out.toString(), "--range-bytes", "1500");
    StoreMetadata local = assertSameDataset(gzip, out);
    assertEquals(new SparkModelTest.Run(0, "ocelotl-spark: warning: " + gzip + " is gzip'd, which cannot be split: one "
        + "task reads it whole (decompress it to read it in parallel)\n" + String.format(
        "ms.trace.gz: %d producers, %d types, [%s, %s) s, read in 1 Spark tasks → %s%n", local.producers().size(),
        local.types().size(), local.start(), local.end(), out)), run);
  }

  /** A trace line the local reader refuses is refused at the same line, and no dataset is left. */
  @Test
  void aBadLineIsRefusedAtItsLine() throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(SharedTraces.file("paje/pajeng/ms.trace")));
    int last = lines.size() - 1;
    lines.set(last, lines.get(last) + " extra");
    Path bad = tmp.resolve("bad.trace");
    Files.write(bad, lines);
    TraceFormatException local = assertThrows(TraceFormatException.class, () -> Workspace.open(tmp.resolve("ws-bad"))
        .store(bad, ImportOptions.DEFAULT, ImportProgress.NONE));
    String reason = local.getMessage().lines().findFirst().orElseThrow();
    assertTrue(reason.startsWith(bad.toRealPath() + ":" + lines.size() + ": "), reason);
    Path out = tmp.resolve("spark-bad");
    assertEquals(new SparkModelTest.Run(1, "ocelotl-spark: " + reason + "\n"),
        SparkModelTest.run("import", bad.toString(), "--out", out.toString(), "--range-bytes", "1500"));
    assertFalse(Files.exists(out));
  }

  /**
   * gzip'd input the local reader refuses — a text that expands beyond its limit (a gzip bomb behind
   * a valid header), a stream cut short — is refused by the Spark import with the local reader's
   * message, and no dataset is left. The limit is lowered to 100× for the test: newlines deflate at
   * about 1030×, so behind a trace's header they stay under the default 1000×.
   */
  @Test
  void gzipTheLocalReaderRefusesIsRefusedWithItsMessage() throws IOException {
    byte[] trace = Files.readAllBytes(SharedTraces.file("paje/pajeng/ms.trace"));
    Path bomb = tmp.resolve("bomb.trace.gz");
    byte[] newlines = new byte[1 << 20];
    Arrays.fill(newlines, (byte) '\n');
    try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(bomb), 1 << 16)) {
      z.write(trace);
      for (int i = 0; i < 100; i++) { // 100 MiB of newlines after the trace, about 100 KB compressed
        z.write(newlines);
      }
    }
    Path whole = tmp.resolve("whole.trace.gz");
    try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(whole))) {
      z.write(trace);
    }
    Path cut = tmp.resolve("cut.trace.gz");
    byte[] zipped = Files.readAllBytes(whole);
    Files.write(cut, Arrays.copyOf(zipped, zipped.length - 20));
    String ratio = System.setProperty(Limit.GZIP_RATIO.property(), "100"); // the executors' JVM, in local mode
    try {
      assertRefusedAsLocally(bomb);
      assertRefusedAsLocally(cut);
    } finally {
      if (ratio == null) {
        System.clearProperty(Limit.GZIP_RATIO.property());
      } else {
        System.setProperty(Limit.GZIP_RATIO.property(), ratio);
      }
    }
  }

  private static void assertRefusedAsLocally(Path refused) {
    TraceFormatException local = assertThrows(TraceFormatException.class, () -> Workspace.open(tmp.resolve("ws-gzip"))
        .store(refused, ImportOptions.DEFAULT, ImportProgress.NONE));
    assertTrue(local.getMessage().contains("gzip data"), local.getMessage());
    Path out = tmp.resolve("spark-" + refused.getFileName());
    assertEquals(new SparkModelTest.Run(1, "ocelotl-spark: warning: " + refused + " is gzip'd, which cannot be split: "
            + "one task reads it whole (decompress it to read it in parallel)\nocelotl-spark: " + local.getMessage() + "\n"),
        SparkModelTest.run("import", refused.toString(), "--out", out.toString()));
    assertFalse(Files.exists(out));
  }

  private static StoreMetadata assertSameDataset(Path trace, Path onSpark) throws IOException {
    return SameDataset.assertSameDataset(trace, onSpark, tmp);
  }
}
