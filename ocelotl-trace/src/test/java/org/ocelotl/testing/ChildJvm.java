package org.ocelotl.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a JVM of its own for a test that reads what the child prints: the running
 * JDK's {@code java}, then {@code arguments} (options, class path, main class and its arguments).
 * It runs with {@code -XX:-UsePerfData}: without an hsperfdata file the JVM has no warning to
 * print about one, such as the "[warning][perf,memops] Cannot use file /tmp/hsperfdata_root/NNN
 * because it is locked by another process" (a file of the same pid, held by a process of another
 * pid namespace sharing /tmp) that a fresh-clone CI run once showed before the line the test parsed.
 */
public final class ChildJvm {
  private ChildJvm() {}

  public static List<String> command(String... arguments) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:-UsePerfData"));
    command.addAll(List.of(arguments));
    return command;
  }
}
