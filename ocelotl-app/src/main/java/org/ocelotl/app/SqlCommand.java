package org.ocelotl.app;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.TraceSql;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl sql TRACE QUERY [--csv|--json]}: a SQL query over the trace's tables (states,
 * events, variables, links, producers, types: the Parquet dataset's, docs/scale-out.md), run by
 * DuckDB ({@link TraceSql}, docs/sql.md).
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
    description = {"Run a SQL query (DuckDB's dialect) over the trace's tables.",
        "The tables are states, events, variables, links, producers, types (the columns of its Parquet "
        + "dataset, docs/scale-out.md; times in the trace's unit).",
        "The dataset is written into the trace's store on first use."})
public final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions options;

  @Parameters(index = "0", paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Parameters(index = "1", paramLabel = "QUERY", description = "The query, e.g. \"SELECT count(*) FROM states\".")
  String query;

  @ArgGroup(exclusive = true)
  Output output = new Output();

  /** How the rows are printed: aligned columns unless one of these is given. */
  static final class Output {
    @Option(names = "--csv", description = "Print CSV (RFC 4180): a header row, then the rows.")
    boolean csv;

    @Option(names = "--json", description = "Print JSON: {\"columns\": [...], \"types\": [...], \"rows\": [[...], ...]}.")
    boolean json;
  }

  @Override
  public Integer call() throws Exception {
    TraceSql.Result result = TraceSql.query(options.open(trace, spec.commandLine().getErr()), query);
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      out.println(new String(result.json(), StandardCharsets.UTF_8));
    } else if (output.csv) {
      out.print(new String(result.csv(), StandardCharsets.UTF_8));
    } else {
      printAligned(result, out);
    }
    out.flush();
    return 0;
  }

  /** Each column as wide as its widest value; numbers to the right. */
  private static void printAligned(TraceSql.Result result, PrintWriter out) {
    int n = result.columns().size();
    int[] width = new int[n];
    for (int c = 0; c < n; c++) {
      width[c] = result.columns().get(c).length();
      for (List<Object> row : result.rows()) {
        width[c] = Math.max(width[c], text(row.get(c)).length());
      }
    }
    out.println(line(result.columns(), width, new boolean[n]));
    for (List<Object> row : result.rows()) {
      boolean[] right = new boolean[n];
      for (int c = 0; c < n; c++) {
        right[c] = row.get(c) instanceof Number;
      }
      out.println(line(row, width, right));
    }
    out.println("(" + result.rows().size() + (result.rows().size() == 1 ? " row)" : " rows)"));
  }

  private static String line(List<?> values, int[] width, boolean[] right) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < values.size(); c++) {
      String text = text(values.get(c));
      String pad = " ".repeat(width[c] - text.length());
      line.append(c == 0 ? "" : "  ").append(right[c] ? pad + text : text + pad);
    }
    return line.toString().stripTrailing();
  }

  private static String text(Object value) {
    return value == null ? "NULL" : value.toString();
  }
}
