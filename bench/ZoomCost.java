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
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.aggregation.Breakpoint;
/**
 * Where a zoom's first answer goes (issue 28, not a test): per run, a fresh analysis service
 * answers a zoom on 30 % of the run as the page asks it first (the window's model, its qualities,
 * the exact default p and its partition: {@code AnalysisService.provisional}), then the same
 * model's qualities, trade-off and one programme are timed again apart. Every rank a leaf, N = 100.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp bench/ZoomCost.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp ZoomCost WORKSPACE TRACE RUNS
 * </pre>
 */
public class ZoomCost {
  static long cpu() { return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(); }
  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), org.ocelotl.workspace.ImportProgress.NONE);
    double s = store.metadata().start(), e = store.metadata().end();
    for (int r = 0; r < Integer.parseInt(a[2]); r++) {
      double z0 = s + (e - s) * (0.30 + 0.01 * r), z1 = s + (e - s) * (0.60 + 0.01 * r);
      ModelRequest model = new ModelRequest(Metric.STATE_DURATION, z0, z1, 100,
          new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
      AnalysisRequest request = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
          ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
      AnalysisService service = AnalysisService.standard();
      long w0 = System.nanoTime(), c0 = cpu();
      ProvisionalResult result = service.provisional(request, Progress.NONE).orElseThrow();
      long w1 = System.nanoTime(), c1 = cpu();
      Qualities q = Qualities.of(result.built().model(), Aggregation.SPATIOTEMPORAL, Work.NONE);
      long w2 = System.nanoTime(), c2 = cpu();
      Breakpoint b = q.tradeOff();
      long w3 = System.nanoTime(), c3 = cpu();
      q.best(b.p());
      long w4 = System.nanoTime(), c4 = cpu();
      System.out.printf(Locale.ROOT, "zoom %d [%.3f, %.3f): first answer %.3f s wall %.3f cpu | again: qualities %.3f/%.3f, tradeOff %.3f/%.3f, one programme %.3f/%.3f (p %.4g, %d parts)%n",
          r, z0, z1, (w1 - w0) / 1e9, (c1 - c0) / 1e9, (w2 - w1) / 1e9, (c2 - c1) / 1e9, (w3 - w2) / 1e9, (c3 - c2) / 1e9,
          (w4 - w3) / 1e9, (c4 - c3) / 1e9, b.p(), result.partition().size());
    }
  }
}
