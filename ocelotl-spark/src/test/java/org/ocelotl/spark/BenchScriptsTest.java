package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The benchmark scripts under bench/ are not run by the build (they take minutes and measure the
 * machine), but they must not rot: every shell script parses ({@code bash -n}), every Python script
 * compiles, and every single-file Java program compiles against this build's classes — this
 * module's test class path holds all of them (core, trace, the Spark job and Spark itself).
 */
class BenchScriptsTest {
  static final Path BENCH = Path.of("").toAbsolutePath().getParent().resolve("bench");

  static List<Path> scripts() throws IOException {
    try (Stream<Path> files = Files.list(BENCH)) {
      List<Path> scripts = files.filter(Files::isRegularFile).sorted().toList();
      assertTrue(scripts.stream().filter(f -> f.toString().endsWith(".sh")).count() >= 10, "scripts: " + scripts);
      return scripts;
    }
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void parsesOrCompiles(Path script, @TempDir Path classes) throws Exception {
    String name = script.getFileName().toString();
    if (name.endsWith(".sh")) {
      run("bash", "-n", script.toString());
    } else if (name.endsWith(".py")) {
      run("python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])", script.toString());
    } else {
      assertTrue(name.endsWith(".java"), "bench/" + name + ": not a script this test knows how to check");
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      ByteArrayOutputStream errors = new ByteArrayOutputStream();
      int status = javac.run(null, null, errors, "-proc:none", "-d", classes.toString(),
          "-cp", System.getProperty("java.class.path"), script.toString());
      assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
    }
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
    assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + printed);
  }
}
