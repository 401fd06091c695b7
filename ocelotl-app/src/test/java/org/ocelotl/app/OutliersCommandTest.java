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
    // 50 slices, the command line's default N when these expectations were worked out.
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
   * host is the first producer cell (a cell below the part's own node, kind "who"), over a stretch
   * within two slices of [3, 5) s, and computing is its type, far above its share in the others
   * over the same slices.
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
      // The two lists in one: the whole run's stretches are "when", the producer cells "who", and
      // the host is the first "who" (it explains its cabinet's departure, decision 052).
      for (Map<String, Object> o : listed(answer)) {
        assertEquals(number(o, "leaves") < number(answer, "leaves") ? "who" : "when", o.get("kind"), o.toString());
      }
      assertEquals(host, listed(answer).stream().filter(o -> "who".equals(o.get("kind")) && !o.containsKey("link"))
          .findFirst().orElseThrow(), "p " + p + ": the first producer cell of the states");
    }
  }

  /** One listed cell as the JSON gives it: its rank (1-based), producer, slices, score, type and shares. */
  private record Row(int rank, String producer, int first, int last, double score, String type, double cellShare,
      double partShare) {}

  /** The rows at their ranks, exactly (scores to 1e-9 of their value: sums in another order). */
  private static void assertRows(List<Row> expected, List<Map<String, Object>> listed, String where) {
    for (Row e : expected) {
      Map<String, Object> o = listed.get(e.rank() - 1);
      String at = where + " rank " + e.rank() + ": " + o;
      assertEquals(List.of(e.producer(), e.first(), e.last(), e.type()),
          List.of(o.get("producer"), (int) number(o, "firstSlice"), (int) number(o, "lastSlice"), o.get("type")), at);
      assertEquals(e.score(), number(o, "score"), 1e-9 * e.score(), at);
      assertEquals(e.cellShare(), number(o, "cellShare"), 1e-12, at);
      assertEquals(e.partShare(), number(o, "partShare"), 1e-12, at);
    }
  }

  /** The rank (1-based) of the first nancy cell over at most 2 s that meets [8, 9) s. */
  private static int firstNancyIn8To9(List<Map<String, Object>> listed) {
    for (int k = 0; k < listed.size(); k++) {
      Map<String, Object> o = listed.get(k);
      if (((String) o.get("producer")).startsWith("nancy") && number(o, "start") < 9 && number(o, "end") > 8
          && number(o, "end") - number(o, "start") <= 2) {
        return k + 1;
      }
    }
    return -1;
  }

  /**
   * Where the partition merges every producer (spatiotemporal, p = 0.1: two parts; p = 0.3: one),
   * the list as shown (decision 061): first the nancy ranks over [8.14, 8.68) s (slices 30–31),
   * found by nancy-uplink's use (the states' largest hidden departure is a stretch of every
   * producer, and the uplink is busier there than the other links and than itself elsewhere); then
   * the producer cells (who), lyon-c1-2 over [2.98, 5.15) s first, computing 94 % of the time
   * against 25 % for the other ranks — listed in its cabinet's place, which it explains (decision
   * 052); then, after the first 100 who, the stretches of every producer (when): [3.53, 5.15) s
   * (slices 13–18), the run waiting in PMPI_Allreduce while lyon-c1-2 computes, and [8.14, 8.68) s,
   * the run waiting behind the nancy uplink. By the states alone nancy is not told apart: its ranks
   * spend 48 % of the window in PMPI_Waitall against 16 to 34 % for the other sites (StatsTest),
   * and their first producer cell meeting [8, 9) s is the 47th or 49th who (a nancy-c1-2 rank over
   * slice 30). Pinned as found.
   */
  @Test
  void whereThePartitionMergesEveryProducerTheLinksNameNancyAndLyonC12IsTheFirstWho() {
    Map<String, List<Row>> expected = Map.of(
        "0.1", List.of(
            new Row(2, "lyon/lyon-c1/lyon-c1-2", 11, 18, 7.091943055981681, "computing", 0.9351740201072434,
                0.24861444916957404),
            new Row(48, "nancy/nancy-c1/nancy-c1-2/rank-18", 30, 30, 0.42593690316484994, "PMPI_Allreduce",
                0.03917638928741342, 0.7186972152785903),
            new Row(102, "0", 13, 18, 47.88986053169549, "PMPI_Allreduce", 0.628513981992488, 0.2776997644153043),
            new Row(103, "0", 30, 31, 19.796674562361012, "PMPI_Allreduce", 0.6868281234340862,
                0.2776997644153043)),
        "0.3", List.of(
            new Row(2, "lyon/lyon-c1/lyon-c1-2", 11, 18, 7.091943055981673, "computing", 0.9351740201072437,
                0.24861444916957398),
            new Row(50, "nancy/nancy-c1/nancy-c1-2/rank-18", 30, 30, 0.42593690316484994, "PMPI_Allreduce",
                0.03917638928741342, 0.7186972152785903),
            new Row(102, "0", 13, 18, 49.63024185779028, "PMPI_Allreduce", 0.628513981992488, 0.2721420119748121),
            new Row(103, "0", 30, 31, 20.422806665031565, "PMPI_Allreduce", 0.6868281234340862, 0.2721420119748121),
            new Row(104, "0", 0, 0, 13.212001471412997, "PMPI_Allreduce", 0.0, 0.2721420119748121)));
    for (String p : List.of("0.1", "0.3")) {
      Map<String, Object> answer = outliers("--p", p, "--limit", "100");
      List<Map<String, Object>> listed = listed(answer);
      Map<String, Object> first = listed.get(0);
      assertEquals(List.of("nancy", "nancy-uplink", "who", 30, 31), List.of(first.get("producer"), first.get("link"),
          first.get("kind"), (int) number(first, "firstSlice"), (int) number(first, "lastSlice")), "p " + p);
      assertEquals(0.6222734991515078, number(first, "score"), 1e-9, "p " + p);
      assertTrue(number(first, "use") > number(first, "othersUse") && number(first, "use") > number(first,
          "useElsewhere"), first.toString());
      assertRows(expected.get(p), listed, "p " + p);
      assertEquals(1, firstNancyIn8To9(listed), "p " + p + ": the first nancy cell meeting [8, 9) s");
    }
  }

  /**
   * The temporal overview at its default p (16 phases, each over every producer): lyon-c1 over
   * [3.80, 4.07) s first (in PMPI_Waitall 55 % of the time, the phase 9 %), and over [8.95, 9.22) s, the last
   * slice of the slow uplink, grenoble third and nancy fifth (nancy still in PMPI_Allreduce, 14 %
   * of its time against 56 % for the phase); lyon-c1-2 itself is seventh, computing over [3.53,
   * 3.80) s.
   */
  @Test
  void inTheTemporalOverviewLyonC1AndNancyComeAmongTheFirstFive() {
    Map<String, Object> answer = outliers("--aggregation", "temporal", "--limit", "100");
    assertEquals(List.of(16, 709, 110), List.of((int) number(answer, "partCount"), (int) number(answer, "count"),
        (int) number(answer, "hidden")));
    List<Map<String, Object>> listed = listed(answer);
    assertRows(List.of(
        new Row(1, "lyon/lyon-c1", 14, 14, 6.251002492488446, "PMPI_Waitall", 0.5544651675501587, 0.09355158659926151),
        new Row(3, "grenoble", 33, 33, 4.014022825498662, "PMPI_Waitall", 0.001198841154016718, 0.26977031518348277),
        new Row(5, "nancy", 33, 33, 3.100391469020101, "PMPI_Allreduce", 0.14370370661250323, 0.5594077025604065),
        new Row(7, "lyon/lyon-c1/lyon-c1-2", 13, 13, 1.5746178872332375, "computing", 0.9786805494562935,
            0.1329645841781651)), listed, "temporal");
    assertEquals(5, firstNancyIn8To9(listed));
  }

  /** The first {@code --limit} of each kind, who then when, each highest first; led by the link's site here. */
  @Test
  void theListIsRankedAndLimited() {
    Map<String, Object> answer = outliers("--limit", "5");
    List<Map<String, Object>> list = listed(answer);
    assertEquals(List.of("who", "who", "who", "who", "who", "who", "when", "when", "when", "when", "when"),
        list.stream().map(o -> o.get("kind")).toList());
    assertEquals("nancy-uplink", list.get(0).get("link"));
    for (int k = 2; k < list.size(); k++) {
      if (k != 6) {
        assertTrue(number(list.get(k - 1), "score") >= number(list.get(k), "score"), "highest first: " + list);
      }
    }
    assertTrue(number(answer, "count") >= number(answer, "hidden"), answer.toString());
    CliTest.Result bad = CliTest.run("outliers", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--limit", "0");
    assertEquals(new CliTest.Result(1, "", "ocelotl: --limit: expected 1 to 1000, found 0\n"), bad);
  }
}
