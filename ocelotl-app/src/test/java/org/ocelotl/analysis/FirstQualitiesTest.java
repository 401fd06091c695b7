package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * A zoom's first answers share the window's qualities (decision 067): the page asks the window at
 * the analyst's p, then at its default p, then what that partition hides — three first answers on
 * one model, whose qualities are computed once (counted by {@link AnalysisService#qualitiesComputed},
 * never timed), each answer the bytes of a service that computed its own.
 */
class FirstQualitiesTest {
  @TempDir static Path tmp;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(tmp.resolve("ws")).store(BreakpointCacheTest.BUNDLED, ImportOptions.DEFAULT,
        ImportProgress.NONE);
  }

  private static AnalysisRequest window(double from, double to, double p) {
    return new AnalysisRequest(new ModelInput.FromTrace(store, ModelRequest.of(Metric.STATE_DURATION, 40)
        .withWindow(from, to)), Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, p,
        AnalysisRequest.DEFAULT_HEIGHT);
  }

  /**
   * A request's progress that a newer request of the same page cancels, as the server's jobs are;
   * only the engine's checks see it (not the stages), so that what stops is the computation.
   */
  private static final class Cancellable implements Progress {
    volatile boolean cancelled;

    @Override
    public void stage(String name) {}

    @Override
    public void check() {
      if (cancelled) {
        throw new IllegalStateException("cancelled");
      }
    }
  }

  @Test
  void aZoomsThreeFirstAnswersComputeTheWindowsQualitiesOnce() throws IOException {
    double yours = 0.05;
    AnalysisService service = AnalysisService.standard();
    byte[] atYours = service.provisional(window(3, 9, yours), Progress.NONE).orElseThrow().json();
    ProvisionalResult atDefault = service.provisional(window(3, 9, Double.NaN), Progress.NONE).orElseThrow();
    byte[] hidden = service.outliers(new OutliersRequest(window(3, 9, atDefault.p()), 10), Progress.NONE).json();
    assertEquals(1, service.qualitiesComputed(), "one model, its qualities once");

    assertArrayEquals(AnalysisService.standard().provisional(window(3, 9, yours), Progress.NONE).orElseThrow().json(),
        atYours);
    assertArrayEquals(AnalysisService.standard().provisional(window(3, 9, Double.NaN), Progress.NONE).orElseThrow()
        .json(), atDefault.json());
    assertArrayEquals(AnalysisService.standard().outliers(new OutliersRequest(window(3, 9, atDefault.p()), 10),
        Progress.NONE).json(), hidden);

    service.provisional(window(2, 9, yours), Progress.NONE);
    assertEquals(2, service.qualitiesComputed(), "another window: its own qualities");
  }

  @Test
  void theNextRequestAnswersThoughTheFirstWasCancelledSince() throws IOException {
    AnalysisService service = AnalysisService.standard();
    Cancellable first = new Cancellable();
    byte[] atYours = service.provisional(window(4, 10, 0.05), first).orElseThrow().json();
    first.cancelled = true; // the page's next request cancels the one before, answered already
    Cancellable next = new Cancellable();
    byte[] atDefault = service.provisional(window(4, 10, Double.NaN), next).orElseThrow().json();
    assertEquals(1, service.qualitiesComputed());
    assertArrayEquals(AnalysisService.standard().provisional(window(4, 10, Double.NaN), Progress.NONE).orElseThrow()
        .json(), atDefault);
    assertArrayEquals(AnalysisService.standard().provisional(window(4, 10, 0.05), Progress.NONE).orElseThrow().json(),
        atYours);

    next.cancelled = true;
    assertThrows(IllegalStateException.class, () -> service.provisional(window(4, 10, 0.06), next),
        "the kept qualities answer to the request that uses them");
  }
}
