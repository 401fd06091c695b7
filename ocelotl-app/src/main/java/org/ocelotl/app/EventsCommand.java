package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.RecordTable;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl events TRACE}: the event table of a selection, a page at a time. */
@Command(name = "events", mixinStandardHelpOptions = true,
    description = "List the records (states, events, variable steps, links) of a window and producers, "
        + "filtered, sorted and paged, as CSV (default) or JSON.")
public final class EventsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;
  @Mixin SelectionOptions selection;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--kind", paramLabel = "KIND", split = ",", description = "state, event, variable, link (default: all).")
  List<String> kinds = new ArrayList<>();

  @Option(names = "--match", paramLabel = "REGEX", description = "Only records whose type, producer or value it finds.")
  String match;

  @Option(names = "--min-duration", paramLabel = "X", description = "Only records lasting at least X.")
  double minDuration = Double.NEGATIVE_INFINITY;

  @Option(names = "--max-duration", paramLabel = "X", description = "Only records lasting at most X.")
  double maxDuration = Double.POSITIVE_INFINITY;

  @Option(names = "--sort", paramLabel = "COLUMN", defaultValue = "start",
      description = "start, end, duration, producer, type, kind or value; -COLUMN for descending, e.g. -duration (default: ${DEFAULT-VALUE}).")
  String sort;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "Rows (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Rows skipped first (default: 0).")
  int offset;

  @Option(names = "--json", description = "JSON (docs/analysis.md) instead of CSV.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    SelectionOptions.Filter filter = selection.filter(traceOptions.workspace(), store);
    RecordTable.Result result = new RecordTable(store, filter.from(), filter.to(), filter.producers(), filter.types(),
        kinds, match, minDuration, maxDuration, sort, offset, limit).answer();
    PrintWriter out = spec.commandLine().getOut();
    out.print(new String(json ? result.json() : result.csv(), StandardCharsets.UTF_8));
    out.flush();
    return 0;
  }
}
