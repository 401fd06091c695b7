package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.model.Metric;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.testing.SharedTraces;

/**
 * The Spark import and model on a real HDFS (a NameNode and a DataNode in this JVM, Hadoop's
 * MiniDFSCluster): a Pajé trace read from HDFS and its dataset written there are the dataset the
 * same job writes from and to local files, file for file, but for the trace's name and time in
 * metadata.json; so is an OTF2 archive's, read from HDFS file by file (the anchor and definitions
 * by the driver, each event file by its task); the model of the HDFS dataset is the local
 * dataset's, bit for bit. Bad input on HDFS is refused in one line and leaves nothing behind there.
 */
class SparkHdfsTest {
  static MiniDFSCluster hdfs;
  static FileSystem fs;
  static SparkSession spark;

  @TempDir static Path tmp;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("hdfs").toString());
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    hdfs.waitActive();
    fs = hdfs.getFileSystem();
    spark = SparkSession.builder().master("local[2]").appName("SparkHdfsTest")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "localhost")
        .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
    hdfs.shutdown();
  }

  /** A local file copied to HDFS under /traces; its URI. */
  private static String onHdfs(Path local) throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path("/traces/" + local.getFileName());
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), target);
    return fs.makeQualified(target).toString();
  }

  private static String hdfsPath(String path) {
    return fs.makeQualified(new org.apache.hadoop.fs.Path(path)).toString();
  }

  @ParameterizedTest(name = "{0} in ranges of {1} bytes")
  @CsvSource({"paje/simgrid/s4u_mw_small.trace, 16384, false", "paje/pajeng/ms.trace, 1500, true"})
  void aPajeTraceOnHdfsGivesTheLocalDataset(String trace, long rangeBytes, boolean gzip) throws IOException {
    Path file = SharedTraces.file(trace);
    if (gzip) {
      Path zipped = tmp.resolve(file.getFileName() + ".gz");
      try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(zipped))) {
        Files.copy(file, z);
      }
      file = zipped;
    }
    String name = file.getFileName().toString();
    String remote = onHdfs(file);
    String remoteDataset = hdfsPath("/datasets/" + name);
    Path localDataset = tmp.resolve("local-" + name);
    SparkModelTest.Run localRun = SparkModelTest.run("import", file.toString(), "--out", localDataset.toString(),
        "--range-bytes", Long.toString(rangeBytes));
    assertEquals(0, localRun.status());
    SparkModelTest.Run run = SparkModelTest.run("import", remote, "--out", remoteDataset, "--range-bytes",
        Long.toString(rangeBytes));
    // the same tasks (gzip: one, said in the same warning), the same counts and bounds
    assertEquals(new SparkModelTest.Run(0, localRun.err().replace(file.toString(), remote)
        .replace(localDataset.toString(), remoteDataset)), run);
    assertEquals(gzip, run.err().contains("gzip'd"));

    Path fetched = fetchSameFiles(remoteDataset, localDataset, "fetched-" + name);
    // metadata.json: the same but for the trace's name and time, HDFS's (the fingerprint is that of the same bytes).
    ObjectMapper json = new ObjectMapper();
    JsonNode expected = json.readTree(localDataset.resolve(ParquetTable.METADATA_FILE).toFile());
    ((ObjectNode) expected.get("source")).put("path", remote)
        .put("modified", fs.getFileStatus(new org.apache.hadoop.fs.Path(remote)).getModificationTime());
    assertEquals(expected, json.readTree(fetched.resolve(ParquetTable.METADATA_FILE).toFile()));
    assertEquals(List.of(), listing("/datasets").stream().filter(n -> n.startsWith(".")).toList(), "temporaries left");
  }

  /** The model of a dataset on HDFS is the model of the same dataset on the local disk, bit for bit. */
  @Test
  void aModelOfADatasetOnHdfsIsTheLocalOne() throws IOException {
    Path file = SharedTraces.file("paje/simgrid/s4u_mw_small.trace");
    Path localDataset = tmp.resolve("model-local");
    String remoteDataset = hdfsPath("/model/dataset");
    assertEquals(0, SparkModelTest.run("import", file.toString(), "--out", localDataset.toString()).status());
    assertEquals(0, SparkModelTest.run("import", file.toString(), "--out", remoteDataset).status());
    for (ModelRequest request : List.of(ModelRequest.of(Metric.STATE_DURATION, 40).withExact(true),
        ModelRequest.of(Metric.STATE_AVERAGE, 9).withExact(true), ModelRequest.of(Metric.VARIABLE_MEAN, 13).withExact(true))) {
      double[] local = ModelJob.build(spark, localDataset.toString(), request).model().model().values();
      double[] remote = ModelJob.build(spark, remoteDataset, request).model().model().values();
      assertFalse(Arrays.stream(local).allMatch(v -> v == 0), request.metric().toString());
      assertArrayEquals(local, remote, request.metric().toString());
    }
  }

  @Test
  void badInputOnHdfsIsRefusedInOneLineAndLeavesNothing() throws IOException {
    String missing = hdfsPath("/traces/missing.trace");
    String out = hdfsPath("/bad/out");
    assertEquals(new SparkModelTest.Run(1, "ocelotl-spark: " + missing + ": no such file\n"),
        SparkModelTest.run("import", missing, "--out", out));

    List<String> lines = new ArrayList<>(Files.readAllLines(SharedTraces.file("paje/pajeng/ms.trace")));
    int last = lines.size() - 1;
    lines.set(last, lines.get(last) + " extra");
    Path bad = tmp.resolve("bad-line.trace");
    Files.write(bad, lines);
    String remote = onHdfs(bad);
    fs.mkdirs(new org.apache.hadoop.fs.Path("/bad"));
    SparkModelTest.Run refused = SparkModelTest.run("import", remote, "--out", out, "--range-bytes", "1500");
    assertEquals(1, refused.status());
    assertEquals(1, refused.err().lines().count(), refused.err());
    assertEquals(true, refused.err().startsWith("ocelotl-spark: " + remote + ":" + lines.size() + ": "), refused.err());
    assertEquals(List.of(), listing("/bad"));

    String existing = hdfsPath("/bad/existing");
    fs.mkdirs(new org.apache.hadoop.fs.Path(existing));
    assertEquals(new SparkModelTest.Run(1, "ocelotl-spark: " + existing + " exists; --force replaces it\n"),
        SparkModelTest.run("import", SharedTraces.file("paje/pajeng/ms.trace").toString(), "--out", existing));
    assertEquals(List.of("existing"), listing("/bad"));
  }

  /**
   * An OTF2 archive on HDFS: the driver reads its anchor and global definitions there, each task
   * its location's event file and local definitions (ez_mpi4 has them); the dataset is the one the
   * same job writes from the local archive, file for file, but for the trace's name and time.
   */
  @Test
  void anOtf2ArchiveOnHdfsGivesTheLocalDataset() throws IOException {
    Path archive = SharedTraces.file("otf2/ez_mpi4");
    String remote = archiveOnHdfs(archive, "/otf2/ez_mpi4");
    Path anchor = archive.resolve(ANCHOR).toRealPath();
    Path localDataset = tmp.resolve("local-otf2");
    String remoteDataset = hdfsPath("/datasets/otf2");
    SparkModelTest.Run localRun = SparkModelTest.run("import", anchor.toString(), "--out", localDataset.toString());
    assertEquals(0, localRun.status(), localRun.err());
    assertTrue(localRun.err().contains("decoded in 4 Spark tasks"), localRun.err());
    int temporaries = driverTemporaries();

    SparkModelTest.Run run = SparkModelTest.run("import", remote, "--out", remoteDataset);

    assertEquals(new SparkModelTest.Run(0, localRun.err().replace(localDataset.toString(), remoteDataset)), run);
    Path fetched = fetchSameFiles(remoteDataset, localDataset, "fetched-otf2");
    // An archive is described by its anchor file, as the local import describes it: size, time, fingerprint.
    ObjectMapper json = new ObjectMapper();
    JsonNode expected = json.readTree(localDataset.resolve(ParquetTable.METADATA_FILE).toFile());
    assertEquals(anchor.toString(), expected.get("source").get("path").asText());
    assertEquals(Files.size(anchor), expected.get("source").get("size").asLong());
    ((ObjectNode) expected.get("source")).put("path", remote)
        .put("modified", fs.getFileStatus(new org.apache.hadoop.fs.Path(remote)).getModificationTime());
    assertEquals(expected, json.readTree(fetched.resolve(ParquetTable.METADATA_FILE).toFile()));
    assertEquals(List.of(), listing("/datasets").stream().filter(n -> n.startsWith(".")).toList(), "temporaries left");
    assertEquals(temporaries, driverTemporaries(), "the driver's store or dataset left behind");
  }

  /**
   * A damaged archive on HDFS, found by the driver (its definitions) or by a task (an event file):
   * refused in the line the same damage gives on the local disk, the file named by its URI, with
   * nothing left on HDFS or in the driver's temporary directory.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"missing, eztrace_log/536870911.evt", "cut, eztrace_log/536870911.evt", "cut, eztrace_log.def"})
  void aDamagedOtf2ArchiveOnHdfsIsRefusedInOneLineAndLeavesNothing(String damage, String file) throws IOException {
    String id = damage + "-" + file.replace('/', '-');
    Path archive = tmp.resolve("damaged-" + id);
    copyArchive(SharedTraces.file("otf2/ez_mpi4"), archive);
    Path damaged = archive.resolve(file);
    if (damage.equals("missing")) {
      Files.delete(damaged);
    } else {
      byte[] bytes = Files.readAllBytes(damaged);
      Files.write(damaged, Arrays.copyOf(bytes, bytes.length / 2));
    }
    String remoteArchive = "/damaged/" + id;
    String remote = archiveOnHdfs(archive, remoteArchive);
    String out = hdfsPath("/damaged-out/" + id);
    fs.mkdirs(new org.apache.hadoop.fs.Path("/damaged-out"));
    Path anchor = archive.resolve(ANCHOR).toRealPath();
    SparkModelTest.Run local = SparkModelTest.run("import", anchor.toString(), "--out", tmp.resolve("out-" + id).toString());
    assertEquals(1, local.status());
    assertTrue(local.err().startsWith("ocelotl-spark: " + anchor.resolveSibling(file)), local.err());
    int temporaries = driverTemporaries();

    SparkModelTest.Run refused = SparkModelTest.run("import", remote, "--out", out);

    assertEquals(new SparkModelTest.Run(1, local.err().replace(anchor.getParent().toString(), hdfsPath(remoteArchive))),
        refused);
    assertEquals(1, refused.err().lines().count(), refused.err());
    assertEquals(List.of(), listing("/damaged-out"));
    assertEquals(temporaries, driverTemporaries(), "the driver's store left behind");
  }

  /**
   * The local tool's commands on a dataset on HDFS, through ocelotl-spark (decision 055): the dataset
   * exported from a trace and put on HDFS answers as the trace does, byte for byte; a second command
   * copies nothing; a dataset replaced on HDFS is copied and imported again; a missing one is one
   * line, and no copy is left half-written.
   */
  @Test
  void theLocalCommandsOpenADatasetOnHdfs() throws IOException {
    Path trace = SharedTraces.file("paje/simgrid/s4u_mw_small.trace");
    Path other = SharedTraces.file("paje/pajeng/ms.trace");
    String ws = tmp.resolve("local-commands-ws").toString();
    String remote = hdfsPath("/local-commands/s4u.parquet");
    putDataset(trace, ws, remote);
    List<List<String>> commands = List.of(List.of("stats", "--by", "producer"), List.of("events", "--limit", "20"),
        List.of("stats", "--kind", "variable"));
    for (List<String> command : commands) {
      Output expected = output(false, command, trace.toString(), ws);
      assertEquals(0, expected.status(), expected.err());
      assertEquals(expected, output(true, command, remote, ws), command.toString());
    }
    Path fetched = tmp.resolve("local-commands-ws").resolve("fetched");
    List<Path> copies;
    try (Stream<Path> paths = Files.walk(fetched)) {
      copies = paths.filter(p -> p.getFileName().toString().equals("dataset.json")).toList();
    }
    assertEquals(1, copies.size(), copies.toString());
    assertEquals("s4u.parquet", copies.get(0).getParent().getFileName().toString());
    java.nio.file.attribute.FileTime copied = Files.getLastModifiedTime(copies.get(0));
    assertEquals(output(false, commands.get(0), trace.toString(), ws), output(true, commands.get(0), remote, ws));
    assertEquals(copied, Files.getLastModifiedTime(copies.get(0)), "copied again though unchanged on HDFS");

    fs.delete(new org.apache.hadoop.fs.Path(remote), true);
    putDataset(other, ws, remote);
    assertEquals(output(false, commands.get(0), other.toString(), ws), output(true, commands.get(0), remote, ws));
    try (Stream<Path> paths = Files.walk(fetched)) {
      assertEquals(List.of(), paths.filter(p -> p.getFileName().toString().startsWith(".s4u")).toList(),
          "temporaries left");
    }

    String missing = hdfsPath("/local-commands/missing.parquet");
    assertEquals(new Output(1, "", "ocelotl-spark: " + missing + ": no such file or directory\n"),
        output(true, List.of("info"), missing, ws));
  }

  /** The trace exported as a Parquet dataset by the local tool, put on HDFS at {@code remote}. */
  private static void putDataset(Path trace, String ws, String remote) throws IOException {
    Path dataset = tmp.resolve("dataset-" + UUID.randomUUID());
    Output export = output(false, List.of("export", "--format", "parquet", "--out", dataset.toString()),
        trace.toString(), ws);
    assertEquals(0, export.status(), export.err());
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(dataset.toUri()), new org.apache.hadoop.fs.Path(remote));
  }

  record Output(int status, String out, String err) {}

  /** A command (its name, then options) on a trace, by ocelotl-spark or by ocelotl; what it wrote. */
  static Output output(boolean spark, List<String> command, String trace, String ws) {
    List<String> args = new ArrayList<>(List.of(command.get(0), trace));
    args.addAll(command.subList(1, command.size()));
    args.addAll(List.of("--workspace", ws));
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      String[] array = args.toArray(String[]::new);
      int status = spark ? SparkMain.run(array) : org.ocelotl.app.Main.run(array);
      return new Output(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  private static final String ANCHOR = "eztrace_log.otf2";

  /** An OTF2 archive's files (anchor, definitions, event directory; not the printouts beside them). */
  private static List<String> archiveFiles(Path archive) throws IOException {
    try (Stream<Path> paths = Files.list(archive)) {
      return paths.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("eztrace_log")
          && (n.endsWith(".otf2") || n.endsWith(".def") || n.equals("eztrace_log"))).sorted().toList();
    }
  }

  private static void copyArchive(Path archive, Path target) throws IOException {
    Files.createDirectories(target);
    for (String name : archiveFiles(archive)) {
      try (Stream<Path> paths = Files.walk(archive.resolve(name))) {
        for (Path p : paths.toList()) { // a directory before its files
          Files.copy(p, target.resolve(archive.relativize(p).toString()));
        }
      }
    }
  }

  /** A local archive's files copied to an HDFS directory; its anchor's URI. */
  private static String archiveOnHdfs(Path archive, String directory) throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(directory);
    fs.mkdirs(target);
    for (String name : archiveFiles(archive)) {
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(archive.resolve(name).toUri()), target);
    }
    return hdfsPath(directory + "/" + ANCHOR);
  }

  /** The driver's temporary stores and datasets (a finished or refused import deletes its own). */
  private static int driverTemporaries() throws IOException {
    try (Stream<Path> paths = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return (int) paths.filter(p -> p.getFileName().toString().startsWith("ocelotl-spark-")).count();
    }
  }

  /** The names in an HDFS directory, hidden ones (a writer's temporaries) included, sorted. */
  private static List<String> listing(String directory) throws IOException {
    return Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path(directory))).map(s -> s.getPath().getName())
        .sorted().toList();
  }

  private static StoreMetadata metadata(Path dataset) throws IOException {
    Path file = dataset.resolve(ParquetTable.METADATA_FILE);
    return StoreMetadata.parse(file, Files.readString(file));
  }

  /** A dataset's files, relative, sorted (Hadoop's checksum files of a copy left out). */
  /**
   * Fetches the HDFS dataset into {@code name} under the test's directory and checks it holds the
   * local dataset's files, each byte for byte but metadata.json and dataset.json (which name the trace), the
   * caller's to compare; returns the fetched directory.
   */
  private static Path fetchSameFiles(String remoteDataset, Path localDataset, String name) throws IOException {
    Path fetched = tmp.resolve(name);
    fs.copyToLocalFile(new org.apache.hadoop.fs.Path(remoteDataset), new org.apache.hadoop.fs.Path(fetched.toUri()));
    List<Path> files = files(localDataset);
    assertEquals(files, files(fetched));
    for (Path f : files) {
      if (!f.toString().equals(ParquetTable.METADATA_FILE) && !f.toString().equals(ParquetTable.DATASET_FILE)) {
        assertArrayEquals(Files.readAllBytes(localDataset.resolve(f)), Files.readAllBytes(fetched.resolve(f)), f.toString());
      }
    }
    return fetched;
  }

  private static List<Path> files(Path dataset) throws IOException {
    try (Stream<Path> paths = Files.walk(dataset)) {
      return paths.filter(Files::isRegularFile).map(dataset::relativize)
          .filter(p -> !p.getFileName().toString().endsWith(".crc")).sorted().toList();
    }
  }
}
