package org.ocelotl.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.app.Main;

/**
 * A trace imported through the example plug-in as a user imports one: this module's classes (and
 * its META-INF/services file) on the class path beside Ocelotl's, nothing registered by hand.
 */
class SpansPluginTest {
  static final Path TRACE = Path.of("src/test/resources/two-nodes.spans");

  @TempDir Path tmp;

  record Result(int status, String out, String err) {}

  static Result ocelotl(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      int status = Main.run(args);
      return new Result(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  @Test
  void recognisedFromItsFirstLineAndImported() {
    Result info = ocelotl("info", TRACE.toString(), "--workspace", tmp.toString());
    assertEquals(0, info.status(), info.err());
    List<String> lines = info.out().lines().toList();
    assertTrue(lines.get(0).startsWith("trace      two-nodes.spans (spans, "), info.out());
    // 6 producers: the root, node-0, node-1 and the three ranks; 5 states and 1 event.
    assertTrue(lines.contains("records    5 states, 1 events, 0 variable changes, 0 links"), info.out());
    assertTrue(lines.contains("producers  6, depth 2, 3 leaves"), info.out());
    assertTrue(lines.contains("time       0.0 to 2.0 s"), info.out());
  }

  @Test
  void analysedAsAnyTrace() {
    Result stats = ocelotl("stats", TRACE.toString(), "--workspace", tmp.toString(), "--kind", "state", "--csv");
    assertEquals(0, stats.status(), stats.err());
    // compute: 1.5 + 1 + 1.5 s on three ranks; wait 1 s; send 0.5 s.
    List<String> lines = stats.out().lines().toList();
    assertTrue(lines.get(1).startsWith("compute,state,4.0,"), stats.out());
    assertTrue(lines.get(2).startsWith("wait,state,1.0,"), stats.out());
    assertTrue(lines.get(3).startsWith("send,state,0.5,"), stats.out());
  }

  @Test
  void namedWithFormatAndListedInTheRefusal() throws IOException {
    Path bad = tmp.resolve("bad.spans");
    Files.writeString(bad, SpansFormat.MAGIC + "\nnode-0/rank-0,compute,0,soon\n");
    Result refused = ocelotl("info", bad.toString(), "--format", "spans", "--workspace", tmp.resolve("ws").toString());
    assertEquals(1, refused.status());
    assertEquals("ocelotl: " + bad + ":2: 'soon' is not a time in seconds\n  node-0/rank-0,compute,0,soon\n",
        refused.err());
    Result unknown = ocelotl("info", TRACE.toString(), "--format", "nope", "--workspace", tmp.resolve("ws").toString());
    assertTrue(unknown.err().contains("paje") && unknown.err().contains("spans"), unknown.err());
  }

  /** Ocelotl's own jar, run by java with this module's classes beside it: the way docs/plugins.md says. */
  @Test
  void aJarBesideOcelotlsJar() throws Exception {
    Path jar = Path.of("../ocelotl-app/target/ocelotl.jar");
    Assumptions.assumeTrue(Files.isRegularFile(jar), jar + " is not built: it is made by 'mvn package' (or verify)"
        + " before this module's tests");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", jar + java.io.File.pathSeparator + "target/classes", "org.ocelotl.app.Main",
        "info", TRACE.toString(), "--workspace", tmp.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "ocelotl info did not finish");
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("two-nodes.spans (spans, ") && output.contains("5 states, 1 events"), output);
  }
}
