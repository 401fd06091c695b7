package org.ocelotl.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl demo}: the overviews of the bundled perturbed SimGrid trace, the first thing a
 * new user runs (README): the {@code overview} command's two default views, with nothing to choose.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Import the bundled perturbed SimGrid trace and draw its spatiotemporal and temporal overviews.")
public final class DemoCommand implements Callable<Integer> {
  /** Where the launcher says the repository is, so the bundled trace is found from anywhere. */
  static final String HOME_PROPERTY = "ocelotl.home";
  static final String BUNDLED = "examples/smpi_perturbed.trace.gz";

  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", arity = "0..1", description = "The trace (default: the bundled " + BUNDLED + ").")
  Path trace;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "out",
      description = "Where the pictures go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Override
  public Integer call() throws Exception {
    Path source = trace != null ? trace : bundledTrace();
    Files.createDirectories(out);
    TraceStore store = traceOptions.open(source, spec.commandLine().getErr());
    AnalysisService service = AnalysisService.standard();
    int slices = Integer.parseInt(RequestSpec.SLICES.fallback());
    for (ViewKind view : List.of(ViewKind.SPATIOTEMPORAL_MODE, ViewKind.TEMPORAL_STACKED)) {
      AnalysisRequest request = new AnalysisRequest(
          new ModelInput.FromTrace(store, ModelRequest.of(Metric.STATE_DURATION, slices)),
          AnalysisRequest.aggregationOf(view), view, Double.NaN, AnalysisRequest.DEFAULT_HEIGHT);
      String stem = "demo-" + view.aggregation();
      AnalysisResult result;
      try (ProgressBar bar = traceOptions.progress(spec.commandLine().getErr())) {
        result = service.answer(request, bar);
      }
      OverviewCommand.write(result, out.resolve(stem + ".png"),
          OverviewCommand.DEFAULT_WIDTH, null, out.resolve(stem + ".json"), null, null, spec);
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
