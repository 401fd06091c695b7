package org.ocelotl.app;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.analysis.TraceDescription;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl info TRACE}: what a trace holds ({@link TraceDescription}, as the API describes it). */
@Command(name = "info", mixinStandardHelpOptions = true,
    description = "Show a trace's time bounds, counts per category, producers, event types and import warnings.")
public final class InfoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions options;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--json", description = "Print the stable JSON form (see docs/cli.md).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    TraceStore store = options.open(trace, spec.commandLine().getErr());
    TraceDescription info = TraceDescription.of(store);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.print(JsonForm.pretty(info));
      out.flush();
    } else {
      printText(info, out);
    }
    return 0;
  }

  private static void printText(TraceDescription info, PrintWriter out) {
    out.printf("trace      %s (%s, %,d bytes)%n", info.name(), info.format(), info.size());
    out.printf("file       %s%n", info.path());
    out.printf("time       %s to %s %s%n", plain(info.start()), plain(info.end()), info.unit());
    if (Double.compare(info.origin(), info.start()) != 0) {
      out.printf("origin     %s %s: a part of a trace that started then; times since the start count from it%n",
          plain(info.origin()), info.unit());
    }
    out.printf("records    %,d states, %,d events, %,d variable changes, %,d links%n",
        info.states(), info.events(), info.variables(), info.links());
    out.printf("producers  %,d, depth %d, %,d leaves%n", info.producers(), info.depth(), info.leaves());
    for (TraceDescription.KindCount kind : info.producerKinds()) {
      out.printf("  %-24s %,12d%n", kind.kind(), kind.count());
    }
    out.printf("metrics    %s%n", String.join(", ", info.metrics()));
    out.println("types");
    for (TraceDescription.TypeRow type : info.types()) {
      String group = type.group() == null ? "" : type.group() + " / ";
      out.printf("  %-9s %-40s %,12d%n", type.category(), group + type.name(), type.count());
    }
    out.println(info.warnings().isEmpty() ? "warnings   none" : "warnings");
    for (String warning : info.warnings()) {
      out.println("  " + warning);
    }
  }

  /**
   * A bound without an exponent (nanosecond traces: 999999956, not 9.99999956E8), the same digits
   * as the JSON's shortest form.
   */
  private static String plain(double time) {
    return new java.math.BigDecimal(Double.toString(time)).toPlainString();
  }
}
