package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;

/** The Gantt chart behind the bundled trace's perturbation: lyon-c1-2's ranks compute through [3, 5) s. */
class GanttCommandTest {
  @TempDir Path tmp;

  @Test
  void theSlowHostsRanksComputeWhileTheOthersWait() throws IOException {
    Path json = tmp.resolve("g.json");
    CliTest.Result result = CliTest.run("gantt", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--from", "3", "--to", "5", "--producers", "lyon-c1", "--out",
        tmp.resolve("g.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    assertTrue(Files.readString(tmp.resolve("g.svg")).startsWith("<svg") || Files.readString(tmp.resolve("g.svg")).contains("<svg"));
    @SuppressWarnings("unchecked")
    Map<String, Object> gantt = (Map<String, Object>) PlainJson.parse(Files.readString(json));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> shapes = (List<Map<String, Object>>) gantt.get("shapes");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> legend = (List<Map<String, Object>>) gantt.get("legend");
    long computing = legend.stream().filter(e -> e.get("name").equals("computing")).map(e -> (Long) e.get("type"))
        .findFirst().orElseThrow();
    double slow = computingTime(shapes, computing, "rank-34");
    double other = computingTime(shapes, computing, "rank-38");
    assertTrue(slow > 2 * other, "rank-34 (lyon-c1-2) computes " + slow + " of the window, rank-38 " + other);
  }

  /** The width (in fractions of the window) of the computing marks of a rank's row. */
  private static double computingTime(List<Map<String, Object>> shapes, long type, String rank) {
    double total = 0;
    for (Map<String, Object> s : shapes) {
      if (((Long) s.get("type")) == type && ((String) s.get("producer")).endsWith(rank)
          && List.of("state", "summary").contains(s.get("kind"))) {
        total += ((Double) s.get("x1") - (Double) s.get("x0")) * (Double) s.get("opacity");
      }
    }
    return total;
  }

  @Test
  void badInputIsOneLine() {
    CliTest.Result unknown = CliTest.run("gantt", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--producers", "nope", "--out", tmp.resolve("x.svg").toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: unknown producer 'nope'\n"), unknown);
    CliTest.Result reversed = CliTest.run("gantt", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--from", "5", "--to", "3", "--out", tmp.resolve("x.svg").toString());
    assertEquals(1, reversed.status());
    assertTrue(reversed.err().startsWith("ocelotl: the window needs from < to"), reversed.err());
    assertTrue(Files.notExists(tmp.resolve("x.svg")));
  }
}
