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
 * What the chain of a list's parts (decision 072) costs at the seeds' scale: the spatiotemporal
 * overview of every rank at N = 100, its breakpoints read from the workspace's breakpoint cache (a
 * workspace where the full answer was asked once), the chain started at the default p and extended
 * to every breakpoint as a server does while idle, on this thread (a one-worker pool: one core).
 * Prints the CPU it took, the bytes it holds ({@code PartsAhead.bytes}), the CPU of a look-up at 13
 * breakpoints spread over the list, and whether each looked-up list equals the programme's (the
 * same breakpoints read again from the file, their parts built by the programme). Not a test.
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/PartsChain.java
 *   java -Xmx4g -cp ocelotl-app/target/ocelotl.jar:/tmp/cls PartsChain WORKSPACE TRACE
 * </pre>
 */
public class PartsChain {
  static long cpu() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  public static void main(String[] a) throws Exception {
    Workspace ws = Workspace.open(Path.of(a[0]));
    TraceStore store = ws.store(Path.of(a[1]), new ImportOptions(null, false, null), ImportProgress.NONE);
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN, 100,
        new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    AnalysisRequest request = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
    AnalysisResult shown = AnalysisService.standard().answer(request, Progress.NONE);
    List<Breakpoint> breakpoints = shown.analysis().breakpoints();
    int at = Breakpoint.indexAt(breakpoints, shown.p());
    java.util.concurrent.ForkJoinPool one = new java.util.concurrent.ForkJoinPool(1);
    long[] chainCpu = new long[1];
    long wall = System.nanoTime();
    PartsAhead chain = one.submit(() -> {
      long c0 = cpu();
      PartsAhead c = new PartsAhead(breakpoints, shown.analysis().built().model(), at);
      while (c.extend()) {
        // every breakpoint
      }
      chainCpu[0] = cpu() - c0;
      return c;
    }).get();
    System.out.printf(Locale.ROOT, "%d breakpoints, default at %d; chain of %d: %.1f s CPU, %.1f s wall, %d bytes%n",
        breakpoints.size(), at, chain.covered(), chainCpu[0] / 1e9, (System.nanoTime() - wall) / 1e9, chain.bytes());
    List<Breakpoint> programmes = BreakpointCache.read(store, shown.analysis().built().model(), Aggregation.SPATIOTEMPORAL);
    List<Double> lookUps = new ArrayList<>();
    boolean same = true;
    for (int k = 0; k < breakpoints.size(); k += Math.max(1, breakpoints.size() / 12)) {
      Partition partition = breakpoints.get(k).partition();
      boolean built = partition.partsBuilt();
      long c0 = cpu();
      List<Part> parts = partition.parts();
      double ms = (cpu() - c0) / 1e6;
      lookUps.add(ms);
      boolean equal = parts.equals(programmes.get(k).partition().parts());
      same &= equal;
      System.out.printf(Locale.ROOT, "  breakpoint %d: %d parts, %s %.1f ms CPU, the programme's: %s%n", k,
          parts.size(), built ? "built already," : "looked up in", ms, equal);
    }
    Collections.sort(lookUps);
    System.out.printf(Locale.ROOT, "look-up median %.1f ms CPU; every list the programme's: %s%n",
        lookUps.get(lookUps.size() / 2), same);
    one.shutdown();
  }
}
