package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.analysis.Statistics;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl stats TRACE}: the statistics of a selection, per type, producer or tree node. */
@Command(name = "stats", mixinStandardHelpOptions = true,
    description = "Statistics of a window and producers: per type the time, share and count of records, the "
        + "distribution of state durations (min, mean, median, p90, p99, max); per producer or tree node with --by; "
        + "as CSV (default) or JSON (with the density of records over time).")
public final class StatsCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @ArgGroup(exclusive = true)
  Output output = new Output();

  static final class Output {
    @Option(names = "--json", description = "JSON (docs/analysis.md).")
    boolean json;

    @Option(names = "--csv", description = "CSV, one row per type or per group of a type (the default).")
    boolean csv;
  }

  @Override
  public java.util.List<Param> parameters() {
    return RequestSpec.STATS;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    Statistics.Result result = Statistics.of(values, store, Requests.window(values, store, traceOptions.workspace()))
        .answer();
    PrintWriter out = spec.commandLine().getOut();
    out.print(new String(output.json ? result.json() : result.csv(), StandardCharsets.UTF_8));
    out.flush();
    return 0;
  }
}
