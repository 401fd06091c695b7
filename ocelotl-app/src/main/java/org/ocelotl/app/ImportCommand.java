package org.ocelotl.app;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ocelotl import FILE}: imports (again) a trace into the workspace. */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Import a trace into the workspace now, replacing its previous import.",
        "Other commands import on first use; this one does it explicitly."})
public final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TraceOptions options;

  @Parameters(paramLabel = "FILE", description = "The trace file.")
  Path file;

  @Override
  public Integer call() throws Exception {
    long start = System.nanoTime();
    TraceStore store;
    try (ProgressBar bar = options.progress(spec.commandLine().getErr())) {
      store = options.workspace().importTrace(file, options.importOptions(), bar);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    StoreMetadata m = store.metadata();
    long records = 0;
    for (EventCategory category : EventCategory.values()) {
      records += m.count(category);
    }
    spec.commandLine().getOut().printf("imported %s: %,d records in %.1f s (%,.0f records/s, %.1f MB/s)%s%n",
        m.name(), records, seconds, records / seconds, m.source().size() / 1e6 / seconds,
        m.warnings().isEmpty() ? "" : "; " + m.warnings().size() + " warnings (see ocelotl info)");
    return 0;
  }
}
