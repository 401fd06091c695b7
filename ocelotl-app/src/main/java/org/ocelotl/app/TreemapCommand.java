package org.ocelotl.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.analysis.TreemapRequest;
import org.ocelotl.analysis.TreemapResult;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.export.Format;
import org.ocelotl.export.TreemapPicture;
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
public final class TreemapCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE",
      description = "Also write the answer as JSON: the spatial analysis and the treemap's cells (docs/analysis.md).")
  Path json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.TREEMAP;
  }

  @Override
  public Integer call() throws IOException {
    Format format = Format.ofFileName(out.getFileName().toString());
    RequestValues values = RequestOptions.values(spec, parameters());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    TreemapRequest request = Requests.treemap(values,
        new ModelInput.FromTrace(store, Requests.model(values, store, traceOptions.workspace())));
    TreemapResult result;
    try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
      result = AnalysisService.standard().treemap(request, bar);
    }
    AtomicFile.write(out, o -> TreemapPicture.render(result, format, o));
    if (json != null) {
      FileOption.write(json, result.json(), spec);
    }
    var stdout = FileOption.summary(spec, json);
    if (!result.treemap().note().isEmpty()) {
      stdout.println("note: " + result.treemap().note());
    }
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d shown nodes, %d cells → %s%n", result.title(), result.result().p(),
        result.treemap().cut().size(), result.treemap().cells().size(), out);
    stdout.flush();
    return 0;
  }
}
