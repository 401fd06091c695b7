package org.ocelotl.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.TreemapRequest;
import org.ocelotl.analysis.TreemapResult;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.export.Format;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl treemap TRACE --out FILE.svg|.png}: the aggregated squarified treemap, headless. */
@Command(name = "treemap", mixinStandardHelpOptions = true,
    description = "Draw the squarified treemap of a trace's producers (SVG or PNG), aggregated by the spatial "
        + "partition at p or cut at a depth, for the window or one time step.")
public final class TreemapCommand implements Callable<Integer> {
  /** Slices only matter for the time steps: spatial aggregation integrates the window. */
  static final int SLICES = 20;

  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin ModelOptions modelOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--p", paramLabel = "P|auto", defaultValue = "auto",
      description = "The trade-off p in [0, 1], or auto for the best normalised gain − loss (default).")
  String p;

  @Option(names = "--cut-depth", paramLabel = "D",
      description = "Cut the tree at this depth instead of at the spatial partition for p.")
  Integer cutDepth;

  @Option(names = "--step", paramLabel = "K",
      description = "Show only time slice K (0 to N−1) instead of the whole window; the layout keeps the window's order.")
  Integer step;

  @Option(names = "--width", defaultValue = "" + TreemapRequest.DEFAULT_WIDTH,
      description = "Treemap width in pixels; the picture adds caption and legend (default: ${DEFAULT-VALUE}).")
  int width;

  @Option(names = "--height", defaultValue = "" + TreemapRequest.DEFAULT_HEIGHT,
      description = "Treemap height in pixels (default: ${DEFAULT-VALUE}).")
  int height;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE",
      description = "Also write the answer as JSON: the spatial analysis and the treemap's cells (docs/analysis.md).")
  Path json;

  @Override
  public Integer call() throws IOException {
    Format format = Format.ofFileName(out.getFileName().toString());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromTrace(store, modelOptions.request(SLICES, traceOptions, store)),
        Aggregation.SPATIAL, null, OverviewCommand.parseP(p), AnalysisRequest.DEFAULT_HEIGHT);
    TreemapRequest request = new TreemapRequest(analysis, cutDepth == null ? -1 : cutDepth, step == null ? -1 : step,
        width, height);
    TreemapResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().treemap(request, bar);
    }
    AtomicFile.write(out, o -> result.render(format, o));
    if (json != null) {
      AtomicFile.write(json, o -> o.write(result.json()));
    }
    var stdout = spec.commandLine().getOut();
    if (!result.treemap().note().isEmpty()) {
      stdout.println("note: " + result.treemap().note());
    }
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d shown nodes, %d cells → %s%n", result.title(), result.result().p(),
        result.treemap().cut().size(), result.treemap().cells().size(), out);
    stdout.flush();
    return 0;
  }
}
