import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.analysis.RecordTable;
import org.ocelotl.analysis.Statistics;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The process CPU time of one window's statistics or Gantt chart (issue 28, not a test): in one
 * JVM, RUNS answers with their JSON, each line the wall and CPU time of one (garbage collection
 * included, which a loaded machine does not inflate as it does wall times). WHAT is stats (by
 * type, as the page first asks), producer (by producer, top 10), gantt (1600 × 900) or mixed (by
 * producer, top 10, each after the same window's Gantt chart and event table, untimed, as a server
 * answers the page).
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/WindowCpu.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp/cls WindowCpu WORKSPACE TRACE FROM TO WHAT RUNS
 * </pre>
 */
public class WindowCpu {
  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** The process's minor page faults so far (Linux): a server's statistics cost about 20 µs more CPU per fault. */
  static long minorFaults() throws java.io.IOException {
    String stat = java.nio.file.Files.readString(Path.of("/proc/self/stat"));
    return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
  }

  public static void main(String[] a) throws Exception {
    TraceStore store = Workspace.open(Path.of(a[0])).store(Path.of(a[1]), ImportOptions.DEFAULT, ImportProgress.NONE);
    double from = Double.parseDouble(a[2]);
    double to = Double.parseDouble(a[3]);
    for (int i = 0; i < Integer.parseInt(a[5]); i++) {
      long t = System.nanoTime();
      long c = cpu();
      long f = minorFaults();
      byte[] json = switch (a[4]) {
        case "stats" -> new Statistics(store, from, to, List.of(), List.of(), List.of(), "type", 0,
            Statistics.DEFAULT_BUCKETS, false).answer().json();
        case "producer" -> new Statistics(store, from, to, List.of(), List.of(), List.of(), "producer", 10,
            Statistics.DEFAULT_BUCKETS, false).answer().json();
        case "mixed" -> {
          // As the page asks them through a server: the Gantt chart and the event table's first page
          // of the window too (not timed), whose sinks share the store scan's loop with the statistics'.
          new GanttView(store, from, to, List.of(), List.of(), List.of(), 1200, 420).answer().json();
          new RecordTable(store, from, to, List.of(), List.of(), List.of("state"), "", Double.NEGATIVE_INFINITY,
              Double.POSITIVE_INFINITY, "-duration", 0, 100).answer().json();
          t = System.nanoTime();
          c = cpu();
          f = minorFaults();
          yield new Statistics(store, from, to, List.of(), List.of(), List.of(), "producer", 10,
              Statistics.DEFAULT_BUCKETS, false).answer().json();
        }
        case "gantt" -> new GanttView(store, from, to, List.of(), List.of(), List.of(), 1600, 900).answer().json();
        default -> throw new IllegalArgumentException("WHAT: stats, producer or gantt, got " + a[4]);
      };
      System.out.printf("%s %d: wall %.0f ms, CPU %.0f ms, %d bytes, %d minor faults%n", a[4], i,
          (System.nanoTime() - t) / 1e6, (cpu() - c) / 1e6, json.length, minorFaults() - f);
    }
  }
}
