import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.*;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.*;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.*;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.*;
/**
 * The CPU of a zoom's first answer at the analyst's p (decision 064) through {@code
 * AnalysisService.provisional}, a fresh service per zoom, on fixed windows (30 % of the run, the k-th
 * shifted by 0.3 % × k), so that two builds run in turn answer the same windows: with
 * OCELOTL_MODEL_CACHE_MB=0 no model is kept, every zoom scans. Prints each answer's CPU and the
 * SHA-256 of its JSON (the same bytes before and after a change), then the median. Then, on the same
 * service, the page's next two requests (decision 064): the window's default p ({@code provisional}
 * without p) and what that partition hides ({@code outliers} at that p), their CPU and digests. The
 * first WARM zooms warm the JIT and are not counted. Not a test.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/ZoomFirst.java
 *   OCELOTL_MODEL_CACHE_MB=0 java -cp ocelotl-app/target/ocelotl.jar:/tmp/cls ZoomFirst WORKSPACE TRACE WARM ZOOMS
 * </pre>
 */
public class ZoomFirst {
  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static AnalysisRequest request(TraceStore store, double from, double to, double p) {
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, from, to, 100,
        new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    return new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, p, AnalysisRequest.DEFAULT_HEIGHT);
  }

  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), ImportProgress.NONE);
    double s = store.metadata().start(), e = store.metadata().end();
    double yours = AnalysisService.standard().provisional(request(store, s, e, Double.NaN), Progress.NONE).orElseThrow().p();
    int warm = Integer.parseInt(a[2]), zooms = Integer.parseInt(a[3]);
    List<Double> cpus = new ArrayList<>(), seconds = new ArrayList<>(), hidden = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (int k = 0; k < warm + zooms; k++) {
      double z0 = s + (e - s) * (0.30 + 0.003 * k), z1 = s + (e - s) * (0.60 + 0.003 * k);
      long w0 = System.nanoTime(), c0 = cpu();
      AnalysisService service = AnalysisService.standard();
      byte[] json = service.provisional(request(store, z0, z1, yours), Progress.NONE).orElseThrow().json();
      double c = (cpu() - c0) / 1e9, w = (System.nanoTime() - w0) / 1e9;
      long c1 = cpu();
      ProvisionalResult atDefault = service.provisional(request(store, z0, z1, Double.NaN), Progress.NONE).orElseThrow();
      long c2 = cpu();
      byte[] outliers = service.outliers(new OutliersRequest(request(store, z0, z1, atDefault.p()), 10), Progress.NONE)
          .json();
      long c3 = cpu();
      if (k >= warm) {
        cpus.add(c);
        seconds.add((c2 - c1) / 1e9);
        hidden.add((c3 - c2) / 1e9);
      }
      line.append(String.format(Locale.ROOT, "%n  %s%.2f/%.2f %s | default p %.2f %s | outliers %.2f %s",
          k < warm ? "(warm) " : "", c, w, digest(json), (c2 - c1) / 1e9, digest(atDefault.json()), (c3 - c2) / 1e9,
          digest(outliers)));
    }
    System.out.printf(Locale.ROOT, "p %.6g; CPU/wall s, JSON digest:%s%n  medians of the CPU: first answer %.3f s,"
        + " default p %.3f s, outliers %.3f s%n", yours, line, median(cpus), median(seconds), median(hidden));
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  static String digest(byte[] json) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json)).substring(0, 12);
  }
}
