package org.ocelotl.analysis;

import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.Overview;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.ViewKind;

/**
 * The first answer to a request whose breakpoint search is long (a spatiotemporal model of
 * hundreds of producers × 100 slices): the optimal partition at the request's p, by one dynamic
 * programme, or, when it has none, the exact default p and its partition by a few ({@code
 * Qualities.tradeOff}) — what the web UI draws while the search runs. Exact, but without the
 * breakpoints and the quality curves: the full {@link AnalysisResult} adds them.
 *
 * @param defaultP the default p when the request has none (then {@code p} is it), else NaN: not known yet
 * @param whole    the one-part partition: gain and loss are shown as fractions of its
 */
public record ProvisionalResult(TraceSummary trace, BuiltModel built, Aggregation aggregation, ViewKind view,
    int producerDepth, double p, double defaultP, Partition partition, Partition whole, Overview overview) {

  public byte[] json() {
    return JsonForm.bytes(JsonForm.provisional(this, true));
  }

  /** The JSON form without {@code parts}, {@code breakpoints} and {@code curves} (the API's {@code answer=view}). */
  public byte[] viewJson() {
    return JsonForm.bytes(JsonForm.provisional(this, false));
  }

  String metricLabel() {
    return built.label();
  }

  TimeScale timeScale() {
    double origin = trace != null ? trace.origin() : built.grid().start();
    return TimeScale.of(built.timeUnit(), origin, built.grid().end() - built.grid().start());
  }
}
