package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;

/**
 * {@code ocelotl outliers} on the bundled perturbed SimGrid run (host lyon-c1-2 at 20% speed during
 * [3, 5) s, the nancy uplink at 0.2% during [8, 9) s): where the partition shown merges the slowed
 * host with the others, it is among the first producers listed, over its window.
 */
class OutliersCommandTest {
  @TempDir static Path tmp;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> outliers(String... options) {
    // 50 slices, the command line's default N when these expectations were worked out (the spec's
    // N = 100 lists lyon-c1-2's cabinet first and the host under it only past the first 40).
    List<String> args = new java.util.ArrayList<>(List.of("outliers", OverviewCommandTest.BUNDLED.toString(),
        "--workspace", tmp.resolve("ws").toString(), "--json", "--slices", "50"));
    args.addAll(List.of(options));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    return (Map<String, Object>) PlainJson.parse(result.out());
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> listed(Map<String, Object> answer) {
    return (List<Map<String, Object>>) answer.get("outliers");
  }

  private static double number(Map<String, Object> map, String key) {
    return ((Number) map.get(key)).doubleValue();
  }

  /**
   * At p = 0.1 (two parts) and 0.3 (one part) every producer is merged over [3, 5) s: the slowed
   * host, or the cabinet it makes wait, is among the first three producer cells (cells below the
   * part's own node), over a stretch within two slices of [3, 5) s; the host itself is listed, and
   * computing is its type, far above its share in the others over the same slices.
   */
  @Test
  void theSlowedHostIsAmongTheFirstWhereThePartitionMergesIt() {
    for (String p : List.of("0.1", "0.3")) {
      Map<String, Object> answer = outliers("--p", p, "--limit", "40");
      double slice = (number(answer, "end") - number(answer, "start")) / number(answer, "slices");
      assertTrue(number(answer, "partCount") <= 2, "p " + p + " merges every producer: " + answer.get("partCount"));
      List<Map<String, Object>> producers = listed(answer).stream()
          .filter(o -> number(o, "leaves") < number(answer, "leaves")).toList();
      boolean first = producers.subList(0, 3).stream().anyMatch(o -> "lyon/lyon-c1".equals(o.get("producer"))
          || "lyon/lyon-c1/lyon-c1-2".equals(o.get("producer")));
      assertTrue(first, "p " + p + ": lyon-c1-2 or its cabinet among the first three: " + producers.subList(0, 3));
      Map<String, Object> host = producers.stream().filter(o -> "lyon/lyon-c1/lyon-c1-2".equals(o.get("producer")))
          .findFirst().orElseThrow(() -> new AssertionError("p " + p + ": lyon-c1-2 listed: " + producers));
      assertTrue(Math.abs(number(host, "start") - 3) <= 2 * slice && Math.abs(number(host, "end") - 5) <= 2 * slice,
          "p " + p + ": over [3, 5) s within two slices (" + slice + " s): " + host);
      assertEquals("computing", host.get("type"));
      assertTrue(number(host, "cellShare") > 0.9 && number(host, "partShare") < 0.3, host.toString());
    }
  }

  @Test
  void theListIsRankedAndLimited() {
    Map<String, Object> answer = outliers("--limit", "5");
    List<Map<String, Object>> list = listed(answer);
    assertEquals(5, list.size());
    for (int k = 1; k < list.size(); k++) {
      assertTrue(number(list.get(k - 1), "score") >= number(list.get(k), "score"), "highest first: " + list);
    }
    assertTrue(number(answer, "count") >= number(answer, "hidden"), answer.toString());
    CliTest.Result bad = CliTest.run("outliers", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--limit", "0");
    assertEquals(new CliTest.Result(1, "", "ocelotl: --limit: expected 1 to 1000, found 0\n"), bad);
  }
}
