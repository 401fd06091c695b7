package org.ocelotl.app;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.server.Api;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl view TRACE…}: imports the traces if needed and serves the UI on the first one. */
@Command(name = "view", mixinStandardHelpOptions = true,
    description = {"Open traces in the web UI (imported on first use), on the overview of the first.",
        "Prints the page's URL (with its access token) as the first line of output."})
public final class ViewCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions trace;
  @Mixin ServerOptions server;

  @Parameters(paramLabel = "TRACE", arity = "1..*", description = "Trace files.")
  List<Path> files;

  @Override
  public Integer call() throws Exception {
    String first = null;
    for (Path file : files) {
      TraceStore store = trace.open(file, spec.commandLine().getErr());
      if (first == null) {
        first = store.directory().getFileName().toString();
      }
    }
    Api api = new Api(trace.workspace(), AnalysisService.standard());
    String query = "&trace=" + URLEncoder.encode(first, StandardCharsets.UTF_8);
    return server.serve(api, query, spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
