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
 * What a zoom's first answer costs (issue 28, not a test), in the two forms the page has asked it
 * (docs/aggregation.md, "A zoom's first answer"): at the window's exact default p (a few
 * programmes: {@code AnalysisService.provisional} without p), and at the p the analyst had before
 * zooming (one programme: the same call with that p). That p is the default p of the whole run's
 * overview, as the page shows it first. Per zoom, a fresh analysis service answers each form on a
 * window of its own (30 % of the run, shifted by 0.5 %, so that both scan the trace: the model
 * cache never serves a finer zoom), the forms alternating which goes first; the model's share is
 * timed around the model source. Every rank a leaf, N = 100.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp bench/ZoomCost.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp ZoomCost WORKSPACE TRACE ZOOMS
 * </pre>
 */
public class ZoomCost {
  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static long modelWall, modelCpu;

  /** A service whose model source records what the last model cost. */
  static AnalysisService service() {
    return new AnalysisService((store, request, work) -> {
      long w = System.nanoTime(), c = cpu();
      BuiltModel built = ModelCache.standard().build(store, request, work);
      modelWall = System.nanoTime() - w;
      modelCpu = cpu() - c;
      return built;
    });
  }

  static AnalysisRequest request(TraceStore store, double from, double to, double p) {
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, from, to, 100,
        new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    return new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, p, AnalysisRequest.DEFAULT_HEIGHT);
  }

  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), org.ocelotl.workspace.ImportProgress.NONE);
    double s = store.metadata().start(), e = store.metadata().end();
    double yours = service().provisional(request(store, s, e, Double.NaN), Progress.NONE).orElseThrow().p();
    System.out.printf(Locale.ROOT, "the whole run's default p (the analyst's p before zooming): %.6g%n", yours);
    for (int r = 0; r < Integer.parseInt(a[2]); r++) {
      for (int k = 0; k < 2; k++) {
        boolean atYourP = (r + k) % 2 == 0;
        double shift = 0.01 * r + (atYourP ? 0 : 0.005);
        double z0 = s + (e - s) * (0.30 + shift), z1 = s + (e - s) * (0.60 + shift);
        AnalysisService service = service();
        long w0 = System.nanoTime(), c0 = cpu();
        ProvisionalResult first = service.provisional(request(store, z0, z1, atYourP ? yours : Double.NaN), Progress.NONE)
            .orElseThrow();
        long w1 = System.nanoTime(), c1 = cpu();
        Qualities q = Qualities.of(first.built().model(), Aggregation.SPATIOTEMPORAL, Work.NONE);
        long w2 = System.nanoTime(), c2 = cpu();
        Partition again = atYourP ? q.best(yours) : q.tradeOff().partition();
        long w3 = System.nanoTime(), c3 = cpu();
        System.out.printf(Locale.ROOT, "zoom %d %-12s [%.3f, %.3f): first answer %.3f s wall %.3f cpu (model %.3f/%.3f)"
            + " | again: qualities %.3f/%.3f, %s %.3f/%.3f (p %.4g, %d parts%s)%n",
            r, atYourP ? "at your p" : "default p", z0, z1, (w1 - w0) / 1e9, (c1 - c0) / 1e9, modelWall / 1e9, modelCpu / 1e9,
            (w2 - w1) / 1e9, (c2 - c1) / 1e9, atYourP ? "one programme" : "trade-off", (w3 - w2) / 1e9, (c3 - c2) / 1e9,
            first.p(), first.partition().size(), again.parts().equals(first.partition().parts()) ? "" : ", NOT THE SAME PARTS");
      }
    }
  }
}
