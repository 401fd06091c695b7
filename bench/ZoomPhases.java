import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.*;
import org.ocelotl.aggregation.*;
import org.ocelotl.analysis.*;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.*;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.*;
import org.ocelotl.workspace.*;
/**
 * A zoom's first answer at the analyst's p (decision 064) phase by phase (issue 28, not a test): the
 * steps of {@code AnalysisService.provisional} done one after the other with their CPU (the process's,
 * every thread) and wall times — the window's model (a scan: each zoom on a window of its own, 30 % of
 * the run shifted by 1 %, so that no cached model serves it), the qualities, the programme at p, the
 * one-part partition the fractions are measured against ({@code Qualities.whole}; {@code best(1)}, a
 * programme, before 2026-11-29), the geometry and the JSON — then the same
 * answer through a fresh {@code AnalysisService} on the same window (the model cached by then). Every
 * rank a leaf, N = 100; p is the whole run's default p. Also the chunks the window's scan reads.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/ZoomPhases.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp/cls ZoomPhases WORKSPACE TRACE ZOOMS
 * </pre>
 */
public class ZoomPhases {
  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static long w0, c0;
  static final StringBuilder line = new StringBuilder();

  static void start() {
    w0 = System.nanoTime();
    c0 = cpu();
  }

  static void lap(String phase) {
    long w = System.nanoTime(), c = cpu();
    line.append(String.format(Locale.ROOT, " %s %.3f/%.3f", phase, (c - c0) / 1e9, (w - w0) / 1e9));
    w0 = w;
    c0 = c;
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
    System.out.printf(Locale.ROOT, "p %.6g; chunks of states %d; phases CPU/wall s%n", yours,
        store.chunks(EventCategory.STATE).size());
    for (int r = 0; r < Integer.parseInt(a[2]); r++) {
      double shift = 0.01 * r + 0.0001 * (System.nanoTime() % 997); // a window of its own, even across runs
      double z0 = s + (e - s) * (0.30 + shift), z1 = s + (e - s) * (0.60 + shift);
      line.setLength(0);
      line.append(String.format(Locale.ROOT, "zoom %d [%.3f, %.3f) chunks %d:", r, z0, z1,
          store.chunks(EventCategory.STATE, z0, z1).size()));
      AnalysisRequest request = request(store, z0, z1, yours);
      ModelInput.FromTrace trace = (ModelInput.FromTrace) request.input();
      long t0 = System.nanoTime(), k0 = cpu();
      start();
      BuiltModel built = ModelCache.standard().build(store, trace.request(), Work.NONE);
      lap("model");
      BreakpointCache.has(store, built.model(), Aggregation.SPATIOTEMPORAL);
      lap("cache-check");
      Qualities q = Qualities.of(built.model(), Aggregation.SPATIOTEMPORAL, Work.NONE);
      lap("qualities");
      Partition partition = q.best(yours);
      lap("programme");
      Partition whole = q.whole();
      lap("whole");
      Overview overview = OverviewGeometry.build(built.model(), partition, request.view(),
          new TimeWindow(built.grid().start(), built.grid().end(), built.timeUnit()), built.typeColours(),
          request.height(), OverviewGeometry.VISUAL_THRESHOLD_PX);
      lap("geometry");
      byte[] json = new ProvisionalResult(TraceSummary.of(store), built, Aggregation.SPATIOTEMPORAL, request.view(), 0,
          yours, Double.NaN, partition, whole, overview).json();
      lap("json");
      line.append(String.format(Locale.ROOT, " | sum %.3f/%.3f (%d parts, %d bytes)", (cpu() - k0) / 1e9,
          (System.nanoTime() - t0) / 1e9, partition.size(), json.length));
      start();
      byte[] service = AnalysisService.standard().provisional(request, Progress.NONE).orElseThrow().json();
      lap("| service, model cached");
      line.append(Arrays.equals(service, json) ? " same bytes" : " NOT THE SAME BYTES");
      System.out.println(line);
    }
  }
}
