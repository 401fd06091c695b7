package org.ocelotl.app;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.ocelotl.analysis.Selection;
import org.ocelotl.analysis.SelectionFile;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Option;

/**
 * What a command looks at: a window, producers and types, given as options or by the name of a
 * saved selection ({@code --selection}, docs/selections.md), never both. Mixed into every command
 * that takes a selection, directly or through {@link ModelOptions}.
 */
public final class SelectionOptions {
  @Option(names = "--from", paramLabel = "T0", description = "Window start, in the trace's time unit (default: trace start).")
  Double from;

  @Option(names = "--to", paramLabel = "T1", description = "Window end, exclusive, in the trace's time unit (default: trace end).")
  Double to;

  @Option(names = "--producers", paramLabel = "NAME", split = ",",
      description = "Keep only these producers and their subtrees (names, or paths a/b/c where names repeat).")
  List<String> producers = new ArrayList<>();

  @Option(names = "--types", paramLabel = "NAME", split = ",",
      description = "Keep only these event types (type names, or a group such as a Pajé state type).")
  List<String> types = new ArrayList<>();

  @Option(names = "--selection", paramLabel = "NAME",
      description = "A saved selection's window, producers and types (ocelotl selection list TRACE).")
  String selection;

  /**
   * The window (NaN where absent), producers and types asked for.
   *
   * @param from NaN: the trace's start
   * @param to   NaN: the trace's end
   */
  public record Filter(double from, double to, List<String> producers, List<String> types) {}

  /** Whether any option narrows the selection: a command that writes the whole trace refuses them. */
  boolean narrows() {
    return from != null || to != null || !producers.isEmpty() || !types.isEmpty() || selection != null;
  }

  /** The filter of the options, or of the named selection of {@code store}. */
  public Filter filter(Workspace workspace, TraceStore store) throws IOException {
    Selection.exclusive(selection, from != null || to != null || !producers.isEmpty() || !types.isEmpty(),
        "--from, --to, --producers, --types");
    if (selection != null) {
      Selection s = SelectionFile.of(workspace, store).get(selection);
      return new Filter(s.from(), s.to(), s.producers(), s.types());
    }
    return new Filter(from == null ? Double.NaN : from, to == null ? Double.NaN : to, producers, types);
  }
}
