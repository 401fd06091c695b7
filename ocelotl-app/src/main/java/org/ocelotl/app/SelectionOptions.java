package org.ocelotl.app;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The selection of the commands that read records (events, stats): a window, producers, types
 * and kinds. Mix it in with {@code @Mixin SelectionOptions selection;}.
 */
public final class SelectionOptions {
  @Option(names = "--from", paramLabel = "T0", description = "Window start, in the trace's time unit (default: trace start).")
  Double from;

  @Option(names = "--to", paramLabel = "T1", description = "Window end, exclusive (default: trace end).")
  Double to;

  @Option(names = "--producers", paramLabel = "NAME", split = ",", description = "Only these producers and their subtrees.")
  List<String> producers = new ArrayList<>();

  @Option(names = "--types", paramLabel = "NAME", split = ",", description = "Only these types (names, or a group).")
  List<String> types = new ArrayList<>();

  @Option(names = "--kind", paramLabel = "KIND", split = ",", description = "state, event, variable, link (default: all).")
  List<String> kinds = new ArrayList<>();

  /** The window's start, NaN for the trace's. */
  double from() {
    return from == null ? Double.NaN : from;
  }

  /** The window's end, NaN for the trace's. */
  double to() {
    return to == null ? Double.NaN : to;
  }
}
