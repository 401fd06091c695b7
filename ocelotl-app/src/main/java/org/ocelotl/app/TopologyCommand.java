package org.ocelotl.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.TopologyRequest;
import org.ocelotl.analysis.TopologyResult;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.export.Format;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl topology TRACE --out FILE.svg|.png}: the hierarchical topology graph, headless. */
@Command(name = "topology", mixinStandardHelpOptions = true,
    description = "Draw the topology graph of a trace's platform (SVG or PNG): hosts, links and processes sized by "
        + "capacity and filled by use, platform links and communications as edges, cut at the spatial partition "
        + "for p or at a depth.")
public final class TopologyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin ModelOptions modelOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--p", paramLabel = "P|auto", defaultValue = "auto",
      description = "The trade-off p in [0, 1], or auto for the best normalised gain − loss (default).")
  String p;

  @Option(names = "--cut-depth", paramLabel = "D", description = "Cut the tree at this depth instead of at the spatial partition for p.")
  Integer cutDepth;

  @Option(names = "--expand", paramLabel = "PATH", split = ",", description = "Expand these shown groups (paths a/b).")
  List<String> expand = List.of();

  @Option(names = "--collapse", paramLabel = "PATH", split = ",", description = "Collapse these groups (paths a/b), after the expansions.")
  List<String> collapse = List.of();

  @Option(names = "--step", paramLabel = "K", description = "Show only time slice K (0 to N−1) instead of the whole window.")
  Integer step;

  @Option(names = "--width", defaultValue = "1000", description = "Picture width in pixels (default: ${DEFAULT-VALUE}).")
  int width;

  @Option(names = "--height", defaultValue = "1000", description = "Picture height in pixels (default: ${DEFAULT-VALUE}).")
  int height;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the answer as JSON: the spatial analysis and the graph.")
  Path json;

  @Override
  public Integer call() throws IOException {
    Format format = Format.ofFileName(out.getFileName().toString());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    ModelRequest model = modelOptions.request(TreemapCommand.SLICES, traceOptions, store);
    var parsed = spec.commandLine().getParseResult();
    if (!parsed.hasMatchedOption("--metric") && model.types().isEmpty()) {
      model = TopologyRequest.capacityModel(store.metadata(), model);
    }
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIAL, null,
        OverviewCommand.parseP(p), AnalysisRequest.DEFAULT_HEIGHT);
    List<String> toggles = new java.util.ArrayList<>();
    expand.forEach(path -> toggles.add("+" + path));
    collapse.forEach(path -> toggles.add("-" + path));
    TopologyRequest request = new TopologyRequest(analysis, cutDepth == null ? -1 : cutDepth, step == null ? -1 : step,
        toggles);
    TopologyResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().topology(request, bar);
    }
    AtomicFile.write(out, o -> result.render(format, width, height, o));
    if (json != null) {
      AtomicFile.write(json, o -> o.write(result.json()));
    }
    var stdout = spec.commandLine().getOut();
    if (!result.topology().note().isEmpty()) {
      stdout.println("note: " + result.topology().note());
    }
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d nodes, %d edges → %s%n", result.title(), result.result().p(),
        result.topology().nodes().size(), result.topology().edges().size(), out);
    stdout.flush();
    return 0;
  }
}
