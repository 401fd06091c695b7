package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.export.GanttPicture;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl gantt TRACE --out x.svg|png}: the Gantt chart of a window and producers. */
@Command(name = "gantt", mixinStandardHelpOptions = true,
    description = "Draw the Gantt chart (states, events, links, variables) of a window and producers, SVG or PNG.")
public final class GanttCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Mixin SelectionOptions selection;

  @Option(names = "--kind", paramLabel = "KIND", split = ",",
      description = "state, event, variable, link (default: state, event, link).")
  List<String> kinds = new ArrayList<>();

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the chart's geometry as JSON.")
  Path json;

  @Option(names = "--width", defaultValue = "1400", description = "Picture width in pixels (default: ${DEFAULT-VALUE}).")
  int width;

  @Option(names = "--height", defaultValue = "900", description = "Picture height in pixels (default: ${DEFAULT-VALUE}).")
  int height;

  @Override
  public Integer call() throws IOException {
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    SelectionOptions.Filter filter = selection.filter(traceOptions.workspace(), store);
    GanttView.Result result = new GanttView(store, filter.from(), filter.to(), filter.producers(), filter.types(), kinds, GanttPicture.chartWidth(width), GanttPicture.chartHeight(height)).answer();
    GanttPicture.write(result.gantt(), result.timeScale(), result.trace().name(), result.records(), out, width, height);
    if (json != null) {
      AtomicFile.write(json, o -> o.write(result.json()));
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf(Locale.ROOT, "%s: %d records, %d shapes%s → %s%n", result.trace().name(), result.records(),
        result.gantt().shapes().size(), result.gantt().summarised() ? " (summarised per pixel)" : "", out);
    stdout.flush();
    return 0;
  }
}
