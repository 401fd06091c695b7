import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * A model build per metric, warm, no cache (not a test; decision 054): the median of RUNS builds
 * of the whole trace at N slices on every core, after as many unmeasured ones. Metrics by name: a
 * built-in one by its constant (so that the same file runs against a build from before plug-in
 * metrics), any other through org.ocelotl.scan.Metrics (a plug-in's, its jar on the class path).
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/MetricScan.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp/cls[:PLUGIN.jar] MetricScan WORKSPACE TRACE|STORE_DIR N RUNS METRIC…
 * </pre>
 */
public class MetricScan {
  public static void main(String[] a) throws Exception {
    Path trace = Path.of(a[1]);
    // A directory is a store already written (ScanBench synthetic), read as it is.
    TraceStore store = Files.isDirectory(trace) ? TraceStore.open(trace)
        : Workspace.open(Path.of(a[0])).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    int slices = Integer.parseInt(a[2]);
    int runs = Integer.parseInt(a[3]);
    for (String name : Arrays.copyOfRange(a, 4, a.length)) {
      ModelRequest request = ModelRequest.of(metric(name), slices);
      double[] ms = new double[runs];
      for (int r = -runs; r < runs; r++) {
        long t = System.nanoTime();
        ModelBuilder.build(store, request);
        if (r >= 0) {
          ms[r] = (System.nanoTime() - t) / 1e6;
        }
      }
      Arrays.sort(ms);
      System.out.printf("%-16s N = %d: median %.2f ms (min %.2f, max %.2f) over %d builds%n", name, slices, ms[runs / 2],
          ms[0], ms[runs - 1], runs);
    }
  }

  static Metric metric(String name) throws ReflectiveOperationException {
    try {
      return (Metric) Metric.class.getField(name.toUpperCase().replace('-', '_')).get(null);
    } catch (NoSuchFieldException plugin) {
      return (Metric) Class.forName("org.ocelotl.scan.Metrics").getMethod("parse", String.class).invoke(null, name);
    }
  }
}
