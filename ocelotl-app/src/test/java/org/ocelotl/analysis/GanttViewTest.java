package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.view.Gantt;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The Gantt chart's states of rows of several producers, summed per pixel column by the model's
 * scan kernel, against the same chart fed every state record by record: on SimGrid's 64-rank
 * perturbed trace, at heights where rows are hosts, cabinets or sites and where some rows are one
 * rank's, over windows that cut states, the same marks (time shares to rounding).
 */
class GanttViewTest {
  @TempDir static Path dir;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(dir.resolve("ws")).store(SharedTraces.file("paje/simgrid").resolve("smpi_perturbed.trace"),
        ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  @ParameterizedTest
  @CsvSource({"NaN, NaN, 1600, 900", "NaN, NaN, 700, 40", "3.1, 5.3, 1200, 420", "8.05, 8.6, 300, 100", "0, 20, 700, 40",
      "4, 4.5, 1600, 900"})
  void theKernelsSumsDrawWhatTheRecordsDraw(double from, double to, int width, int height) {
    GanttView request = new GanttView(store, from, to, List.of(), List.of(), List.of(), width, height);
    GanttView.Result kernel = request.answer();
    GanttView.Result records = request.answer(false);
    List<Gantt.Shape> a = kernel.gantt().shapes();
    List<Gantt.Shape> b = records.gantt().shapes();
    assertEquals(records.records(), kernel.records(), "records");
    assertEquals(b.size(), a.size(), "shapes");
    assertTrue(a.stream().anyMatch(s -> s.kind() == Gantt.Kind.SUMMARY), "summary marks drawn");
    for (int i = 0; i < a.size(); i++) {
      Gantt.Shape x = a.get(i);
      Gantt.Shape y = b.get(i);
      String what = "shape " + i + ": " + y;
      assertEquals(y.kind(), x.kind(), what);
      assertEquals(y.producer(), x.producer(), what);
      assertEquals(y.type(), x.type(), what);
      assertEquals(y.records(), x.records(), what);
      assertEquals(y.x0(), x.x0(), 0, what);
      assertEquals(y.x1(), x.x1(), 0, what);
      assertEquals(y.y0(), x.y0(), 0, what);
      assertEquals(y.opacity(), x.opacity(), 1e-12, what);
      assertEquals(y.start(), x.start(), 0, what);
      assertEquals(y.end(), x.end(), 0, what);
    }
    assertEquals(records.gantt().summarised(), kernel.gantt().summarised());
  }
}
