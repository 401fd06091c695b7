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

  /**
   * The rows are named under a bracket per level of the hierarchy, each group's name (written
   * upright, rotated) centred on its rows: lyon-c1-2 between its ranks 34 and 35.
   */
  @Test
  void theRowsAreNamedUnderTheirHostClusterAndSite() throws IOException {
    Path svg = tmp.resolve("g.svg");
    CliTest.Result result = CliTest.run("gantt", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--from", "3", "--to", "5", "--producers", "lyon-c1", "--out", svg.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Double> groups = new java.util.LinkedHashMap<>();
    Map<String, Double> rows = new java.util.LinkedHashMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "<text (?:transform=\"translate\\([\\d.]+,([\\d.]+)\\) rotate\\(-90\\)\"|x=\"[\\d.]+\" y=\"([\\d.]+)\")"
            + "[^>]*>([^<]+)</text>")
        .matcher(Files.readString(svg));
    while (m.find()) {
      if (m.group(1) != null) {
        groups.put(m.group(3), Double.parseDouble(m.group(1)));
      } else if (m.group(3).startsWith("rank-")) {
        rows.put(m.group(3), Double.parseDouble(m.group(2)));
      }
    }
    assertEquals(List.of("lyon", "lyon-c1", "lyon-c1-1", "lyon-c1-2", "lyon-c1-3", "lyon-c1-4"),
        List.copyOf(groups.keySet()));
    assertEquals(List.of("rank-32", "rank-33", "rank-34", "rank-35", "rank-36", "rank-37", "rank-38", "rank-39"),
        List.copyOf(rows.keySet()));
    double host = groups.get("lyon-c1-2");
    assertTrue(rows.get("rank-34") < host && host < rows.get("rank-35"), "lyon-c1-2 at " + host + ", its ranks at "
        + rows.get("rank-34") + " and " + rows.get("rank-35"));
    // A row's name is written on a baseline 4 px below the row's middle.
    assertEquals((rows.get("rank-32") + rows.get("rank-39")) / 2 - 4, groups.get("lyon-c1"), 0.5,
        "lyon-c1 centred on its rows");
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
