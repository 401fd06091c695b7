package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The state-duration model and the statistics count nested states alike (decision 037): on
 * EZTrace's OTF2 archive, where MPI calls nest in "Working", the model's total per type over every
 * producer and slice equals the statistics' total of the same window, exclusive by default and
 * inclusive on request. At one slice no state is cut, every duration is a whole number of ticks
 * and the sums are exact, so the comparison is exact; at 100 slices cuts add rounding.
 */
class ExclusiveModelTest {
  @TempDir static Path dir;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    Workspace workspace = Workspace.open(dir.resolve("ws"));
    store = workspace.store(SharedTraces.file("otf2/ez_mpi4").resolve("eztrace_log.otf2"), ImportOptions.DEFAULT,
        ImportProgress.NONE);
  }

  @Test
  void modelTotalsAreTheStatisticsTotals() throws IOException {
    for (boolean inclusive : new boolean[] {false, true}) {
      Map<String, Double> stats = new TreeMap<>();
      for (Statistics.Row row : new Statistics(store, Double.NaN, Double.NaN, List.of(), List.of(), List.of("state"),
          "type", 0, 50, inclusive).answer().types()) {
        stats.put(row.type(), row.total());
      }
      ModelRequest request = ModelRequest.of(Metric.STATE_DURATION, 1).withInclusive(inclusive);
      BuiltModel one = ModelBuilder.build(store, request);
      assertEquals(inclusive ? "inclusive" : "exclusive", one.time());
      assertEquals(stats, totals(one.model()), "one slice, " + one.time());
      Map<String, Double> fine = totals(ModelBuilder.build(store, request.withSlices(100)).model());
      assertEquals(stats.keySet(), fine.keySet());
      stats.forEach((type, total) -> assertEquals(total, fine.get(type), 1e-9 * Math.max(1, total), type));
    }
    double working = totals(ModelBuilder.build(store, ModelRequest.of(Metric.STATE_DURATION, 1)).model()).get("Working");
    double whole = totals(ModelBuilder.build(store, ModelRequest.of(Metric.STATE_DURATION, 1).withInclusive(true))
        .model()).get("Working");
    assertTrue(working < whole, "Working's exclusive time leaves out the MPI calls in it: " + working + " < " + whole);
  }

  /** Per type, the sum over every leaf and slice; types with no time left out, as the statistics list them. */
  private static Map<String, Double> totals(MicroscopicModel model) {
    Map<String, Double> totals = new TreeMap<>();
    for (int u = 0; u < model.typeCount(); u++) {
      double sum = 0;
      for (int leaf = 0; leaf < model.leaves(); leaf++) {
        for (int k = 0; k < model.slices(); k++) {
          sum += model.value(leaf, k, u);
        }
      }
      totals.put(model.types().get(u), sum);
    }
    return totals;
  }
}
