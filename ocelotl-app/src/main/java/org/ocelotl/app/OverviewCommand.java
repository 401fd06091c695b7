package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.export.AtomicFile;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.json.Json;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.ViewKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl overview TRACE --out FILE.svg|.png}: the overview picture, headless. */
@Command(name = "overview", mixinStandardHelpOptions = true,
    description = "Draw the overview of a trace (SVG or PNG) with its axes, legend, quality curves and caption.")
public final class OverviewCommand implements Callable<Integer> {
  /** Default slices: see docs/aggregation.md for what these cost. */
  static final int TEMPORAL_SLICES = 100;
  static final int SPATIOTEMPORAL_SLICES = 50;

  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin ModelOptions modelOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--mode", paramLabel = "AGGREGATION", defaultValue = "spatiotemporal",
      description = "temporal or spatiotemporal (default: ${DEFAULT-VALUE}).")
  String mode;

  @Option(names = "--view", paramLabel = "VIEW",
      description = "partition, stacked (temporal only) or mode (default: mode).")
  String view = "mode";

  @Option(names = "--p", paramLabel = "P|auto", defaultValue = "auto",
      description = "The trade-off p in [0, 1], or auto for the best normalised gain − loss (default).")
  String p;

  @Option(names = "--width", defaultValue = "1400", description = "Picture width in pixels (default: ${DEFAULT-VALUE}).")
  int width;

  @Option(names = "--height", defaultValue = "900", description = "Picture height in pixels (default: ${DEFAULT-VALUE}).")
  int height;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the shown partition and the breakpoints as JSON.")
  Path json;

  @Option(names = "--csv", paramLabel = "FILE", description = "Also write the breakpoint table (p, gain, loss, parts) as CSV.")
  Path csv;

  @Override
  public Integer call() throws IOException {
    ViewKind kind = ViewKind.of(mode, view);
    Aggregation aggregation = kind.spatiotemporal() ? Aggregation.SPATIOTEMPORAL : Aggregation.TEMPORAL;
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    Overview overview = Overview.compute(store,
        modelOptions.request(kind.spatiotemporal() ? SPATIOTEMPORAL_SLICES : TEMPORAL_SLICES),
        aggregation, ModelCache.standard());
    double chosen = chosenP(overview);
    var built = overview.built();
    OverviewInput input = new OverviewInput(built.model(),
        new TimeWindow(built.grid().start(), built.grid().end(), built.timeUnit()), kind,
        overview.breakpoints(), chosen, overview.partition(chosen), built.typeColours(),
        store.metadata().name(), built.metric().toString(), built.exact());
    OverviewPicture.write(input, out, width, height);
    if (json != null) {
      writeText(json, Json.pretty(overview.json(chosen)));
    }
    if (csv != null) {
      writeText(csv, breakpointCsv(overview));
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf(Locale.ROOT, "%s: p = %.6g, %d parts of %d breakpoints, %s model → %s%n",
        store.metadata().name(), chosen, overview.partition(chosen).size(), overview.breakpoints().size(),
        built.exact() ? "exact" : "approximate", out);
    stdout.flush();
    return 0;
  }

  private double chosenP(Overview overview) {
    if (p.equalsIgnoreCase("auto")) {
      return overview.defaultP();
    }
    double value;
    try {
      value = Double.parseDouble(p);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--p takes a number in [0, 1] or auto, got '" + p + "'");
    }
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException("--p must lie in [0, 1], got " + p);
    }
    return value;
  }

  static String breakpointCsv(Overview overview) {
    StringBuilder text = new StringBuilder("p,gain,loss,parts\n");
    for (Breakpoint b : overview.breakpoints()) {
      text.append(b.p()).append(',').append(b.partition().gain()).append(',')
          .append(b.partition().loss()).append(',').append(b.partition().size()).append('\n');
    }
    return text.toString();
  }

  static void writeText(Path file, String text) throws IOException {
    AtomicFile.write(file, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }
}
