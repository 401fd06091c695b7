package org.ocelotl.scan;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.Metric;
import org.ocelotl.store.TraceStore;

/**
 * A zoom window's state-duration model (N = 100, every rank a leaf, exclusive time) from the Gantt
 * summary and the records at the slices' edges ({@link SummaryModel}, decision 077) against the
 * records' scan ({@link ModelBuilder#records}), one after the other in one JVM on two threads, four
 * windows of 2.99 s from 3 s on: process CPU and wall time of each (not a test; in this package for
 * the package-private calls).
 *
 * <pre>
 *   javac -cp ocelotl-app/target/ocelotl.jar -d /tmp/cls bench/SummaryModelCost.java
 *   java -cp ocelotl-app/target/ocelotl.jar:/tmp/cls org.ocelotl.scan.SummaryModelCost STORE_DIRECTORY
 * </pre>
 */
public final class SummaryModelCost {
  private SummaryModelCost() {}

  static double cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1e9;
  }

  public static void main(String[] args) throws Exception {
    TraceStore store = TraceStore.open(Path.of(args[0]));
    for (int r = 0; r < 4; r++) {
      double from = 3.0 + 0.05 * r;
      ModelPlan plan = ModelPlan.of(store, new ModelRequest(Metric.STATE_DURATION, from, from + 2.99, 100,
          ProducerSelection.ALL, List.of(), true, false));
      double c0 = cpu();
      long w0 = System.nanoTime();
      ModelSums summarised = SummaryModel.sums(store, plan, 2, Work.NONE);
      double c1 = cpu();
      long w1 = System.nanoTime();
      ModelBuilder.records(store, plan, 2, Work.NONE);
      double c2 = cpu();
      long w2 = System.nanoTime();
      System.out.printf("[%.2f, %.2f) from the summary %s: %.3f s CPU %.3f s wall; records %.3f s CPU %.3f s wall%n",
          from, from + 2.99, summarised != null, c1 - c0, (w1 - w0) / 1e9, c2 - c1, (w2 - w1) / 1e9);
    }
  }
}
