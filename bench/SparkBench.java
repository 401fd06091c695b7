import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.sql.SparkSession;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.spark.ModelJob;
import org.ocelotl.store.TraceStore;

/**
 * The model of a store built locally and on Spark (bench/spark_model.sh runs it; not a test):
 *   export STORE DATASET      writes the store's Parquet dataset, timed
 *   local STORE N             ocelotl's local scan (threads: the JVM's processors), cold and median of 3
 *   spark DATASET N CORES     the Spark job in local[CORES], cold and median of 3, one session
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
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  private static ModelRequest request(String slices) {
    return ModelRequest.of(Metric.STATE_DURATION, Integer.parseInt(slices)).withExact(true);
  }

  interface Run {
    Object run() throws Exception;
  }

  private static void report(String what, Run run) throws Exception {
    double cold = time(run);
    double[] warm = {time(run), time(run), time(run)};
    Arrays.sort(warm);
    System.out.printf("%s: cold %.2f s, median of 3 %.2f s%n", what, cold, warm[1]);
  }

  private static double time(Run run) throws Exception {
    long t = System.nanoTime();
    run.run();
    return (System.nanoTime() - t) / 1e9;
  }
}
