package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelCsv;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.scan.Metrics;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ModelScan;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The Spark path against the local one: the model a Spark job (local[2]) builds from a trace's
 * Parquet dataset equals the model {@code ocelotl model} builds from its store, for every metric the
 * trace offers, several windows, N and filters — counts exactly, sums to 1e-12 relative. Why not bit
 * for bit: the local scan adds a cell's records one after another in store order; the Spark tasks
 * each add their partition's records, and the reduction then adds those partial sums, so the same
 * terms are added in another grouping, and floating-point addition is not associative. Counts are
 * integers far below 2^53, added exactly in any grouping.
 *
 * <p>Stores are cut into chunks of 500 records and datasets into files of two chunks, shared by the
 * two tasks of local[2], so every model here is summed from two partial models (but for the tiniest
 * traces, of one file).
 */
class SparkModelTest {
  static SparkSession spark;

  @TempDir static Path tmp;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("SparkModelTest")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "localhost")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  /** What is compared: one trace, one request, and whether the metric counts (exact) or sums (1e-12). */
  static Stream<Arguments> requests() {
    Path bundled = Path.of("../examples/smpi_perturbed.trace.gz");
    Path mpi4 = SharedTraces.file("otf2/ez_mpi4/eztrace_log.otf2");
    Path events = SharedTraces.file("paje/pajeng/events.trace");
    Path masterWorker = SharedTraces.file("paje/simgrid/s4u_mw_small.trace");
    Path jfr = SharedTraces.file("jfr/workload.jfr");
    Path chrome = SharedTraces.file("chrome/node_trace.json");
    ModelRequest all = ModelRequest.of(Metric.STATE_DURATION, 50).withExact(true);
    return Stream.of(
        Arguments.of(bundled, all),
        Arguments.of(bundled, all.withWindow(3, 5).withSlices(7).withProducers(select(List.of("lyon"), List.of(), 0))),
        Arguments.of(bundled, request(Metric.STATE_AVERAGE, 100).withTypes(List.of("computing", "PMPI_Waitall"))),
        Arguments.of(bundled, request(Metric.VARIABLE_MEAN, 20).withTypes(List.of("speed_used"))),
        Arguments.of(bundled, request(Metric.LINK_COUNT, 30).withProducers(select(List.of(), List.of("nancy"), 2))),
        // A plug-in's metric (decision 054): shipped to the executors by name, found there on the class path.
        Arguments.of(bundled, request(Metrics.parse(MeanDurationBegun.NAME), 40)),
        Arguments.of(mpi4, request(Metric.STATE_DURATION, 10)),
        Arguments.of(mpi4, request(Metric.STATE_DURATION, 10).withInclusive(true)),
        Arguments.of(mpi4, request(Metric.EVENT_COUNT, 25)),
        Arguments.of(events, request(Metric.EVENT_COUNT, 4)),
        Arguments.of(masterWorker, request(Metric.STATE_AVERAGE, 9)),
        Arguments.of(masterWorker, request(Metric.VARIABLE_MEAN, 13)),
        Arguments.of(jfr, request(Metric.STATE_DURATION, 10)),
        Arguments.of(jfr, request(Metric.EVENT_COUNT, 10)),
        Arguments.of(chrome, request(Metric.STATE_DURATION, 20)));
  }

  @ParameterizedTest
  @MethodSource("requests")
  void theSparkModelIsTheLocalModel(Path trace, ModelRequest request) throws IOException {
    Dataset d = dataset(trace);
    ModelJob.Result result = ModelJob.build(spark, d.parquet.toString(), request);
    // A task per core, each its share of the files: with two, partial sums are added up.
    assertEquals(Math.min(2, files(d.parquet.resolve(ParquetTable.of(request.metric().category()).directory()))),
        result.partitions());
    assertSame(ModelBuilder.build(d.store, request).model(), result.model().model(), counts(request.metric()));
  }

  /**
   * More tasks than the session's cores: the reduction's intermediate level runs (9 partials, 3
   * groups of 3), and the model's bits are those of the partials added in partition order, group by
   * group — whichever task finishes first. Variable means (value × time) over one slice, so that
   * every partial adds to every cell with bits to lose (a time-contiguous share of the files adds to
   * few of many slices, and this trace's state durations add up exactly in any order): the flat sum
   * of the same partials differs in some cells, so the comparison tells the orders apart.
   */
  @Test
  void theReductionAddsInPartitionOrder() throws IOException {
    Dataset d = dataset(Path.of("../examples/smpi_perturbed.trace.gz"));
    ModelRequest request = request(Metric.VARIABLE_MEAN, 1);
    int tasks = 9;
    int fanIn = OrderedSum.fanIn(tasks);
    List<FileStatus> files;
    try (Stream<Path> listed = Files.list(d.parquet.resolve(ParquetTable.VARIABLES.directory()))) {
      LocalFileSystem local = FileSystem.getLocal(new Configuration());
      files = listed.sorted().map(f -> {
        try {
          return local.getFileStatus(new org.apache.hadoop.fs.Path(f.toString()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).toList();
    }
    assertTrue(files.size() >= tasks, files.size() + " files");
    List<List<String>> shares = ModelJob.shares(files, tasks);
    StoreMetadata metadata = StoreMetadata.parse(d.parquet.resolve(ParquetTable.METADATA_FILE),
        Files.readString(d.parquet.resolve(ParquetTable.METADATA_FILE)));
    ModelScan tree = ModelScan.of(metadata, request);
    ModelScan flat = ModelScan.of(metadata, request);
    for (int g = 0; g * fanIn < tasks; g++) {
      ModelScan group = ModelScan.of(metadata, request);
      for (int i = g * fanIn; i < Math.min(tasks, (g + 1) * fanIn); i++) {
        ModelScan partial = ModelScan.of(metadata, request);
        ModelJob.scan(partial, shares.get(i).iterator(), new Configuration());
        group.add(partial.sums());
        flat.add(partial.sums());
      }
      tree.add(group.sums());
    }
    double[] expected = tree.model().model().values();
    assertFalse(Arrays.equals(expected, flat.model().model().values()));
    for (int run = 0; run < 3; run++) {
      ModelJob.Result result = ModelJob.build(spark, d.parquet.toString(), request, tasks);
      assertEquals(tasks, result.partitions());
      assertArrayEquals(expected, result.model().model().values(), "run " + run);
      assertSame(ModelBuilder.build(d.store, request).model(), result.model().model(), false);
    }
  }

  /** The command line writes the model files that ocelotl aggregate reads: read back, they hold the local model. */
  @Test
  void theCommandWritesTheModelFiles() throws IOException {
    Dataset d = dataset(Path.of("../examples/smpi_perturbed.trace.gz"));
    Path model = tmp.resolve("out/model.csv");
    Path tree = tmp.resolve("out/tree.csv");
    Run run = run("model", d.parquet.toString(), "--metric", "state-duration", "--slices", "40", "--from", "2",
        "--to", "10", "--exclude", "nancy", "--out", model.toString(), "--tree-out", tree.toString());
    assertEquals(0, run.status, run.err);
    assertEquals("smpi_perturbed.trace.gz: state-duration (exclusive time) model, 48 producers × 40 slices × 8 types, window [2.0, 10.0)"
        + " s, values in s, exact, scanned in 2 Spark partitions\n", run.err);
    ModelRequest request = request(Metric.STATE_DURATION, 40).withWindow(2, 10)
        .withProducers(select(List.of(), List.of("nancy"), 0));
    // The local model through the same files (what ocelotl model --out --tree-out writes): the reader numbers
    // the tree its own way, so both sides are compared as read back.
    MicroscopicModel local = ModelBuilder.build(d.store, request).model();
    Path localModel = tmp.resolve("out/local-model.csv");
    Path localTree = tmp.resolve("out/local-tree.csv");
    try (Writer w = Files.newBufferedWriter(localModel)) {
      ModelCsv.write(local, w);
    }
    try (Writer w = Files.newBufferedWriter(localTree)) {
      ModelCsv.writeTree(local.tree(), w);
    }
    assertSame(ModelCsv.read(localModel, localTree, 40), ModelCsv.read(model, tree, 40), false);

    // --out M.ocm: the binary model file of 'ocelotl model', its tree inside, read back as the local model's.
    Path binary = tmp.resolve("out/model.ocm");
    Path localBinary = tmp.resolve("out/local-model.ocm");
    assertEquals(0, run("model", d.parquet.toString(), "--metric", "state-duration", "--slices", "40", "--from", "2",
        "--to", "10", "--exclude", "nancy", "--out", binary.toString()).status);
    ModelFiles.write(local, localBinary);
    assertSame(ModelFiles.read(localBinary, null, 0), ModelFiles.read(binary, null, 0), false);
    assertArrayEquals(Files.readAllBytes(localBinary), Files.readAllBytes(binary));
  }

  /** --depth auto resolves as ocelotl model's does: on the dataset's metadata, for the overview's default rows. */
  @Test
  void anAutomaticDepthIsResolvedAsLocally() throws IOException {
    Dataset d = dataset(Path.of("../examples/smpi_perturbed.trace.gz"));
    Path binary = tmp.resolve("auto/model.ocm");
    Run run = run("model", d.parquet.toString(), "--slices", "20", "--depth", "auto", "--out", binary.toString());
    assertEquals(0, run.status, run.err);
    ModelRequest resolved = ModelBuilder.withDepthFor(d.store, request(Metric.STATE_DURATION, 20)
        .withProducers(select(List.of(), List.of(), ProducerSelection.AUTO_DEPTH)), AnalysisRequest.DEFAULT_ROWS);
    Path local = tmp.resolve("auto/local.ocm");
    ModelFiles.write(ModelBuilder.build(d.store, resolved).model(), local);
    assertArrayEquals(Files.readAllBytes(local), Files.readAllBytes(binary));
  }

  @Test
  void badInputIsOneLineAndLeavesNoOutput() throws IOException {
    Dataset d = dataset(Path.of("../examples/smpi_perturbed.trace.gz"));
    Path missing = tmp.resolve("nowhere");
    assertRefused("ocelotl-spark: " + missing + ": not a trace's Parquet dataset (no metadata.json); write one with: "
        + "ocelotl export TRACE --format parquet --out DIR\n", missing.toString());
    assertRefused("ocelotl-spark: unknown producer 'atlantis'\n", d.parquet.toString(), "--producers", "atlantis");
    assertRefused("ocelotl-spark: unknown state type 'sleeping'; the trace's state types with records are: MPI_STATE "
        + "(PMPI_Init, computing, PMPI_Barrier, PMPI_Irecv, PMPI_Isend, PMPI_Waitall, PMPI_Allreduce, PMPI_Finalize)\n", d.parquet.toString(), "--types", "sleeping");
    // A dataset whose state files were cut short: Spark's reader finds it, the driver says so in one line.
    Path corrupt = tmp.resolve("corrupt");
    copy(d.parquet, corrupt);
    Path states = corrupt.resolve("states/part-00003.parquet");
    Files.write(states, java.util.Arrays.copyOf(Files.readAllBytes(states), 1000));
    Run run = run("model", corrupt.toString(), "--slices", "10", "--out", tmp.resolve("x/model.csv").toString(),
        "--tree-out", tmp.resolve("x/tree.csv").toString());
    assertEquals(1, run.status);
    assertTrue(run.err.startsWith("ocelotl-spark: ") && run.err.indexOf('\n') == run.err.length() - 1, run.err);
    assertTrue(run.err.contains("part-00003.parquet"), run.err);
    assertFalse(Files.exists(tmp.resolve("x")));
  }

  private static void assertRefused(String err, String dataset, String... options) {
    Path out = tmp.resolve("refused");
    List<String> args = new ArrayList<>(List.of("model", dataset, "--slices", "10", "--out",
        out.resolve("model.csv").toString(), "--tree-out", out.resolve("tree.csv").toString()));
    args.addAll(List.of(options));
    assertEquals(new Run(1, err), run(args.toArray(String[]::new)));
    assertFalse(Files.exists(out));
  }

  record Run(int status, String err) {}

  /** SparkMain.run with its exit status and what it wrote on stderr (SparkImportTest uses it too). */
  static Run run(String... args) {
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      int status = SparkMain.run(args);
      return new Run(status, bytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
    }
  }

  private static int files(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return (int) files.count();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  private static ModelRequest request(Metric metric, int slices) {
    return ModelRequest.of(metric, slices).withExact(true);
  }

  private static ProducerSelection select(List<String> include, List<String> exclude, int depth) {
    return new ProducerSelection(include, exclude, depth);
  }

  private static boolean counts(Metric metric) {
    return metric == Metric.EVENT_COUNT || metric == Metric.LINK_COUNT;
  }

  record Dataset(TraceStore store, Path parquet) {}

  static Dataset dataset(Path trace) throws IOException {
    Path dir = tmp.resolve("d-" + trace.getFileName());
    TraceStore store = Workspace.open(tmp.resolve("ws"), Formats.standard(), 500)
        .store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    if (!Files.exists(dir)) {
      ParquetExport.write(store, dir, 2, false);
    }
    return new Dataset(store, dir);
  }

  static void assertSame(MicroscopicModel local, MicroscopicModel spark, boolean counts) {
    assertEquals(local.tree().size(), spark.tree().size());
    for (int n = 0; n < local.tree().size(); n++) {
      assertEquals(local.tree().name(n), spark.tree().name(n));
      assertEquals(local.tree().parent(n), spark.tree().parent(n));
    }
    assertEquals(local.types(), spark.types());
    assertEquals(local.slices(), spark.slices());
    double[] a = local.values();
    double[] b = spark.values();
    assertEquals(a.length, b.length);
    for (int i = 0; i < a.length; i++) {
      if (counts) {
        assertEquals(a[i], b[i], "cell " + i);
      } else {
        assertTrue(Math.abs(a[i] - b[i]) <= 1e-12 * Math.max(Math.abs(a[i]), Math.abs(b[i])),
            "cell " + i + ": " + a[i] + " vs " + b[i]);
      }
    }
  }
}
