package org.ocelotl.analysis;

import java.nio.charset.StandardCharsets;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.Overview;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.view.ViewKind;

/**
 * The answer to one {@link AnalysisRequest}, with its one JSON form and its one CSV form
 * (docs/analysis.md).
 *
 * @param view     the overview drawn, or null
 * @param p        the p used (the request's, or the default)
 * @param overview the geometry of the view, or null when no view was asked for
 */
public record AnalysisResult(Analysis analysis, ViewKind view, double p, Partition partition, QualityCurves curves,
    Overview overview) {

  /** The JSON form: compact UTF-8, the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.result(this));
  }

  /** The CSV form: the breakpoint table, one row per distinct optimal partition, p ascending. */
  public byte[] breakpointCsv() {
    StringBuilder csv = new StringBuilder("p,part_count,gain,loss,gain_fraction,loss_fraction\n");
    Partition last = lastPartition();
    for (Breakpoint b : analysis.breakpoints()) {
      Partition partition = b.partition();
      csv.append(b.p()).append(',').append(partition.size()).append(',').append(partition.gain()).append(',')
          .append(partition.loss()).append(',').append(Breakpoint.fraction(partition.gain(), last.gain()))
          .append(',').append(Breakpoint.fraction(partition.loss(), last.loss())).append('\n');
    }
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** What the SVG/PNG exporters draw: the same view, with axes, legend, curves and caption. */
  public OverviewInput picture() {
    if (view == null) {
      throw new IllegalArgumentException("no view was asked for: a picture needs one");
    }
    BuiltModel built = analysis.built();
    String name = analysis.trace() != null ? analysis.trace().name() : "model";
    return new OverviewInput(built.model(), AnalysisService.window(built), view, analysis.breakpoints(), p,
        partition, built.typeColours(), name, metricLabel(), built.exact());
  }

  /** "state total duration", or "value" for a model whose metric is unknown. */
  public String metricLabel() {
    BuiltModel built = analysis.built();
    return built.metric() == null ? "value" : built.metric().label();
  }

  Partition lastPartition() {
    return analysis.breakpoints().get(analysis.breakpoints().size() - 1).partition();
  }

  /** The file name stem of an export: trace, aggregation and view. */
  public String fileStem() {
    String name = analysis.trace() != null ? analysis.trace().name() : "model";
    String stem = name + "-" + analysis.aggregation().name().toLowerCase(java.util.Locale.ROOT)
        + (view != null ? "-" + view.view() : "");
    return stem.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
