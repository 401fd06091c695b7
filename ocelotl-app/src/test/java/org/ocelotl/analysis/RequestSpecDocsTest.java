package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The parameter tables of docs/cli.md and docs/api.md are the request spec's, word for word: each
 * doc holds the table between the markers {@value #BEGIN} and {@value #END}. After a change to the
 * spec, rewrite them with {@code -Docelotl.docs.update=true} on this test, and read the diff.
 */
class RequestSpecDocsTest {
  static final String BEGIN = "<!-- request-spec: generated from RequestSpec by RequestSpecDocsTest -->";
  static final String END = "<!-- /request-spec -->";
  static final Path DOCS = Path.of(System.getProperty("user.dir")).resolve("../docs").normalize();

  @ParameterizedTest
  @ValueSource(strings = {"cli.md", "api.md"})
  void theDocsHoldTheSpecsTable(String doc) throws IOException {
    Path file = DOCS.resolve(doc);
    String text = Files.readString(file);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertTrue(begin >= 0 && end > begin, doc + " lacks the markers " + BEGIN + " … " + END);
    String expected = BEGIN + "\n\n" + table() + "\n" + END;
    String found = text.substring(begin, end + END.length());
    if (Boolean.getBoolean("ocelotl.docs.update")) {
      Files.writeString(file, text.substring(0, begin) + expected + text.substring(end + END.length()));
      return;
    }
    assertEquals(expected, found, doc + ": rewrite its table with -Docelotl.docs.update=true");
  }

  /** Every parameter once, and no two parameters sharing a flag or a URL key. */
  @ParameterizedTest
  @ValueSource(strings = {"flags", "keys"})
  void noSpellingIsTwoParameters(String which) {
    Set<String> seen = new HashSet<>();
    for (Param p : RequestSpec.ALL) {
      for (String spelling : which.equals("flags") ? p.flags() : p.keys()) {
        assertTrue(seen.add(spelling), spelling + " names two parameters");
      }
    }
    for (Map.Entry<String, List<String>> request : RequestSpec.vocabulary().requests().entrySet()) {
      for (String name : request.getValue()) {
        assertTrue(RequestSpec.ALL.stream().anyMatch(p -> p.name().equals(name)), request.getKey() + ": " + name);
      }
    }
  }

  /** The table: one row per parameter, every spelling, what it takes, its default, its doc. */
  static String table() {
    StringBuilder md = new StringBuilder("| parameter | URL keys | command-line flags | takes | default | meaning |\n"
        + "|---|---|---|---|---|---|\n");
    for (Param p : RequestSpec.ALL) {
      md.append("| ").append(p.name()).append(" | ").append(code(p.keys())).append(" | ")
          .append(p.switchTo() != null ? code(p.flags()) + " (= " + p.switchTo() + ")" : code(p.flags())).append(" | ")
          .append(takes(p)).append(" | ").append(p.fallback() == null ? "" : "`" + p.fallback() + "`").append(" | ")
          .append(p.doc().replace("|", "\\|")).append(" |\n");
    }
    md.append("\nWhat each request takes (URL endpoint, and the command of the same name; `ocelotl overview` takes "
        + "`export`'s, spatiotemporal by default), with the defaults and ranges that are its own:\n\n");
    RequestSpec.REQUESTS.forEach((name, params) -> {
      List<String> items = new ArrayList<>();
      for (Param p : params) {
        Param base = RequestSpec.ALL.stream().filter(q -> q.name().equals(p.name())).findFirst().orElseThrow();
        String own = java.util.Objects.equals(p.fallback(), base.fallback()) ? "" : " = " + p.fallback();
        own += p.min() == base.min() && p.max() == base.max() ? "" : " (" + p.range() + ")";
        items.add(p.name() + own);
      }
      md.append("- `").append(name).append("`: ").append(String.join(", ", items)).append('\n');
    });
    return md.toString();
  }

  private static String takes(Param p) {
    String range = p.range();
    return switch (p.type()) {
      case LIST -> "names, `\\|`-separated in a URL, `,` on the command line";
      case TEXT -> "text";
      case NUMBER -> p.min() == -Double.MAX_VALUE ? "a number" : range;
      default -> range;
    };
  }

  private static String code(List<String> spellings) {
    List<String> quoted = new ArrayList<>();
    spellings.forEach(s -> quoted.add("`" + s + "`"));
    return String.join(", ", quoted);
  }
}
