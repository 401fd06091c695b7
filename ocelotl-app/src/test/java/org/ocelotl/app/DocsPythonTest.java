package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.InstalledTools;

/**
 * docs/scale-out.md's pandas example runs: its {@code ocelotl sql … --csv > FILE} line, run here in
 * the JVM, then its Python block, run by Debian's python3 with pandas, print the output the page
 * shows after them, byte for byte.
 */
class DocsPythonTest {
  static final Path PAGE = Path.of("../docs/scale-out.md");
  /** The command line's block, the Python block, the output's block, one after the other. */
  static final Pattern EXAMPLE = Pattern.compile("```\\n\\./ocelotl sql (\\S+) --csv \"(.*?)\" > (\\S+)\\n```\\n\\n"
      + "```python\\n(.*?)```\\n\\n```\\n(.*?)```", Pattern.DOTALL);

  @TempDir Path tmp;

  @Test
  void thePandasExamplePrintsWhatThePageShows() throws IOException, InterruptedException {
    Path python = InstalledTools.executable("/usr/bin/python3", "python3");
    InstalledTools.require(pythonHas(python, "pandas"), "pandas for /usr/bin/python3 (Debian package python3-pandas)");
    Matcher m = EXAMPLE.matcher(Files.readString(PAGE));
    assertTrue(m.find(), "the example's three blocks are not in " + PAGE);
    CliTest.Result sql = CliTest.run("sql", "../" + m.group(1), "--csv", m.group(2), "--workspace",
        tmp.resolve("ws").toString());
    assertEquals(0, sql.status(), sql.err());
    Files.writeString(tmp.resolve(m.group(3)), sql.out());
    Files.writeString(tmp.resolve("example.py"), m.group(4));
    Process run = new ProcessBuilder(python.toString(), "example.py").directory(tmp.toFile())
        .redirectErrorStream(true).start();
    String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(run.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, run.exitValue(), out);
    assertEquals(m.group(5), out);
  }

  private static boolean pythonHas(Path python, String module) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(python.toString(), "-c", "import " + module).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
  }
}
