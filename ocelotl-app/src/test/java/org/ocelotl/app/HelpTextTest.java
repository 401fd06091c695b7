package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command list of {@code ocelotl --help} shows the first line of each command's description:
 * it must be a whole sentence, not the start of one cut where the source wrapped it (issue 33,
 * item 15), and each further line of the description, a paragraph of the command's help, ends
 * its sentences too. Every command, and every nested one (selection's).
 */
class HelpTextTest {
  @Test
  void everyCommandsFirstLineIsAWholeSentence() {
    List<String> cut = new ArrayList<>();
    collect(Main.commandLine(), cut);
    assertEquals(List.of(), cut);
  }

  static void collect(CommandLine command, List<String> cut) {
    for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
      String[] description = sub.getValue().getCommandSpec().usageMessage().description();
      if (description.length == 0) {
        cut.add(command.getCommandName() + " " + sub.getKey() + ": no description");
      }
      // Each element is a paragraph of the command's own help: a whole sentence too.
      for (String paragraph : description) {
        if (!paragraph.replace("%n", "").strip().endsWith(".")) {
          cut.add(command.getCommandName() + " " + sub.getKey() + ": " + paragraph);
        }
      }
      collect(sub.getValue(), cut);
    }
  }
}
