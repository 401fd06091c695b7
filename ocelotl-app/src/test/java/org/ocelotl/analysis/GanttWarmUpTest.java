package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.Gantt;

/**
 * The warm-up's charts take the paths a user's chart of states takes (decision 063): were a
 * threshold to move, the warm-up would warm code nobody runs, and say nothing.
 */
class GanttWarmUpTest {
  @TempDir Path dir;

  @Test
  void chartsTakeEveryPathOfTheStates() throws IOException {
    TraceStore store = GanttWarmUp.store(dir.resolve("store"));
    GanttSummary.write(store, GanttWarmUp.FINEST);
    List<Supplier<GanttView.Result>> charts = GanttWarmUp.charts(store);
    assertEquals(3, charts.size());
    GanttView.Result fromSummary = charts.get(0).get();
    assertNotNull(fromSummary.fromSummary(), "rows of several ranks from the summary");
    assertEquals(GanttWarmUp.FINEST, fromSummary.fromSummary().level());
    assertTrue(fromSummary.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    GanttView.Result fromKernel = charts.get(1).get();
    assertNull(fromKernel.fromSummary(), "the same rows from the scan kernel");
    assertTrue(fromKernel.gantt().shapes().stream().allMatch(s -> s.kind() == Gantt.Kind.SUMMARY));
    assertEquals((long) GanttWarmUp.RANKS * GanttWarmUp.STATES_PER_RANK, fromKernel.records());
    GanttView.Result oneHost = charts.get(2).get();
    assertNull(oneHost.fromSummary());
    assertTrue(oneHost.gantt().shapes().stream().anyMatch(s -> s.kind() == Gantt.Kind.STATE),
        "rows of one rank: states drawn as themselves");
    assertTrue(oneHost.gantt().shapes().stream().anyMatch(s -> s.kind() == Gantt.Kind.SUMMARY),
        "and the narrow ones summed per pixel column");
  }

  @Test
  void runDrawsEveryChartAsSvgAndJson() throws IOException, InterruptedException {
    List<GanttView.Result> drawn = new java.util.ArrayList<>();
    GanttWarmUp.run(dir, () -> true, drawn::add);
    assertEquals(GanttWarmUp.ROUNDS * 3, drawn.size(), "three charts a round, each drawn");
    for (GanttView.Result chart : drawn) {
      org.ocelotl.export.GanttPicture.render(chart, org.ocelotl.export.Format.SVG, java.io.OutputStream.nullOutputStream());
    }
    assertTrue(Files.exists(dir.resolve("store").resolve(GanttSummary.FILE)));
  }
}
