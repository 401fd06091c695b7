package org.ocelotl.app;

import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.server.Api;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ocelotl serve}: the web UI over every trace of the workspace. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve the web UI for the workspace's traces on localhost.",
        "Prints the page's URL (with its access token) as the first line of output."})
public final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    Api api = new Api(workspace.open(), AnalysisService.standard());
    return server.serve(api, null, "", spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
