package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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
public final class StatsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin SelectionOptions selection;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--kind", paramLabel = "KIND", split = ",", description = "state, event, variable, link (default: all).")
  java.util.List<String> kinds = new java.util.ArrayList<>();

  @Option(names = "--by", paramLabel = "GROUP", defaultValue = "type",
      description = "type, producer, or depth:K (the tree's nodes K levels below the root) (default: ${DEFAULT-VALUE}).")
  String by;

  @Option(names = "--top", paramLabel = "N", defaultValue = "0",
      description = "With --by producer or depth:K: per type, the N largest groups and one '(others)' row (default: all).")
  int top;

  @Option(names = "--buckets", paramLabel = "B", defaultValue = "" + Statistics.DEFAULT_BUCKETS,
      description = "Time buckets of the density of records, in the JSON (default: ${DEFAULT-VALUE}).")
  int buckets;

  @ArgGroup(exclusive = true)
  Output output = new Output();

  static final class Output {
    @Option(names = "--json", description = "JSON (docs/analysis.md).")
    boolean json;

    @Option(names = "--csv", description = "CSV, one row per type or per group of a type (the default).")
    boolean csv;
  }

  @Override
  public Integer call() throws IOException {
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    SelectionOptions.Filter filter = selection.filter(traceOptions.workspace(), store);
    Statistics.Result result = new Statistics(store, filter.from(), filter.to(), filter.producers(), filter.types(),
        kinds, by, top, buckets).answer();
    PrintWriter out = spec.commandLine().getOut();
    out.print(new String(output.json ? result.json() : result.csv(), StandardCharsets.UTF_8));
    out.flush();
    return 0;
  }
}
