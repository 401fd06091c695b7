package org.ocelotl.app;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.server.Api;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl view TRACE…}: imports the traces if needed and serves the UI on the first one;
 * {@code ocelotl view --model M.ocm}: serves the UI on a model file (the views a model alone
 * gives), through the same analysis service.
 */
@Command(name = "view", mixinStandardHelpOptions = true,
    description = {"Open traces in the web UI (imported on first use), on the overview of the first.",
        "With --model instead of TRACE: the overviews and treemap of a model file (its time axis is the slice number).",
        "With --compare BASE OTHER: the two runs as a pair (how OTHER departs from BASE, both overviews side by side).",
        "Prints the page's URL (with its access token) as the first line of output."})
public final class ViewCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions trace;
  @Mixin ModelFileOptions modelFile;
  @Mixin ServerOptions server;

  @Parameters(paramLabel = "TRACE", arity = "0..*", description = "Trace files.")
  List<Path> files;

  @Option(names = "--compare", description = "Open the two traces given as a pair, BASE then OTHER: how OTHER departs "
      + "from BASE, the differences ranked, both runs' overviews side by side (docs/web-ui.md).")
  boolean compare;

  @Option(names = "--slices", paramLabel = "N",
      description = "With a CSV --model: its number of slices (default: highest slice in the model + 1).")
  Integer slices;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (compare && (files == null || files.size() != 2)) {
      throw new IllegalArgumentException("--compare takes two traces, BASE and OTHER; got "
          + (files == null ? 0 : files.size()));
    }
    // The page chooses the window (a zoom), as it does a trace's.
    ModelInput.FromFiles model = modelFile.files(spec, files != null, slices, Double.NaN, Double.NaN);
    AnalysisService service = AnalysisService.standard();
    if (model != null) {
      // Read and aggregated now: a missing or corrupt file fails here, in one line, not in the page;
      // and the page's first overview is then a look-up.
      try (ProgressBar bar = trace.progress(err)) {
        service.analysis(model, Aggregation.TEMPORAL, bar);
      }
      return server.serve(Api.forModel(model, service), null, "", out, err);
    }
    if (slices != null) {
      throw new IllegalArgumentException("--slices goes with --model; the page chooses a trace's slices");
    }
    List<String> ids = new java.util.ArrayList<>();
    TraceStore first = null;
    for (Path file : files) {
      TraceStore store = trace.open(file, err);
      first = first == null ? store : first;
      ids.add(store.directory().getFileName().toString());
    }
    Api api = new Api(trace.workspace(), service);
    String query = compare ? "&base=" + URLEncoder.encode(ids.get(0), StandardCharsets.UTF_8) + "&other="
        + URLEncoder.encode(ids.get(1), StandardCharsets.UTF_8)
        : "&trace=" + URLEncoder.encode(ids.get(0), StandardCharsets.UTF_8);
    return server.serve(api, first, query, out, err); // the first trace the page shows (BASE of a pair)
  }
}
