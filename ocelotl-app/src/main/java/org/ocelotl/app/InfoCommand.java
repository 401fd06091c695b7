package org.ocelotl.app;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl info TRACE}: what a trace holds. The JSON form is a contract (docs/cli.md). */
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
    Map<String, Object> info = info(store);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.print(JsonForm.pretty(info));
      out.flush();
    } else {
      printText(info, out);
    }
    return 0;
  }

  /** The contract of {@code info --json}; every key is documented in docs/cli.md. */
  static Map<String, Object> info(TraceStore store) {
    StoreMetadata m = store.metadata();
    ProducerTree tree = store.tree();
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", m.name());
    info.put("path", m.source().path());
    info.put("format", m.source().format());
    info.put("size", m.source().size());
    info.put("start", m.start());
    info.put("end", m.end());
    info.put("unit", m.timeUnit());
    for (EventCategory category : EventCategory.values()) {
      info.put(StoreMetadata.categoryName(category), m.count(category));
    }
    info.put("producers", (long) m.producers().size());
    info.put("leaves", (long) tree.leafCount());
    info.put("depth", (long) tree.height());
    Map<String, Long> kinds = new TreeMap<>();
    for (StoreMetadata.Producer p : m.producers()) {
      kinds.merge(p.kind() == null ? "" : p.kind(), 1L, Long::sum);
    }
    List<Object> kindRows = new ArrayList<>();
    kinds.forEach((kind, count) -> kindRows.add(kindRow(kind, count)));
    info.put("producerKinds", kindRows);
    List<Object> types = new ArrayList<>();
    for (StoreMetadata.EventType t : m.types()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("name", t.name());
      row.put("category", t.category().name().toLowerCase(Locale.ROOT));
      row.put("count", t.count());
      row.put("group", t.group());
      row.put("color", t.color());
      types.add(row);
    }
    info.put("types", types);
    info.put("warnings", m.warnings());
    return info;
  }

  @SuppressWarnings("unchecked")
  private static void printText(Map<String, Object> info, PrintWriter out) {
    out.printf("trace      %s (%s, %,d bytes)%n", info.get("name"), info.get("format"), info.get("size"));
    out.printf("file       %s%n", info.get("path"));
    out.printf("time       %s to %s %s%n", plain(info.get("start")), plain(info.get("end")), info.get("unit"));
    out.printf("records    %,d states, %,d events, %,d variable changes, %,d links%n",
        info.get("states"), info.get("events"), info.get("variables"), info.get("links"));
    out.printf("producers  %,d, depth %d, %,d leaves%n", info.get("producers"), info.get("depth"), info.get("leaves"));
    for (Object row : (List<Object>) info.get("producerKinds")) {
      Map<String, Object> kind = (Map<String, Object>) row;
      out.printf("  %-24s %,12d%n", kind.get("kind"), kind.get("count"));
    }
    out.println("types");
    for (Object row : (List<Object>) info.get("types")) {
      Map<String, Object> type = (Map<String, Object>) row;
      String group = type.get("group") == null ? "" : type.get("group") + " / ";
      out.printf("  %-9s %-40s %,12d%n", type.get("category"), group + type.get("name"), type.get("count"));
    }
    List<String> warnings = (List<String>) info.get("warnings");
    out.println(warnings.isEmpty() ? "warnings   none" : "warnings");
    for (String warning : warnings) {
      out.println("  " + warning);
    }
  }

  /**
   * A bound without an exponent (nanosecond traces: 999999956, not 9.99999956E8), the same digits
   * as the JSON's shortest form.
   */
  private static String plain(Object time) {
    return new java.math.BigDecimal(Double.toString((Double) time)).toPlainString();
  }

  private static Map<String, Object> kindRow(String kind, long count) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("kind", kind);
    row.put("count", count);
    return row;
  }
}
