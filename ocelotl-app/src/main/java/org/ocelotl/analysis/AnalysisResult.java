package org.ocelotl.analysis;

import java.nio.charset.StandardCharsets;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.io.Csv;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.Overview;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.ViewKind;

/**
 * The answer to one {@link AnalysisRequest}, with its one JSON form and its one CSV form
 * (docs/analysis.md).
 *
 * @param view     the overview drawn, or null
 * @param p        the p used (the request's, or the default)
 * @param overview the geometry of the view, or null when no view was asked for
 * @param chosen   the variable a variable mean shows when the request named none, or null
 */
public record AnalysisResult(Analysis analysis, ViewKind view, double p, Partition partition, QualityCurves curves,
    Overview overview, VariableChoice chosen) {

  /**
   * The caption's filters: the analysis's, the chosen variable's with why it was chosen
   * ("types: bandwidth (varies most: 0.97, nancy-uplink at 8.00–8.14 s)").
   */
  public java.util.List<String> filters() {
    if (chosen == null) {
      return analysis.filters();
    }
    java.util.List<String> words = new java.util.ArrayList<>(analysis.filters());
    String types = "types: " + chosen.type();
    String why = types + " (" + chosen.caption(chosenSlice()) + ")";
    words.replaceAll(w -> w.equals(types) ? why : w);
    return words;
  }

  /** The chosen variable's slice of largest deviation, as the axes read times: "8.00–8.14 s". */
  String chosenSlice() {
    if (chosen == null || chosen.slice() < 0) {
      return "";
    }
    TimeScale scale = timeScale();
    BuiltModel built = analysis.built();
    return String.format(java.util.Locale.ROOT, "%.3g–%.3g %s", scale.at(built.grid().boundary(chosen.slice())),
        scale.at(built.grid().boundary(chosen.slice() + 1)), scale.unit());
  }

  /** The JSON form: compact UTF-8, the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.result(this));
  }

  /**
   * The JSON form without {@code parts}, {@code breakpoints} and {@code curves} (the API's
   * {@code answer=view}, decision 068): what a page that holds the model's breakpoints needs to
   * draw a new p; every other field's bytes are the full form's.
   */
  public byte[] viewJson() {
    return JsonForm.bytes(JsonForm.result(this, false));
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

  /**
   * The aggregates as CSV, one row per part of the partition shown: its producer node (the root
   * in temporal aggregation) and leaf count, time range and slices, mode, total value in
   * {@code valueUnit}, and every type's share of that total (0 where absent).
   */
  public byte[] partsCsv() {
    BuiltModel built = analysis.built();
    MicroscopicModel model = built.model();
    ProducerTree tree = model.tree();
    StringBuilder csv = new StringBuilder("producer,leaves,start,end,first_slice,last_slice,mode,value");
    for (String type : model.types()) {
      csv.append(',').append(Csv.field("share:" + type));
    }
    csv.append('\n');
    for (Part part : partition.parts()) {
      double[] sums = PartSums.of(model, part);
      double total = 0;
      int mode = -1;
      for (int u = 0; u < sums.length; u++) {
        total += sums[u];
        if (sums[u] > 0 && (mode < 0 || sums[u] > sums[mode])) {
          mode = u;
        }
      }
      csv.append(Csv.field(tree.path(part.node()))).append(',').append(tree.leafCount(part.node())).append(',')
          .append(built.grid().boundary(part.first())).append(',').append(built.grid().boundary(part.last() + 1))
          .append(',').append(part.first()).append(',').append(part.last()).append(',')
          .append(mode < 0 ? "" : Csv.field(model.types().get(mode))).append(',').append(total);
      for (double sum : sums) {
        csv.append(',').append(total > 0 ? sum / total : 0.0);
      }
      csv.append('\n');
    }
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The trace's name, or "model" for a model read from files (which name no trace). */
  public String name() {
    return analysis.trace() != null ? analysis.trace().name() : "model";
  }

  /**
   * Times since the trace's start, in a unit that suits the window; a model file's slice numbers
   * as they are (origin 0), so that a window of it reads as the slices it covers.
   */
  public TimeScale timeScale() {
    BuiltModel built = analysis.built();
    double origin = analysis.trace() != null ? analysis.trace().origin() : 0;
    return TimeScale.of(built.timeUnit(), origin, built.grid().end() - built.grid().start());
  }

  /** "state total duration (exclusive time)", or "value" for a model whose metric is unknown. */
  public String metricLabel() {
    return analysis.built().label();
  }

  /** The partition at p = 1: what gain and loss fractions are measured against. */
  public Partition lastPartition() {
    return analysis.breakpoints().get(analysis.breakpoints().size() - 1).partition();
  }

  /**
   * The file name stem of an export, distinct for distinct views: trace, aggregation, view,
   * window, N, p, and a short digest of the filters when there are any, e.g.
   * {@code smpi_perturbed.trace.gz-spatiotemporal-mode-3-5s-N100-p0.0299-f3a9c1e2}.
   */
  public String fileStem() {
    BuiltModel built = analysis.built();
    StringBuilder stem = new StringBuilder(name()).append('-')
        .append(analysis.aggregation().name().toLowerCase(java.util.Locale.ROOT));
    if (view != null) {
      stem.append('-').append(view.view());
    }
    stem.append('-').append(shortNumber(built.grid().start())).append('-').append(shortNumber(built.grid().end()))
        .append(built.timeUnit()).append("-N").append(built.grid().slices()).append("-p").append(shortNumber(p));
    if (!analysis.filters().isEmpty()) {
      stem.append("-f").append(String.format("%08x", String.join("\n", analysis.filters()).hashCode()));
    }
    return stem.toString().replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** Up to 6 significant digits, no exponent for ordinary magnitudes, no trailing zeros. */
  static String shortNumber(double value) {
    return new java.math.BigDecimal(value).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
  }
}
