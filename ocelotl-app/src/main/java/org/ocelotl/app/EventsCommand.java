package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RecordTable;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl events TRACE}: the event table of a selection, or a sequence's occurrences, a page at a time. */
@Command(name = "events", mixinStandardHelpOptions = true,
    description = "List the records (states, events, variable steps, links) of a window and producers, "
        + "filtered, sorted and paged, as CSV (default) or JSON; with --sequence, where a sequence of state or event "
        + "types occurs on a producer.")
public final class EventsCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin TraceOptions traceOptions;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--json", description = "JSON (docs/analysis.md) instead of CSV.")
  boolean json;

  @Override
  public List<Param> parameters() {
    return RequestSpec.EVENTS;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    TraceStore store = traceOptions.open(trace, spec.commandLine().getErr());
    RecordTable.Table result = RecordTable.answer(values, store, Requests.window(values, store,
        traceOptions.workspace()));
    PrintWriter out = spec.commandLine().getOut();
    out.print(new String(json ? result.json() : result.csv(), StandardCharsets.UTF_8));
    out.flush();
    return 0;
  }
}
