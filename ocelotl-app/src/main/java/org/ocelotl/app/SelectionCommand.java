package org.ocelotl.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.analysis.Selection;
import org.ocelotl.analysis.SelectionFile;
import org.ocelotl.analysis.SelectionRequest;
import org.ocelotl.analysis.TimeText;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.store.StoreMetadata;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ocelotl selection save|list|show|rename|delete|export|import}: named selections of a
 * trace, kept in its workspace (docs/selections.md) and used by {@code --selection NAME}.
 */
@Command(name = "selection", mixinStandardHelpOptions = true,
    description = "Save, list, show, rename, delete, export and import the named selections (window, producers, "
        + "types) of a trace; other commands use one with --selection NAME.",
    subcommands = {SelectionCommand.Save.class, SelectionCommand.ListAll.class, SelectionCommand.Show.class,
        SelectionCommand.Rename.class, SelectionCommand.Delete.class, SelectionCommand.Export.class,
        SelectionCommand.Import.class})
public final class SelectionCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The shared part of every subcommand: the trace, its selections, and where to print. */
  abstract static class OnTrace implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin TraceOptions traceOptions;

    SelectionFile selections(Path trace) throws IOException {
      return SelectionFile.of(traceOptions.workspace(), traceOptions.open(trace, spec.commandLine().getErr()));
    }

    void print(String text) {
      PrintWriter out = spec.commandLine().getOut();
      out.print(text);
      out.flush();
    }
  }

  @Command(name = "save", mixinStandardHelpOptions = true,
      description = {"Save a selection: a window, producers and types under a name, with a note.",
          "--active-types or --share-of derive the producers from the trace's records in the window, now."})
  static final class Save extends OnTrace {
    @Parameters(index = "0", paramLabel = "NAME", description = "The selection's name (letters, digits, ._:+-).")
    String name;

    @Parameters(index = "1", paramLabel = "TRACE", description = "The trace file (imported on first use).")
    Path trace;

    @Option(names = "--from", paramLabel = "T0", description = "Window start: in the trace's unit, or since the "
        + "trace's start with a unit (150ms, 2.5s) (default: trace start).")
    String from;

    @Option(names = "--to", paramLabel = "T1", description = "Window end, exclusive, written as --from is "
        + "(default: trace end).")
    String to;

    @Option(names = "--producers", paramLabel = "NAME", split = ",",
        description = "Producers and their subtrees (with a rule: those the rule chooses among).")
    List<String> producers = new ArrayList<>();

    @Option(names = "--types", paramLabel = "NAME", split = ",", description = "Types (names, or a group).")
    List<String> types = new ArrayList<>();

    @Option(names = "--note", paramLabel = "TEXT", description = "A note kept with the selection.")
    String note = "";

    @Option(names = "--active-types", paramLabel = "TYPE", split = ",",
        description = "Keep the producers having records of these types in the window.")
    List<String> activeTypes = new ArrayList<>();

    @Option(names = "--share-of", paramLabel = "TYPE",
        description = "Keep the producers whose share of this state (time) or event (count) type in the window is above --above.")
    String shareOf;

    @Option(names = "--above", paramLabel = "Y", description = "The share threshold of --share-of, in [0, 1).")
    Double above;

    @Option(names = "--sequence", paramLabel = "TYPE", split = ",",
        description = "Keep the producers where these state or event types occur as a sequence, and narrow the "
            + "window to its occurrences (docs/analysis.md#sequences).")
    List<String> sequence = new ArrayList<>();

    @Option(names = "--within", paramLabel = "D", description = "With --sequence: only occurrences lasting at most D "
        + "(in the trace's unit, or with a unit: 10ms).")
    String within;

    @Override
    public Integer call() throws IOException {
      if ((shareOf == null) != (above == null)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--share-of and --above go together");
      }
      SelectionFile file = selections(trace);
      StoreMetadata m = file.store().metadata();
      Selection s = new SelectionRequest(name, time("--from", from, m), time("--to", to, m),
          producers, types, note, activeTypes, shareOf, above == null ? Double.NaN : above, sequence,
          duration("--within", within, m)).resolve(file.store());
      file.add(s);
      print(String.format(Locale.ROOT, "saved %s: %s%n", s.name(), summary(s)));
      return 0;
    }
  }

  /** A window bound as the user wrote it, NaN when absent: the trace's bound. */
  private static double time(String option, String text, StoreMetadata m) {
    if (text == null) {
      return Double.NaN;
    }
    try {
      return TimeText.parse(text, m.origin(), m.timeUnit());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  /** A duration as the user wrote it, NaN when absent. */
  private static double duration(String option, String text, StoreMetadata m) {
    if (text == null) {
      return Double.NaN;
    }
    try {
      Double d = TimeText.duration(text, m.timeUnit());
      double x = d != null ? d : Double.parseDouble(text.trim());
      if (!(x >= 0) || Double.isInfinite(x)) {
        throw new IllegalArgumentException("expected a duration ≥ 0, found '" + text + "'");
      }
      return x;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": expected a duration (10ms, or a number in the trace's unit), "
          + "found '" + text + "'");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the selections of a trace.")
  static final class ListAll extends OnTrace {
    @Parameters(paramLabel = "TRACE", description = "The trace file.")
    Path trace;

    @Option(names = "--json", description = "The selections file's JSON (docs/selections.md).")
    boolean json;

    @Override
    public Integer call() throws IOException {
      SelectionFile file = selections(trace);
      List<Selection> all = file.list();
      if (json) {
        print(new String(file.bytes(all), StandardCharsets.UTF_8));
        return 0;
      }
      StringBuilder text = new StringBuilder();
      for (Selection s : all) {
        text.append(String.format(Locale.ROOT, "%-20s %s%n", s.name(), summary(s)));
      }
      print(all.isEmpty() ? "no selections for " + file.store().metadata().name() + "\n" : text.toString());
      return 0;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one selection.")
  static final class Show extends OnTrace {
    @Parameters(index = "0", paramLabel = "NAME") String name;
    @Parameters(index = "1", paramLabel = "TRACE") Path trace;

    @Option(names = "--json", description = "As JSON (one item of the selections file).")
    boolean json;

    @Override
    public Integer call() throws IOException {
      SelectionFile file = selections(trace);
      Selection s = file.get(name);
      if (json) {
        print(JsonForm.pretty(SelectionFile.json(s)));
        return 0;
      }
      print(String.format(Locale.ROOT, "name       %s%nwindow     [%s, %s) %s%nproducers  %s%ntypes      %s%nnote       %s%n%s",
          s.name(), s.from(), s.to(), file.store().metadata().timeUnit(), s.producers().isEmpty() ? "all" : String.join(", ", s.producers()),
          s.types().isEmpty() ? "all" : String.join(", ", s.types()), s.note(),
          s.rule() == null ? "" : "rule       " + s.rule().describe(s) + "\n"));
      return 0;
    }
  }

  @Command(name = "rename", mixinStandardHelpOptions = true, description = "Rename a selection.")
  static final class Rename extends OnTrace {
    @Parameters(index = "0", paramLabel = "OLD") String oldName;
    @Parameters(index = "1", paramLabel = "NEW") String newName;
    @Parameters(index = "2", paramLabel = "TRACE") Path trace;

    @Override
    public Integer call() throws IOException {
      selections(trace).rename(oldName, newName);
      print("renamed " + oldName + " to " + newName + "\n");
      return 0;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a selection.")
  static final class Delete extends OnTrace {
    @Parameters(index = "0", paramLabel = "NAME") String name;
    @Parameters(index = "1", paramLabel = "TRACE") Path trace;

    @Override
    public Integer call() throws IOException {
      selections(trace).delete(name);
      print("deleted " + name + "\n");
      return 0;
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Write every selection of a trace to a file that 'selection import' reads (on another workspace too).")
  static final class Export extends OnTrace {
    @Parameters(paramLabel = "TRACE") Path trace;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The file to write.")
    Path out;

    @Option(names = "--force", description = "Replace FILE if it exists.")
    boolean force;

    @Override
    public Integer call() throws IOException {
      refuseExisting(out, force);
      SelectionFile file = selections(trace);
      List<Selection> all = file.list();
      byte[] bytes = file.bytes(all);
      AtomicFile.write(out, o -> o.write(bytes));
      print(all.size() + " selections → " + out + "\n");
      return 0;
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = "Add the selections of an exported file to a trace's (all or none: no name may be taken).")
  static final class Import extends OnTrace {
    @Parameters(index = "0", paramLabel = "TRACE") Path trace;
    @Parameters(index = "1", paramLabel = "FILE") Path file;

    @Override
    public Integer call() throws IOException {
      if (!Files.isRegularFile(file)) {
        throw new java.nio.file.NoSuchFileException(file.toString(), null, "no such file");
      }
      List<Selection> added = selections(trace).importFrom(file);
      print("imported " + added.size() + " selections: " + String.join(", ", added.stream().map(Selection::name).toList())
          + "\n");
      return 0;
    }
  }

  /** An output file is replaced only when asked: an export never destroys a file by surprise. */
  static void refuseExisting(Path out, boolean force) {
    if (!force && Files.isRegularFile(out)) {
      throw new IllegalArgumentException(out + ": exists; give --force to replace it");
    }
  }

  static String summary(Selection s) {
    return String.format(Locale.ROOT, "[%s, %s) · producers: %s · types: %s%s%s", s.from(), s.to(),
        s.producers().isEmpty() ? "all" : s.producers().size() <= 4 ? String.join(",", s.producers())
            : s.producers().size() + " (" + s.producers().get(0) + ", …)",
        s.types().isEmpty() ? "all" : String.join(",", s.types()),
        s.rule() == null ? "" : " · rule: " + s.rule().describe(s), s.note().isEmpty() ? "" : " · " + s.note());
  }
}
