package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.ChildJvm;
import org.ocelotl.testing.SharedTraces;

/**
 * The jobs run as ./ocelotl-spark.sh runs them: {@code java} with the module's classes and the class
 * path Maven resolves (Spark's jars from the provided scope), no spark-submit and no session made
 * beforehand; {@code --help} with Spark's jars left out.
 */
class SparkLauncherTest {
  @TempDir Path tmp;

  record Run(int status, String out) {}

  /** SparkMain in a JVM of its own on {@code classpath}, with the JVM options of the module's tests (Spark's add-opens). */
  static Run sparkMain(String classpath, String... args) throws IOException, InterruptedException {
    List<String> command = ChildJvm.command();
    command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("-Djdk.reflect") || a.startsWith("-Dio.netty")
            || a.startsWith("-Djava.io.tmpdir"))
        .toList());
    command.addAll(List.of("-cp", classpath, SparkMain.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "did not finish: " + out);
    return new Run(process.exitValue(), out);
  }

  static String classpath() {
    return System.getProperty("java.class.path");
  }

  /** The class path without Spark, Scala and Hadoop: Ocelotl's classes, picocli, Jackson, Parquet. */
  static String withoutSpark() {
    return Arrays.stream(classpath().split(File.pathSeparator))
        .filter(entry -> {
          String name = Path.of(entry).getFileName().toString();
          return !name.startsWith("spark-") && !name.startsWith("scala-") && !name.startsWith("hadoop-");
        })
        .collect(Collectors.joining(File.pathSeparator));
  }

  @Test
  void helpWithoutSpark() throws Exception {
    for (String[] args : List.of(new String[] {"--help"}, new String[] {"import", "--help"},
        new String[] {"model", "--help"})) {
      Run run = sparkMain(withoutSpark(), args);
      assertEquals(0, run.status(), run.out());
      assertTrue(run.out().startsWith("Usage: ocelotl-spark"), run.out());
    }
    assertTrue(sparkMain(withoutSpark(), "import", "--help").out().contains("--master=URL"));
    // The command list shows each description's first line: a whole sentence, not a cut one.
    String list = sparkMain(withoutSpark(), "--help").out();
    assertTrue(list.contains("  import  Import a Pajé trace or an OTF2 archive on Spark into a Parquet\n"
        + "            dataset.\n"), list);
    assertTrue(list.contains("  model   Build the microscopic model of a trace's Parquet dataset on Spark.\n"), list);
  }

  @Test
  void noMasterIsOneLine() throws Exception {
    Run run = sparkMain(classpath(), "model", tmp.toString(), "--slices", "10", "--out", tmp.resolve("m.ocm").toString());
    assertEquals(1, run.status(), run.out());
    // Spark's own warnings about this host may come first; the refusal is the last line.
    List<String> lines = run.out().lines().toList();
    assertEquals("ocelotl-spark: no Spark master: give --master 'local[N]' (N cores of this machine) or the cluster's URL, "
        + "or run the jar with spark-submit --master", lines.get(lines.size() - 1), run.out());
  }

  /** An import then a model with --master, each in a JVM of its own that starts and stops its session. */
  @Test
  void importThenModelWithMaster() throws Exception {
    Path dataset = tmp.resolve("ms.parquet");
    Path model = tmp.resolve("ms.ocm");
    Run imported = sparkMain(classpath(), "import", SharedTraces.file("paje/pajeng/ms.trace").toString(),
        "--out", dataset.toString(), "--master", "local[2]", "--range-bytes", "16000");
    assertEquals(0, imported.status(), imported.out());
    assertTrue(Files.isRegularFile(dataset.resolve("metadata.json")), imported.out());
    Run built = sparkMain(classpath(), "model", dataset.toString(), "--slices", "20", "--out", model.toString(),
        "--metric", "link-count", "--master", "local[2]"); // ms.trace has links and events, no states
    assertEquals(0, built.status(), built.out());
    assertTrue(built.out().contains("scanned in 2 Spark partitions"), built.out());
    assertTrue(Files.size(model) > 0);
    // The local tool's commands on the same class path (decision 055): the dataset opens as a trace.
    Run info = sparkMain(classpath(), "info", dataset.toString(), "--workspace", tmp.resolve("ws").toString());
    assertEquals(0, info.status(), info.out());
    assertTrue(info.out().contains("trace      ms.parquet (parquet, "), info.out());
  }
}
