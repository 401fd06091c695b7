import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.spark.ModelJob;
import org.ocelotl.spark.SparkMain;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Importer;

/**
 * The model of a store built locally and on Spark (bench/spark_model.sh runs it; not a test):
 *   export STORE DATASET      writes the store's Parquet dataset, timed
 *   local STORE N             ocelotl's local scan (threads: the JVM's processors), cold and median of 3
 *   spark DATASET N CORES     the Spark job in local[CORES], cold and median of 3, one session
 *   import-local TRACE DIR    ocelotl's import of a Pajé trace into a store, then its export as a dataset, timed
 *   import-spark TRACE DIR CORES   ocelotl-spark import of a Pajé trace in local[CORES], timed (one run)
 * (bench/spark_import.sh runs the last two).
 */
public final class SparkBench {
  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "export" -> {
        TraceStore store = TraceStore.open(Path.of(args[1]));
        long t = System.nanoTime();
        ParquetExport.write(store, Path.of(args[2]), ParquetExport.CHUNKS_PER_FILE, true);
        System.out.printf("export: %,d states in %.1f s%n", store.metadata().count(EventCategory.STATE),
            (System.nanoTime() - t) / 1e9);
      }
      case "local" -> {
        TraceStore store = TraceStore.open(Path.of(args[1]));
        ModelRequest request = request(args[2]);
        report("local, " + Runtime.getRuntime().availableProcessors() + " threads", () -> ModelBuilder.build(store, request));
      }
      case "spark" -> {
        ModelRequest request = request(args[2]);
        int cores = Integer.parseInt(args[3]);
        SparkSession spark = SparkSession.builder().master("local[" + cores + "]").appName("SparkBench")
            .config("spark.ui.enabled", "false").getOrCreate();
        report("spark local[" + cores + "]", () -> ModelJob.build(spark, args[1], request));
        spark.stop();
      }
      case "import-local" -> {
        Path store = Files.createDirectories(Path.of(args[2], "store"));
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long t = System.nanoTime();
        Importer.importTrace(Path.of(args[1]).toRealPath(), Formats.standard().named("paje"), ImportOptions.DEFAULT,
            ImportProgress.NONE, store, StoreWriter.DEFAULT_CHUNK_CAPACITY);
        double imported = (System.nanoTime() - t) / 1e9;
        ParquetExport.write(TraceStore.open(store), Path.of(args[2], "dataset"), ParquetExport.CHUNKS_PER_FILE, true);
        System.out.printf("local import: %.1f s, then export: %.1f s; cpu %.1f s%n", imported,
            (System.nanoTime() - t) / 1e9 - imported, (os.getProcessCpuTime() - cpu) / 1e9);
      }
      case "import-spark" -> {
        int cores = Integer.parseInt(args[3]);
        SparkSession spark = SparkSession.builder().master("local[" + cores + "]").appName("SparkBench")
            .config("spark.ui.enabled", "false").getOrCreate();
        List<String> command = new ArrayList<>(List.of("import", args[1], "--out", args[2], "--force"));
        if (args.length > 4) {
          command.addAll(List.of("--range-bytes", args[4]));
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long t = System.nanoTime();
        int status = SparkMain.run(command.toArray(String[]::new));
        System.out.printf("spark import local[%d]: %.1f s, cpu %.1f s (exit %d)%n", cores, (System.nanoTime() - t) / 1e9,
            (os.getProcessCpuTime() - cpu) / 1e9, status);
        spark.stop();
      }
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  private static ModelRequest request(String slices) {
    return ModelRequest.of(Metric.STATE_DURATION, Integer.parseInt(slices)).withExact(true);
  }

  interface Run {
    Object run() throws Exception;
  }

  /**
   * Cold (first) run, then the median of 3: wall time, and the process's CPU time (every thread:
   * Spark's executors run in this JVM in local mode), which a loaded machine disturbs less.
   */
  private static void report(String what, Run run) throws Exception {
    double[] cold = time(run);
    double[][] warm = {time(run), time(run), time(run)};
    Arrays.sort(warm, (a, b) -> Double.compare(a[0], b[0]));
    System.out.printf("%s: cold %.2f s (cpu %.2f s), median of 3 %.2f s (cpu %.2f s)%n", what, cold[0], cold[1],
        warm[1][0], warm[1][1]);
  }

  /** Wall and CPU seconds of one run. */
  private static double[] time(Run run) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long t = System.nanoTime();
    run.run();
    return new double[] {(System.nanoTime() - t) / 1e9, (os.getProcessCpuTime() - cpu) / 1e9};
  }
}
