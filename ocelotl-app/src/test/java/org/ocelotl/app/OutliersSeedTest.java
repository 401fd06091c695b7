package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.OutliersRequest;
import org.ocelotl.analysis.OutliersResult;
import org.ocelotl.analysis.Progress;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.model.Metric;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SeedTrace;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Issue 29, item 3: on SeedTrace runs of 48, 256 and 768 ranks (a slowed host, a cabinet's slowed
 * collective, 50 iterations each), each perturbation is either isolated by the default overview's
 * partition — a part of the perturbed producer over a stretch meeting its window — or one of the
 * first producer cells listed as hidden (the overview's request: spatiotemporal, 50 slices, default
 * p), over a stretch meeting its window.
 */
class OutliersSeedTest {
  /** How many producer cells (below the whole model) count as the first. */
  private static final int FIRST = 5;

  @TempDir static Path tmp;

  // Plain tests, not a parameterized one: the build gives test templates 30 s (for the fuzzers),
  // and the 768-rank case takes longer on a shared machine.
  @Test
  void at48Ranks() throws Exception {
    check(new SeedTrace.Shape(2, 2, 6, 2));
  }

  @Test
  void at256Ranks() throws Exception {
    check(new SeedTrace.Shape(4, 4, 8, 2));
  }

  @Test
  void at768Ranks() throws Exception {
    check(SeedTrace.Shape.SEED);
  }

  private static void check(SeedTrace.Shape shape) throws Exception {
    Path trace = tmp.resolve("seed" + shape.ranks() + ".trace");
    SeedTrace.Truth truth = SeedTrace.write(trace, 3L * 50 * shape.ranks(), shape, 42);
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(trace, new ImportOptions(null, false, null),
        ImportProgress.NONE);
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN,
        Integer.parseInt(RequestSpec.SLICES.fallback()), new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
    OutliersResult result = AnalysisService.standard().outliers(new OutliersRequest(analysis, 40), Progress.NONE);
    ProducerTree tree = result.shown().built().model().tree();
    SliceGrid grid = result.shown().built().grid();
    List<Outlier> producers = result.outliers().stream()
        .filter(o -> tree.leafCount(o.node()) < tree.leafCount()).limit(FIRST).toList();
    for (SeedTrace.Perturbation p : truth.perturbations()) {
      boolean isolated = result.shown().partition().parts().stream().anyMatch(part ->
          tree.name(part.node()).equals(p.producer()) && meets(grid, part.first(), part.last(), p));
      boolean listed = producers.stream().anyMatch(o -> tree.path(o.node()).contains(p.producer())
          && meets(grid, o.first(), o.last(), p));
      assertTrue(isolated || listed, shape.ranks() + " ranks: " + p + " neither isolated nor among the first "
          + FIRST + " producer cells: " + producers.stream().map(o -> tree.path(o.node()) + " ["
          + grid.boundary(o.first()) + ", " + grid.boundary(o.last() + 1) + ")").toList());
    }
  }

  private static boolean meets(SliceGrid grid, int first, int last, SeedTrace.Perturbation p) {
    return grid.boundary(first) < p.end() && grid.boundary(last + 1) > p.start();
  }
}
