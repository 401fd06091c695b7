package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A call that names its subcommand builds that one alone (decision 024); help and mistakes see them all. */
class MainTest {
  private static final List<String> ALL = List.of("help", "import", "list", "rm", "info", "aggregate", "overview",
      "outliers", "compare", "treemap", "topology", "demo", "model", "serve", "view", "events", "gantt", "stats",
      "selection", "export", "sql");

  private static List<String> subcommands(String... args) {
    return List.copyOf(Main.commandLine(args).getSubcommands().keySet());
  }

  @Test
  void aNamedSubcommandIsBuiltAlone() {
    assertEquals(List.of("aggregate"), subcommands("aggregate", "--model", "m.ocm", "--mode", "temporal"));
    assertEquals(List.of("selection"), subcommands("selection", "list"));
  }

  @Test
  void helpOptionsAndMisspeltNamesSeeEverySubcommandInOrder() {
    assertEquals(ALL, subcommands());
    assertEquals(ALL, subcommands("--help"));
    assertEquals(ALL, subcommands("--debug", "list"));
    assertEquals(ALL, subcommands("agregate"));
  }
}
