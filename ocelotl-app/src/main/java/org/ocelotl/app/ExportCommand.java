package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.export.SubTrace;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl export TRACE --format paje|csv|chrome --out FILE}: the records of a selection as a
 * trace of their own (chrome: Trace Event JSON for Perfetto); {@code --format parquet --out DIR}: the whole trace as a Parquet dataset
 * (docs/scale-out.md). Here {@code --format} names what is written; the trace is recognised from
 * its content (or was imported with {@code ocelotl import --format}).
 */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = {"Write a selection's records as a trace file, or the whole trace as a Parquet dataset.",
        "The records of the selection (window, producers, types; or --selection NAME), clipped to the "
        + "window, as a Pajé trace that pj_dump and Ocelotl read back, as CSV in pj_dump's layout, or as "
        + "Chrome Trace Event JSON that ui.perfetto.dev and chrome://tracing open; or the whole trace as a "
        + "Parquet dataset (a directory of tables, docs/scale-out.md) for Spark, DuckDB, pandas."})
public final class ExportCommand implements Callable<Integer>, RequestOptions.Taking {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspaceOption;
  @Mixin ProgressOption progress;

  @Parameters(paramLabel = "TRACE", description = "The trace file (imported on first use).")
  Path trace;

  @Option(names = "--format", paramLabel = "paje|csv|chrome|parquet", defaultValue = "paje",
      description = "What to write: a Pajé trace, pj_dump's CSV, Chrome Trace Event JSON or a Parquet dataset "
          + "(default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "The file (for parquet: the directory) to write.")
  Path out;

  @Option(names = "--force", description = "Replace FILE (or DIR) if it exists.")
  boolean force;

  @Option(names = "--lenient", description = "On first use, import the trace skipping malformed lines.")
  boolean lenient;

  @Override
  public List<Param> parameters() {
    return RequestSpec.SUB_TRACE;
  }

  @Override
  public Integer call() throws IOException {
    RequestValues values = RequestOptions.values(spec, parameters());
    boolean narrows = parameters().stream().anyMatch(values::given);
    String written = format.toLowerCase(Locale.ROOT);
    if (!written.equals("parquet") && !SubTrace.FORMATS.contains(written)) {
      throw new IllegalArgumentException("--format: expected paje, csv, chrome or parquet, got '" + format + "'");
    }
    if (written.equals("parquet") && narrows) {
      throw new IllegalArgumentException("--format parquet writes the whole trace: drop --from, --to, --producers, "
          + "--types and --selection (the dataset's readers filter)");
    }
    SelectionCommand.refuseExisting(out, force);
    if (written.equals("parquet") && !force && Files.exists(out)) {
      throw new IllegalArgumentException(out + ": exists; give --force to replace it");
    }
    Workspace workspace = workspaceOption.open();
    TraceStore store;
    try (ProgressBar bar = progress.bar(spec.commandLine().getErr())) {
      store = workspace.store(trace, new ImportOptions(null, lenient), bar);
    }
    if (written.equals("parquet")) {
      return parquet(store);
    }
    Requests.Window w = Requests.window(values, store, workspace);
    SubTrace sub = SubTrace.of(store, w.from(), w.to(), w.producers(), w.types());
    AtomicFile.write(out, o -> sub.write(written, o));
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf(Locale.ROOT, "%s: [%s, %s) %s, %d containers, %d records → %s%n", store.metadata().name(), sub.from(),
        sub.to(), store.metadata().timeUnit(), sub.containers().size(), sub.records().size(), out);
    stdout.flush();
    return 0;
  }

  private int parquet(TraceStore store) throws IOException {
    ParquetExport.write(store, out, ParquetExport.CHUNKS_PER_FILE, force);
    StoreMetadata m = store.metadata();
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf(Locale.ROOT, "%s: %d states, %d events, %d variables, %d links, %d producers, %d types → %s%n",
        m.name(), m.count(EventCategory.STATE), m.count(EventCategory.EVENT), m.count(EventCategory.VARIABLE),
        m.count(EventCategory.LINK), m.producers().size(), m.types().size(), out);
    stdout.flush();
    return 0;
  }
}
