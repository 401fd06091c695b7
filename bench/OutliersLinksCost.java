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
 * The cost of the list as the service gives it beside the overview (issue 29; decision 061, not a
 * test): per run, as {@code OutliersCost}, a fresh analysis service answers the spatiotemporal
 * overview at the default p as the page asks it first, and {@code Outliers.of} ranks its
 * partition; then, the breakpoint files removed again, another fresh service answers
 * {@code outliers} (the same overview, the states' ranking and, where it applies, the links' model
 * from the disk cache and its ranking). The difference of the two is what the links add; on a
 * shared machine it is noisy, read it over several runs.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp bench/OutliersLinksCost.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp OutliersLinksCost WORKSPACE TRACE SLICES RUNS
 * </pre>
 */
public class OutliersLinksCost {
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
      try (var files = java.nio.file.Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
        for (Path f : files.filter(f -> f.toString().endsWith(BreakpointCache.SUFFIX)).toList()) {
          java.nio.file.Files.delete(f);
        }
      }
      AnalysisService service = AnalysisService.standard();
      long w0 = System.nanoTime(), c0 = cpu();
      ProvisionalResult result = service.provisional(request, Progress.NONE).orElseThrow();
      result.partition().parts();
      long w1 = System.nanoTime(), c1 = cpu();
      List<Outlier> list = Outliers.of(result.built().model(), result.partition().parts(), result.aggregation(),
          Work.NONE);
      long w2 = System.nanoTime(), c2 = cpu();
      // The whole list as the service gives it, on a fresh service without breakpoint files:
      // overview (provisional) + states ranking + the links' model and ranking.
      try (var files = java.nio.file.Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
        for (Path f : files.filter(f -> f.toString().endsWith(BreakpointCache.SUFFIX)).toList()) {
          java.nio.file.Files.delete(f);
        }
      }
      AnalysisService fresh = AnalysisService.standard();
      long w3 = System.nanoTime(), c3 = cpu();
      OutliersResult all = fresh.outliers(new OutliersRequest(request, 10), Progress.NONE);
      long w4 = System.nanoTime(), c4 = cpu();
      double linksW = (w4 - w3) - (w2 - w0), linksC = (c4 - c3) - (c2 - c0);
      System.out.printf(Locale.ROOT, "run %d: overview %.3f s wall %.3f cpu; states list %.3f wall %.3f cpu; service list %.3f wall %.3f cpu; links (difference) %.3f wall %.3f cpu; byLink %s%n",
          r, (w1 - w0) / 1e9, (c1 - c0) / 1e9, (w2 - w1) / 1e9, (c2 - c1) / 1e9, (w4 - w3) / 1e9, (c4 - c3) / 1e9,
          linksW / 1e9, linksC / 1e9, all.byLink() == null ? "none" : all.byLink().link());
    }
  }
}
