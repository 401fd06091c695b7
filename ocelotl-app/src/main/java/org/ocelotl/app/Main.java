package org.ocelotl.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ocelotl} command: one subcommand per job. */
@Command(
    name = "ocelotl",
    mixinStandardHelpOptions = true,
    version = "ocelotl 0.1.0",
    description = "Truthful overviews of very large execution traces.",
    subcommands = {CommandLine.HelpCommand.class, AggregateCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit status; tests call this instead of main. */
  public static int run(String... args) {
    return new CommandLine(new Main()).execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
