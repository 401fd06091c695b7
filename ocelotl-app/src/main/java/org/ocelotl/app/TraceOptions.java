package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.StateRules;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of every command that takes a TRACE: where the workspace is and how to import
 * the trace on first use. Mix it in with {@code @Mixin TraceOptions trace;} and open the
 * store with {@link #open}.
 */
public final class TraceOptions {
  @Mixin WorkspaceOption workspace;
  @Mixin ProgressOption progress;

  @Option(names = "--format", paramLabel = "NAME",
      description = "The trace's format, when it cannot be recognised from its content.")
  String format;

  @Option(names = "--lenient",
      description = "Skip malformed lines (counted and shown by 'info') instead of failing.")
  boolean lenient;

  @Option(names = "--states", arity = "2", paramLabel = "REGEX",
      description = {"CTF only: events matching the first regular expression open a state, events matching"
          + " the second close it; the state is named by what the capturing groups match, e.g."
          + " --states '(.*)_begin' '(.*)_end'. Repeat for more pairs; they replace the default"
          + " '(.*)_entry' '(.*)_exit' (and the kernel's syscall_entry_X form). The trace is imported"
          + " again under these rules, into a store beside its default reading."})
  List<String> states;

  public Workspace workspace() throws IOException {
    return workspace.open();
  }

  /** The progress report of the command's long steps: close it before printing results. */
  ProgressBar progress(PrintWriter err) {
    return progress.bar(err);
  }

  public ImportOptions importOptions() {
    return new ImportOptions(format, lenient, states == null ? null : StateRules.parse(states));
  }

  /** The store of {@code trace}, imported now (with a progress report) if it has none yet. */
  public TraceStore open(Path trace, PrintWriter err) throws IOException {
    try (ProgressBar bar = progress(err)) {
      return workspace().store(trace, importOptions(), bar);
    }
  }
}
