package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
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
public final class GanttCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The picture: FILE.svg or FILE.png.")
  Path out;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the chart's geometry as JSON.")
  Path json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.GANTT;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    Requests.Window w = Requests.window(values, store, traceOptions.workspace());
    GanttView.Result result = new GanttView(store, w.from(), w.to(), w.producers(), w.types(),
        values.list(RequestSpec.KIND), values.integer(RequestSpec.WIDTH), values.integer(RequestSpec.HEIGHT)).answer();
    GanttPicture.write(result, out);
    if (json != null) {
      FileOption.write(json, result.json(), spec);
    }
    PrintWriter stdout = FileOption.summary(spec, json);
    stdout.printf(Locale.ROOT, "%s: %d records, %d shapes%s → %s%n", result.trace().name(), result.records(),
        result.gantt().shapes().size(), result.gantt().summarised() ? " (summarised per pixel)" : "", out);
    stdout.flush();
    return 0;
  }
}
