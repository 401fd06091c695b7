package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ocelotl list}: the imported traces. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the traces imported into the workspace.")
public final class ListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin WorkspaceOption workspace;

  @Option(names = "--json", description = "Print a JSON list (see docs/cli.md).")
  boolean json;

  @Override
  public Integer call() throws IOException {
    List<Row> rows = new ArrayList<>();
    for (Workspace.Listed listed : workspace.open().listed()) {
      rows.add(row(listed));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.print(JsonForm.pretty(rows));
      out.flush();
      return 0;
    }
    if (rows.isEmpty()) {
      out.println("no imported traces in " + workspace.open().directory());
      return 0;
    }
    out.printf("%-32s %-6s %12s %14s  %-8s %s%n", "TRACE", "FORMAT", "SIZE", "RECORDS", "STATUS", "FILE");
    for (Row row : rows) {
      out.printf("%-32s %-6s %,12d %,14d  %-8s %s%n", row.name(), row.format(), row.size(), row.records(),
          row.status(), row.path());
    }
    return 0;
  }

  /** One imported trace, as the table and the JSON list show it (docs/cli.md). */
  record Row(String name, String path, String format, long size, long records, String status, String store) {}

  private static Row row(Workspace.Listed listed) throws IOException {
    TraceStore store = listed.store();
    StoreMetadata m = store.metadata();
    Path source = Path.of(m.source().path());
    String status = !Files.isRegularFile(source) ? "missing"
        : SourceFile.unchanged(m.source(), source) ? "current" : "changed";
    return new Row(listed.name(), m.source().path(), m.source().format(), SourceFile.readingSize(m.source()),
        Arrays.stream(m.counts()).sum(), status, store.directory().getFileName().toString());
  }
}
