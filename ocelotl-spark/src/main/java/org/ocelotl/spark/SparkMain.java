package org.ocelotl.spark;

import org.ocelotl.app.RequestOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code spark-submit --class org.ocelotl.spark.SparkMain ocelotl-spark.jar import|model …}, or
 * {@code ./ocelotl-spark import|model … --master 'local[N]'} without a Spark distribution: the Spark
 * jobs of Ocelotl (docs/scale-out.md). No Spark class is touched before a job runs, so that
 * {@code --help} works with this jar alone. Failures are one line on stderr, "ocelotl-spark: REASON",
 * and exit status 1, as for {@code ocelotl}.
 */
@Command(name = "ocelotl-spark", mixinStandardHelpOptions = true, version = "ocelotl-spark 0.1.0",
    description = {"Ocelotl's jobs on Apache Spark.",
        "Also runs every other command of ocelotl (info, stats, overview, view, …), on traces and datasets on HDFS "
            + "or any file system Hadoop reads too: each is copied into the workspace first (docs/scale-out.md)."},
    subcommands = {CommandLine.HelpCommand.class, SparkImportCommand.class, SparkModelCommand.class})
public final class SparkMain implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * The commands of {@code ocelotl} that ocelotl-spark runs as the local tool does ({@link
   * LocalCommands}, decision 055). Kept here, not there: that class needs Hadoop's, and {@code
   * --help} runs without them.
   */
  static final java.util.Set<String> LOCAL_COMMANDS = java.util.Set.of("list", "rm", "info", "aggregate", "overview",
      "outliers", "compare", "treemap", "topology", "serve", "view", "events", "gantt", "stats", "selection", "export",
      "sql");

  public static void main(String[] args) {
    int status = run(args);
    SparkSessions.stopStarted();
    System.exit(status);
  }

  /**
   * Runs the command line in the active Spark session (or a new one), or a command of the local
   * tool on local copies of its remote arguments (no Spark session); tests call this instead of main.
   */
  public static int run(String... args) {
    if (args.length > 0 && LOCAL_COMMANDS.contains(args[0])) {
      return LocalCommands.run(args);
    }
    CommandLine commandLine = new CommandLine(new SparkMain());
    RequestOptions.declare(commandLine);
    RequestOptions.refuseValuesAsBadInput(commandLine, "ocelotl-spark");
    return commandLine.setExecutionExceptionHandler(SparkMain::failure).execute(args);
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand: import or model");
  }

  private static int failure(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
    command.getErr().println("ocelotl-spark: " + reason(e));
    command.getErr().flush();
    return 1;
  }

  /**
   * The reason in one line: our own refusals as they are; Spark's errors (an unreadable or corrupt
   * dataset, found by a task) by the first line of their innermost cause, which names the file.
   */
  static String reason(Throwable e) {
    if (e instanceof IllegalArgumentException || e instanceof java.io.IOException) {
      return firstLine(e.getMessage());
    }
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return firstLine(cause.getMessage() == null ? cause.toString() : cause.getMessage());
  }

  private static String firstLine(String message) {
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
