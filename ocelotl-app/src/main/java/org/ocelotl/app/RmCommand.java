package org.ocelotl.app;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl rm TRACE…}: forgets imported traces (the trace files are not touched). */
@Command(name = "rm", mixinStandardHelpOptions = true,
    description = "Remove imported traces from the workspace (the trace files themselves stay).")
public final class RmCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Parameters(paramLabel = "TRACE", arity = "1..*",
      description = "Trace files (they may no longer exist), names as 'ocelotl list' shows them, or store names (its --json).")
  List<String> traces;

  @Override
  public Integer call() throws Exception {
    Workspace ws = workspace.open();
    int status = 0;
    for (String trace : traces) {
      if (ws.remove(trace)) {
        spec.commandLine().getOut().println("removed " + trace);
      } else {
        spec.commandLine().getErr().println("ocelotl: " + trace + ": not imported in " + ws.directory());
        status = 1;
      }
    }
    return status;
  }
}
