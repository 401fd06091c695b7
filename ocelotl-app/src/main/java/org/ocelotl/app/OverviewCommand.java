package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.OverviewGeometry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl overview TRACE --out FILE.svg|.png}: the overview picture, headless; or {@code
 * ocelotl overview --model M.csv [--tree T.csv] --out …} for a model built elsewhere (by {@code
 * ocelotl model} or {@code ocelotl-spark model}), through the same analysis service.
 */
@Command(name = "overview", mixinStandardHelpOptions = true,
    description = {"Draw the overview of a trace (SVG or PNG) with its axes, legend, quality curves and caption.",
        "With --model instead of TRACE: the overview of a model file (its time axis is the slice number)."})
public final class OverviewCommand implements Callable<Integer>, RequestOptions.Taking {
  static final int DEFAULT_WIDTH = 1400;
  /** The automatic height stops here; beyond, thin producers are drawn aggregated (and marked). */
  static final int MAX_AUTO_HEIGHT = 2400;
  /** Height the picture spends outside the overview area: caption, axis, curves panel. */
  static final int FRAME_HEIGHT = 380;

  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin ModelFileOptions modelFile;

  @Parameters(paramLabel = "TRACE", arity = "0..1", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE",
      description = "Also write the answer as JSON: the shown partition, breakpoints, curves, geometry (docs/analysis.md).")
  Path json;

  @Option(names = "--csv", paramLabel = "FILE",
      description = "Also write the breakpoint table as CSV (p, part_count, gain, loss and their fractions).")
  Path csv;

  @Option(names = "--parts-csv", paramLabel = "FILE",
      description = "Also write the aggregates of the shown partition as CSV (producer, time range, mode, value, "
          + "share of each type).")
  Path partsCsv;

  @Override
  public List<Param> parameters() {
    return RequestSpec.OVERVIEW_COMMAND;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    AnalysisRequest request = Requests.overview(values, input(values));
    int width = values.integer(RequestSpec.WIDTH);
    Integer height = values.given(RequestSpec.HEIGHT) ? values.integer(RequestSpec.HEIGHT) : null;
    AnalysisResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().answer(request, bar);
    }
    write(result, out, width, height, json, csv, partsCsv, spec);
    return 0;
  }

  /**
   * Writes the picture of an answer (and its JSON and CSV forms when asked; "-" for standard
   * output), then one line on what was drawn. {@code height} null: tall enough for every producer row.
   */
  static void write(AnalysisResult result, Path picture, int width, Integer height, Path json, Path csv,
      Path partsCsv, CommandSpec spec) throws IOException {
    int leaves = result.analysis().built().model().leaves();
    OverviewPicture.write(OverviewInput.of(result), picture, width, height != null ? height : autoHeight(leaves));
    if (json != null) {
      FileOption.write(json, result.json(), spec);
    }
    if (csv != null) {
      FileOption.write(csv, result.breakpointCsv(), spec);
    }
    if (partsCsv != null) {
      FileOption.write(partsCsv, result.partsCsv(), spec);
    }
    PrintWriter stdout = FileOption.summary(spec, json, csv, partsCsv);
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d parts of %d breakpoints, %s model → %s%n",
        result.name(), result.p(), result.partition().size(),
        result.analysis().breakpoints().size(), result.analysis().built().exact() ? "exact" : "approximate", picture);
    stdout.flush();
  }

  /** The trace's model as the options ask for it, or the model files. */
  private ModelInput input(RequestValues values) throws IOException {
    ModelInput.FromFiles files = modelFile.files(spec, trace != null, values);
    if (files != null) {
      return files;
    }
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    return new ModelInput.FromTrace(store, Requests.model(values, store, traceOptions.workspace()));
  }

  /** Tall enough that each producer row is thicker than the visual aggregation threshold. */
  static int autoHeight(int leaves) {
    int rows = (int) Math.ceil(leaves * (OverviewGeometry.VISUAL_THRESHOLD_PX + 1));
    return Math.max(900, Math.min(MAX_AUTO_HEIGHT, FRAME_HEIGHT + rows));
  }
}
