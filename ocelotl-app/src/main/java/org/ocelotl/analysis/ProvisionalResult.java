package org.ocelotl.analysis;

import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.Overview;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.ViewKind;

/**
 * The first answer to a request whose breakpoint search is long (a spatiotemporal model of
 * hundreds of producers × 100 slices): the optimal partition at the request's p, or at a
 * provisional p when it has none, by one dynamic programme — what the web UI draws while the
 * search runs. The full {@link AnalysisResult} replaces it.
 *
 * @param guessedP whether p is the provisional one ({@code Qualities.provisionalP}) rather than the request's
 * @param whole    the one-part partition: gain and loss are shown as fractions of its
 */
public record ProvisionalResult(TraceSummary trace, BuiltModel built, Aggregation aggregation, ViewKind view,
    int producerDepth, double p, boolean guessedP, Partition partition, Partition whole, Overview overview) {

  public byte[] json() {
    return JsonForm.bytes(JsonForm.provisional(this));
  }

  String metricLabel() {
    return built.metric() == null ? "value" : built.metric().label();
  }

  TimeScale timeScale() {
    double origin = trace != null ? trace.start() : built.grid().start();
    return TimeScale.of(built.timeUnit(), origin, built.grid().end() - built.grid().start());
  }
}
