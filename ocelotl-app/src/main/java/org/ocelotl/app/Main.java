package org.ocelotl.app;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code ocelotl} command: one subcommand per job. */
@Command(
    name = "ocelotl",
    mixinStandardHelpOptions = true,
    version = Main.VERSION,
    description = "Truthful overviews of very large execution traces.")
public final class Main implements Runnable {
  /** Every subcommand, in the order the help lists them. */
  private static final List<Class<?>> COMMANDS = List.of(CommandLine.HelpCommand.class, ImportCommand.class,
      ListCommand.class, RmCommand.class, InfoCommand.class, AggregateCommand.class, OverviewCommand.class,
      OutliersCommand.class, CompareCommand.class, TreemapCommand.class, TopologyCommand.class, DemoCommand.class, ModelCommand.class, ServeCommand.class,
      ViewCommand.class, EventsCommand.class, GanttCommand.class, StatsCommand.class, SelectionCommand.class,
      ExportCommand.class, SqlCommand.class);

  /** What {@code --version} prints, on the main command and on every subcommand. */
  static final String VERSION = "ocelotl 0.1.0";

  /** Set to 1 to get the stack trace of an internal error, as {@code --debug} does. */
  static final String DEBUG_VARIABLE = "OCELOTL_DEBUG";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
      description = "Print the stack trace of an internal error (for bug reports); also OCELOTL_DEBUG=1.")
  boolean debug;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit status; tests call this instead of main. */
  public static int run(String... args) {
    try {
      CommandLine commandLine = commandLine(args);
      RequestOptions.refuseValuesAsBadInput(commandLine, "ocelotl");
      return commandLine.setExecutionExceptionHandler(Main::failure).execute(args);
    } catch (OutOfMemoryError e) {
      // The heap checks cover what can be sized in advance; a search on a huge model may still
      // outgrow the heap: say so, and how to give it more, rather than print a stack trace.
      System.err.println("ocelotl: out of memory (" + Runtime.getRuntime().maxMemory() / (1 << 20)
          + " MiB heap); use fewer slices or producers, or a larger heap: OCELOTL_JAVA_OPTS=-Xmx8g ./ocelotl …");
      return 1;
    }
  }

  /**
   * The command line for these arguments. Picocli reflects over every registered subcommand when
   * the command line is built: half a CPU second for all eighteen, as much as reading and
   * aggregating a 700-producer model (docs/benchmarks.md, decision 024). A call that starts with
   * its subcommand's name gets that subcommand alone; anything else (help, which names another
   * command, an option first, a misspelt name that picocli should suggest a correction for) gets
   * them all.
   */
  static CommandLine commandLine(String... args) {
    CommandLine commandLine = new CommandLine(new Main());
    List<Class<?>> named = args.length == 0 || args[0].equals("help") ? List.of()
        : COMMANDS.stream().filter(c -> c.getAnnotation(Command.class).name().equals(args[0])).toList();
    for (Class<?> command : named.isEmpty() ? COMMANDS : named) {
      commandLine.addSubcommand(command);
    }
    for (CommandLine subcommand : commandLine.getSubcommands().values()) {
      subcommand.getCommandSpec().version(VERSION);
    }
    RequestOptions.declare(commandLine);
    return commandLine;
  }

  /**
   * What the user sees when a command fails: "ocelotl: REASON" on stderr, exit status 1, never
   * a stack trace (usage errors are picocli's, exit status 2).
   */
  static int failure(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
    boolean internal = isInternal(e);
    command.getErr().println("ocelotl: " + reason(e));
    if (internal && debugging(parsed)) {
      e.printStackTrace(command.getErr());
    } else if (internal) {
      command.getErr().println("ocelotl: this is a bug; run again with --debug (or " + DEBUG_VARIABLE
          + "=1) for the stack trace to put in a bug report");
    }
    command.getErr().flush();
    return 1;
  }

  private static boolean isInternal(Exception e) {
    return !(e instanceof java.io.IOException || e instanceof IllegalArgumentException);
  }

  private static boolean debugging(CommandLine.ParseResult parsed) {
    return "1".equals(System.getenv(DEBUG_VARIABLE))
        || parsed != null && parsed.asCommandLineList().stream().anyMatch(c -> c.getParseResult().hasMatchedOption("--debug"));
  }

  static String reason(Exception e) {
    if (e instanceof java.nio.file.NoSuchFileException missing) {
      return missing.getFile() + ": " + (missing.getReason() != null ? missing.getReason() : "no such file");
    }
    if (e instanceof java.nio.file.AccessDeniedException denied) {
      return denied.getFile() + ": permission denied";
    }
    if (!isInternal(e)) {
      return e.getMessage();
    }
    return "internal error: " + e; // a bug: say what, still without a stack trace
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
