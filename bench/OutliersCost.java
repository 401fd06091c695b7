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
 * The cost of what each aggregate hides beside the overview's own (issue 29, not a test): per run, a
 * fresh analysis service answers the spatiotemporal overview at the default p as the page asks it
 * first (the exact default p and its partition, {@code AnalysisService.provisional}: the model from
 * the disk cache, warmed by a first answer; the breakpoint files removed before each run, so that
 * the analysis is computed, not read), then lists the outliers of its partition; wall and process
 * CPU time of each, and their ratio. Then, the breakpoint files removed again, another fresh
 * service answers {@code outliers} as the page asks it: the same overview, the states' ranking and,
 * where it applies (decision 061), the links' model from the disk cache and its ranking; what that
 * costs beyond the two above is what the links add (noisy on a shared machine: read it over several
 * runs). SLICES as the page's N; every rank a leaf (depth 0).
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp bench/OutliersCost.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp OutliersCost WORKSPACE TRACE SLICES RUNS
 * </pre>
 */
public class OutliersCost {
  static long cpu() { return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(); }
  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), org.ocelotl.workspace.ImportProgress.NONE);
    int slices = Integer.parseInt(a[2]);
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN, slices,
        new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    AnalysisRequest request = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
    AnalysisService.standard().answer(request, Progress.NONE); // model into the disk cache, JIT warm
    for (int r = 0; r < Integer.parseInt(a[3]); r++) {
      forgetBreakpoints(store);
      AnalysisService service = AnalysisService.standard();
      long w0 = System.nanoTime(), c0 = cpu();
      ProvisionalResult result = service.provisional(request, Progress.NONE).orElseThrow();
      result.partition().parts();
      long w1 = System.nanoTime(), c1 = cpu();
      List<Outlier> list = Outliers.of(result.built().model(), result.partition().parts(), result.aggregation(),
          Work.NONE);
      long w2 = System.nanoTime(), c2 = cpu();
      forgetBreakpoints(store);
      OutliersResult all = AnalysisService.standard().outliers(new OutliersRequest(request, 10), Progress.NONE);
      long w3 = System.nanoTime(), c3 = cpu();
      System.out.printf(Locale.ROOT, "run %d: overview %.3f s wall %.3f s cpu; outliers %.3f s wall %.3f s cpu (%d cells, %d parts, p %.4g); ratio wall %.1f%%, cpu %.1f%%; "
          + "the service's list %.3f s wall %.3f s cpu, links (beyond both) %.3f s wall %.3f s cpu, by link %s%n",
          r, (w1 - w0) / 1e9, (c1 - c0) / 1e9, (w2 - w1) / 1e9, (c2 - c1) / 1e9, list.size(), result.partition().size(), result.p(),
          100.0 * (w2 - w1) / (w1 - w0), 100.0 * (c2 - c1) / (c1 - c0), (w3 - w2) / 1e9, (c3 - c2) / 1e9,
          ((w3 - w2) - (w2 - w0)) / 1e9, ((c3 - c2) - (c2 - c0)) / 1e9, all.byLink() == null ? "none" : all.byLink().link());
    }
  }

  /** Removes the store's breakpoint files, so that the next analysis is computed, not read. */
  static void forgetBreakpoints(TraceStore store) throws java.io.IOException {
    try (var files = java.nio.file.Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      for (Path f : files.filter(f -> f.toString().endsWith(BreakpointCache.SUFFIX)).toList()) {
        java.nio.file.Files.delete(f);
      }
    }
  }
}
