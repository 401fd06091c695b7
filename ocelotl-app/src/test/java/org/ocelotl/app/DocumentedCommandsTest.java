package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;

/**
 * Every command line that README.md and docs/cli.md show in a code block ({@code ./ocelotl …} or
 * {@code ocelotl …}, continuation lines joined) runs as shown, in a shell, in that order, from a
 * directory of its own per document holding {@code examples/} and the shared {@code
 * smpi_small_flat.trace}, on a fresh workspace: exit status 0. The lines a block shows after a
 * command are its output: each must be a line the command printed ({@code …} ends a line's
 * shown part, which must then begin a printed line). In the README's synopsis the placeholders
 * TRACE, NAME and DIR stand for the bundled trace, a selection and a dataset. The commands not
 * run are listed in {@link #NOT_RUN} with the reason, and must still be shown.
 */
class DocumentedCommandsTest {
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  static final List<String> DOCUMENTS = List.of("README.md", "docs/cli.md");

  /** Commands shown but not run (by their first line, without its comment), and why. */
  static final Map<String, String> NOT_RUN = Map.of(
      "./ocelotl view examples/smpi_perturbed.trace.gz", "serves the web UI until stopped (the browser tests run it)",
      "./ocelotl view TRACE", "serves the web UI until stopped (the browser tests run it)",
      "./ocelotl import FILE | list | rm TRACE", "a synopsis of three commands, not a command line",
      "./ocelotl export examples/smpi_perturbed.trace.gz --format parquet --out /tmp/smpi.parquet && \\",
      "needs a Spark distribution (spark-submit); SparkModelTest builds the same model on Spark");

  static final Map<String, String> PLACEHOLDERS = Map.of(
      "TRACE", "examples/smpi_perturbed.trace.gz", "NAME", "everyday", "DIR", "everyday.parquet");

  private static final Pattern COMMAND = Pattern.compile("^(\\./)?ocelotl ");
  private static final Pattern COMMENT = Pattern.compile("\\s+#.*$");

  @TempDir static Path tmp;

  /** A command line of a document and the output lines shown after it. */
  record Shown(String document, String firstLine, String command, List<String> output) {}

  @TestFactory
  Stream<DynamicTest> everyShownCommandRuns() throws IOException {
    Path workspace = tmp.resolve("workspace");
    List<DynamicTest> tests = new ArrayList<>();
    for (String document : DOCUMENTS) {
      Path dir = tmp.resolve(document.replace('/', '-'));
      Files.createDirectories(dir);
      Files.createSymbolicLink(dir.resolve("examples"), ROOT.resolve("examples"));
      Files.copy(SharedTraces.file("paje/simgrid/smpi_small_flat.trace"), dir.resolve("smpi_small_flat.trace"));
      writeLauncher(dir.resolve("ocelotl"));
      for (Shown shown : shown(document)) {
        if (!NOT_RUN.containsKey(shown.firstLine())) {
          tests.add(DynamicTest.dynamicTest(document + ": " + shown.command(), () -> run(shown, dir, workspace)));
        }
      }
    }
    assertTrue(tests.size() >= 25, "commands found: " + tests.size());
    return tests.stream();
  }

  @Test
  void everyCommandNotRunIsStillShown() throws IOException {
    List<String> shown = new ArrayList<>();
    for (String document : DOCUMENTS) {
      shown(document).forEach(s -> shown.add(s.firstLine()));
    }
    for (String command : NOT_RUN.keySet()) {
      assertTrue(shown.contains(command), "no longer shown, drop it from NOT_RUN: " + command);
    }
  }

  /** The command lines of a document's code blocks (fenced, or indented after a blank line). */
  static List<Shown> shown(String document) throws IOException {
    List<String> lines = Files.readAllLines(ROOT.resolve(document), StandardCharsets.UTF_8);
    List<Shown> shown = new ArrayList<>();
    boolean fenced = false;
    boolean indented = false;
    boolean previousBlank = true;
    Shown current = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        fenced = !fenced;
        current = null;
        continue;
      }
      indented = !fenced && line.startsWith("    ") && (indented || previousBlank);
      previousBlank = line.isBlank();
      String text = line.strip();
      if (!(fenced || indented)) {
        current = previousBlank ? current : null;
      } else if (COMMAND.matcher(text).find()) {
        String firstLine = COMMENT.matcher(text).replaceAll("");
        StringBuilder command = new StringBuilder(text);
        while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
          command.setLength(command.length() - 1);
          command.append(' ').append(lines.get(++i).strip());
        }
        String runnable = COMMENT.matcher(command.toString().replaceAll("\\s+", " ").strip()).replaceAll("");
        if (document.equals("README.md")) {
          for (Map.Entry<String, String> p : PLACEHOLDERS.entrySet()) {
            runnable = runnable.replaceAll("\\b" + p.getKey() + "\\b", p.getValue());
          }
        }
        current = new Shown(document, firstLine, runnable, new ArrayList<>());
        shown.add(current);
      } else if (current != null && !text.isEmpty() && !text.startsWith("#") && !text.equals("…")) {
        current.output().add(text);
      }
    }
    return shown;
  }

  private static void run(Shown shown, Path dir, Path workspace) throws Exception {
    // Output to a file, not a pipe: a command that never ends (a server) is then stopped by the timeout.
    Path log = Files.createTempFile(tmp, "output", ".txt");
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", shown.command()).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("OCELOTL_HOME", workspace.toString());
    builder.environment().put("PATH", dir + ":" + System.getenv("PATH"));
    Process process = builder.start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      fail("still running after 15 minutes: " + shown.command());
    }
    String printed = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), shown.command() + "\n" + printed);
    List<String> lines = printed.lines().toList();
    for (String expected : shown.output()) {
      int cut = expected.indexOf('…');
      boolean found = cut < 0 ? lines.contains(expected)
          : lines.stream().anyMatch(l -> l.startsWith(expected.substring(0, cut)));
      assertTrue(found, shown.document() + " shows '" + expected + "' after " + shown.command()
          + ", which printed:\n" + printed);
    }
  }

  /** {@code ./ocelotl}: this build's classes in a JVM of their own, as the launcher runs the jar. */
  private static void writeLauncher(Path script) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(script, "#!/bin/sh\nexec '" + java + "' -cp '" + System.getProperty("java.class.path")
        + "' -Docelotl.home='" + ROOT + "' -Docelotl.stderr.terminal=false org.ocelotl.app.Main \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
