package org.ocelotl.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl demo}: the overviews of the bundled perturbed SimGrid trace, the first thing a
 * new user runs (README). It is the {@code overview} command twice, with nothing to choose.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Import the bundled perturbed SimGrid trace and draw its spatiotemporal and temporal overviews.")
public final class DemoCommand implements Callable<Integer> {
  /** Where the launcher says the repository is, so the bundled trace is found from anywhere. */
  static final String HOME_PROPERTY = "ocelotl.home";
  static final String BUNDLED = "examples/smpi_perturbed.trace.gz";

  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;

  @Parameters(paramLabel = "TRACE", arity = "0..1", description = "The trace (default: the bundled " + BUNDLED + ").")
  Path trace;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "out",
      description = "Where the pictures go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Override
  public Integer call() throws Exception {
    Path source = trace != null ? trace : bundledTrace();
    Files.createDirectories(out);
    String[][] overviews = {
        {"spatiotemporal", "mode", "spatiotemporal"},
        {"temporal", "stacked", "temporal"},
    };
    for (String[] o : overviews) {
      Path picture = out.resolve("demo-" + o[2] + ".png");
      int status = new CommandLine(new OverviewCommand())
          .setOut(spec.commandLine().getOut()).setErr(spec.commandLine().getErr())
          .setExecutionExceptionHandler(Main::failure)
          .execute(workspace.arguments(source.toString(), "--mode", o[0], "--view", o[1],
              "--out", picture.toString(), "--json", out.resolve("demo-" + o[2] + ".json").toString()));
      if (status != 0) {
        return status;
      }
    }
    spec.commandLine().getOut().println("Open the pictures in " + out.toAbsolutePath()
        + "; README.md explains how to read them.");
    return 0;
  }

  private static Path bundledTrace() {
    String home = System.getProperty(HOME_PROPERTY, ".");
    Path bundled = Path.of(home).resolve(BUNDLED);
    if (!Files.isRegularFile(bundled)) {
      throw new IllegalArgumentException("the bundled trace " + bundled
          + " is missing; give a trace: ocelotl demo TRACE");
    }
    return bundled;
  }
}
