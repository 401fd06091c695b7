package org.ocelotl.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Statistics benchmark (not a test; bench/stats.sh): the whole trace and a 1 s window in its
 * middle, by type and by producer (top 10), quantiles included; the first run, then the median,
 * best and worst of {@value #WARM_RUNS} runs after {@value #WARM_UP} unmeasured ones.
 *
 * <pre>java -cp ocelotl-app/target/ocelotl.jar:ocelotl-app/target/test-classes org.ocelotl.analysis.StatsBench TRACE WORKSPACE</pre>
 */
public final class StatsBench {
  private static final int WARM_UP = 5;
  private static final int WARM_RUNS = 11;

  private StatsBench() {}

  public static void main(String[] args) throws IOException {
    long t = System.nanoTime();
    TraceStore store = Workspace.open(Path.of(args[1])).store(Path.of(args[0]), ImportOptions.DEFAULT, ImportProgress.NONE);
    StoreMetadata m = store.metadata();
    System.out.printf("%s: %,d records (%,d states), %d producers, %d types; imported (or reused) in %.1f s%n", m.name(),
        Arrays.stream(m.counts()).sum(), m.count(EventCategory.STATE), m.producers().size(), m.types().size(),
        (System.nanoTime() - t) / 1e9);
    double middle = (m.start() + m.end()) / 2;
    System.out.printf("%-34s %10s %10s %10s %10s %12s%n", "case", "first ms", "median ms", "best ms", "worst ms", "records");
    for (String by : List.of("type", "producer")) {
      run("whole trace, by " + by, new Statistics(store, Double.NaN, Double.NaN, List.of(), List.of(), List.of(), by,
          by.equals("type") ? 0 : 10, Statistics.DEFAULT_BUCKETS, false));
      run("[" + (middle - 0.5) + ", " + (middle + 0.5) + "), by " + by, new Statistics(store, middle - 0.5, middle + 0.5,
          List.of(), List.of(), List.of(), by, by.equals("type") ? 0 : 10, Statistics.DEFAULT_BUCKETS, false));
    }
  }

  private static void run(String name, Statistics request) {
    long t = System.nanoTime();
    long records = request.answer().records();
    double first = (System.nanoTime() - t) / 1e6;
    for (int i = 0; i < WARM_UP; i++) {
      request.answer();
    }
    double[] warm = new double[WARM_RUNS];
    for (int i = 0; i < WARM_RUNS; i++) {
      t = System.nanoTime();
      request.answer().json(); // with its JSON, as the API answers it
      warm[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(warm);
    System.out.printf("%-34s %10.1f %10.1f %10.1f %10.1f %,12d%n", name, first, warm[WARM_RUNS / 2], warm[0],
        warm[WARM_RUNS - 1], records);
  }
}
