import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.*;
import org.ocelotl.aggregation.*;
import org.ocelotl.analysis.*;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.*;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.*;

/**
 * The list of what each aggregate hides, warm (issue 29, not a test): the spatiotemporal overview
 * at the default p as {@code OutliersCost} asks it (every rank a leaf, SLICES as the page's N),
 * once; then the outliers of its partition RUNS times in the same JVM, wall and process CPU time of
 * each, every list checked equal to the first. For a profile, add
 * {@code -XX:StartFlightRecording=filename=F.jfr,settings=profile}; for a before/after, run two
 * builds' jars alternately.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp bench/OutliersWarm.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp OutliersWarm WORKSPACE TRACE SLICES RUNS
 * </pre>
 */
public class OutliersWarm {
  static long cpu() { return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(); }
  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), org.ocelotl.workspace.ImportProgress.NONE);
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN, Integer.parseInt(a[2]),
        new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    AnalysisRequest request = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
    ProvisionalResult result = AnalysisService.standard().provisional(request, Progress.NONE).orElseThrow();
    List<Outlier> first = null;
    for (int r = 0; r < Integer.parseInt(a[3]); r++) {
      long w0 = System.nanoTime(), c0 = cpu();
      List<Outlier> list = Outliers.of(result.built().model(), result.partition().parts(), result.aggregation(), Work.NONE);
      long w1 = System.nanoTime(), c1 = cpu();
      if (first == null) {
        first = list;
      } else if (!first.equals(list)) {
        throw new AssertionError("run " + r + " lists other cells than run 0");
      }
      System.out.printf(Locale.ROOT, "run %d: outliers %.3f s wall %.3f s cpu (%d cells)%n", r, (w1 - w0) / 1e9, (c1 - c0) / 1e9, list.size());
    }
  }
}
