package org.ocelotl.analysis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.ocelotl.export.Format;
import org.ocelotl.export.GanttPicture;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Details-on-demand benchmark (not a test; bench/details.sh measures the same over HTTP): what the
 * web UI asks when a 1 s window in the middle of the trace is opened in the Gantt chart and the
 * statistics — the Gantt chart as the page's SVG (1200 × 420), the event table's first page (the
 * 100 longest states) and the statistics by producer, top 10 — in one JVM, so that the figures
 * are the work's own: the first call, then the median wall and CPU time (the process's, garbage
 * collection included, which a loaded machine does not inflate) of {@value #RUNS} calls after {@value #WARM_UP}.
 *
 * <pre>java -cp ocelotl-app/target/ocelotl.jar:ocelotl-app/target/test-classes org.ocelotl.analysis.DetailsBench TRACE WORKSPACE [FROM TO [gantt]]</pre>
 */
public final class DetailsBench {
  private static final int WARM_UP = 3;
  private static final int RUNS = 9;
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private DetailsBench() {}

  public static void main(String[] args) throws IOException {
    long opening = System.nanoTime();
    TraceStore store = Workspace.open(Path.of(args[1])).store(Path.of(args[0]), ImportOptions.DEFAULT, ImportProgress.NONE);
    // Imported, or its Gantt summary written, if this run had to: the first run's cost, said apart.
    System.out.printf("store ready in %.0f ms%n", (System.nanoTime() - opening) / 1e6);
    StoreMetadata m = store.metadata();
    double middle = Math.round((m.start() + m.end()) / 2);
    double from = args.length > 3 ? Double.parseDouble(args[2]) : middle;
    double to = args.length > 3 ? Double.parseDouble(args[3]) : middle + 1;
    System.out.printf("%s, window [%s, %s)%n%-28s %9s %9s %9s %9s %11s%n", m.name(), from, to, "case", "first ms",
        "1st CPU", "median ms", "CPU ms", "bytes");
    run("Gantt SVG 1200×420", () -> ganttSvg(store, from, to, 1200, 420));
    run("Gantt JSON 1600×900", () -> new GanttView(store, from, to, List.of(), List.of(), List.of(), 1600, 900)
        .answer().json());
    if (args.length > 4 && args[4].equals("gantt")) {
      return; // the Gantt chart's figures alone (decision 057)
    }
    run("events, 100 longest", () -> new RecordTable(store, from, to, List.of(), List.of(), List.of("state"), null,
        Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, "-duration", 0, 100).answer().json());
    run("stats by producer, top 10", () -> new Statistics(store, from, to, List.of(), List.of(), List.of(), "producer",
        10, Statistics.DEFAULT_BUCKETS, false).answer().json());
  }

  private static byte[] ganttSvg(TraceStore store, double from, double to, int width, int height) {
    // The chart area's size, as the page and the command line both give it (the picture adds its frame).
    GanttView.Result r = new GanttView(store, from, to, List.of(), List.of(), List.of(), width, height).answer();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      GanttPicture.render(r, Format.SVG, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }

  private static void run(String name, Supplier<byte[]> call) {
    long firstCpu = OS.getProcessCpuTime();
    long t = System.nanoTime();
    int bytes = call.get().length;
    double first = (System.nanoTime() - t) / 1e6;
    double firstCpuMs = (OS.getProcessCpuTime() - firstCpu) / 1e6; // the JIT's threads included
    for (int i = 0; i < WARM_UP; i++) {
      call.get();
    }
    double[] wall = new double[RUNS];
    double[] cpu = new double[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long c = OS.getProcessCpuTime();
      t = System.nanoTime();
      call.get();
      wall[i] = (System.nanoTime() - t) / 1e6;
      cpu[i] = (OS.getProcessCpuTime() - c) / 1e6;
    }
    Arrays.sort(wall);
    Arrays.sort(cpu);
    System.out.printf("%-28s %9.0f %9.0f %9.0f %9.0f %,11d%n", name, first, firstCpuMs, wall[RUNS / 2], cpu[RUNS / 2],
        bytes);
  }
}
