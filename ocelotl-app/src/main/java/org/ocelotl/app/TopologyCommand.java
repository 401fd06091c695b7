package org.ocelotl.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.analysis.TopologyRequest;
import org.ocelotl.analysis.TopologyResult;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.export.Format;
import org.ocelotl.export.TopologyPicture;
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
public final class TopologyCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--expand", paramLabel = "PATH", split = ",", description = "Expand these shown groups (paths a/b).")
  List<String> expand = List.of();

  @Option(names = "--collapse", paramLabel = "PATH", split = ",", description = "Collapse these groups (paths a/b), after the expansions.")
  List<String> collapse = List.of();

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the answer as JSON: the spatial analysis and the graph.")
  Path json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.TOPOLOGY;
  }

  @Override
  public Integer call() throws IOException {
    Format format = Format.ofFileName(out.getFileName().toString());
    RequestValues values = RequestOptions.values(spec, parameters());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    List<String> toggles = new java.util.ArrayList<>();
    expand.forEach(path -> toggles.add("+" + path));
    collapse.forEach(path -> toggles.add("-" + path));
    TopologyRequest request = Requests.topology(values, store, Requests.model(values, store, traceOptions.workspace()),
        toggles);
    int width = values.integer(RequestSpec.WIDTH);
    int height = values.integer(RequestSpec.HEIGHT);
    TopologyResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().topology(request, bar);
    }
    List<String> over = TopologyPicture.overCapacity(result.topology());
    if (!over.isEmpty()) {
      spec.commandLine().getErr().println("warning: " + String.join(" ", over));
      spec.commandLine().getErr().flush();
    }
    AtomicFile.write(out, o -> TopologyPicture.render(result, format, width, height, o));
    if (json != null) {
      FileOption.write(json, result.json(), spec);
    }
    var stdout = FileOption.summary(spec, json);
    if (!result.topology().note().isEmpty()) {
      stdout.println("note: " + result.topology().note());
    }
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d nodes, %d edges → %s%n", result.title(), result.result().p(),
        result.topology().nodes().size(), result.topology().edges().size(), out);
    stdout.flush();
    return 0;
  }
}
