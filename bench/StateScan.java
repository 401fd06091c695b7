import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The state-duration scan of a whole trace (decision 037, not a test): RUNS fresh builds
 * (ModelBuilder.build: every chunk read and scanned, no model cache) of N slices, every producer,
 * in one JVM, the time kinds alternating so that they share the machine's noise. Prints the
 * median wall and process CPU time per build of each kind, after WARM builds of each.
 * Against a build before exclusive time (no ModelRequest.withInclusive) it runs the one kind that
 * build has, inclusive, so the same command measures before and after.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/StateScan.java
 *   java -cp JAR:/tmp/cls StateScan WORKSPACE TRACE N RUNS
 * </pre>
 */
public class StateScan {
  static final int WARM = 20;

  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  public static void main(String[] a) throws Exception {
    TraceStore store = Workspace.open(Path.of(a[0])).store(Path.of(a[1]), ImportOptions.DEFAULT, ImportProgress.NONE);
    int slices = Integer.parseInt(a[2]);
    int runs = Integer.parseInt(a[3]);
    ModelRequest exclusive = ModelRequest.of(Metric.STATE_DURATION, slices).withProducers(
        new org.ocelotl.scan.ProducerSelection(List.of(), List.of(), 0));
    Method withInclusive = Arrays.stream(ModelRequest.class.getMethods())
        .filter(m -> m.getName().equals("withInclusive")).findFirst().orElse(null);
    List<String> kinds = withInclusive == null ? List.of("before") : List.of("exclusive", "inclusive");
    List<ModelRequest> requests = new ArrayList<>();
    for (String kind : kinds) {
      requests.add(kind.equals("inclusive") ? (ModelRequest) withInclusive.invoke(exclusive, true) : exclusive);
    }
    long states = store.metadata().count(org.ocelotl.model.EventCategory.STATE);
    double[][] wall = new double[kinds.size()][runs];
    double[][] cpu = new double[kinds.size()][runs];
    double check = 0;
    for (int r = -WARM; r < runs; r++) {
      for (int k = 0; k < kinds.size(); k++) {
        long t = System.nanoTime();
        long c = cpu();
        double[] values = ModelBuilder.build(store, requests.get(k)).model().values();
        if (r >= 0) {
          wall[k][r] = (System.nanoTime() - t) / 1e6;
          cpu[k][r] = (cpu() - c) / 1e6;
        }
        check += values[values.length / 2];
      }
    }
    System.out.printf("%s: %,d states, N = %d, %d builds of each after %d (check %s)%n", a[1], states, slices, runs,
        WARM, check);
    for (int k = 0; k < kinds.size(); k++) {
      Arrays.sort(wall[k]);
      Arrays.sort(cpu[k]);
      System.out.printf("  %-9s median wall %8.2f ms (%.1f M states/s), median CPU %8.2f ms%n", kinds.get(k),
          wall[k][runs / 2], states / wall[k][runs / 2] / 1e3, cpu[k][runs / 2]);
    }
  }
}
