package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;

/**
 * The utilization metric (use ÷ capacity per resource) finds the bundled run's link perturbation,
 * which the variable view (bandwidth_used) and the state views do not show: SimGrid's PF_UPLINK
 * holds the nancy site uplink at 0.2 % of its bandwidth (1.25e9 → 2.425e6 B/s) during [8, 9) s.
 */
class UtilizationTest {
  @TempDir Path tmp;

  /**
   * The links' model (100 slices of 0.1356 s): the most used link of any slice is nancy-uplink,
   * in slice 62 ([8.407, 8.543) s), at 0.2286 of its bandwidth; the next link anywhere reaches
   * 0.0406 (a NIC), a fifth of it.
   */
  @Test
  void theSlowedUplinkIsTheMostUsedLink() throws Exception {
    Path csv = tmp.resolve("m.csv");
    CliTest.Result result = CliTest.run("model", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--metric", "utilization", "--types", "bandwidth", "--slices", "100", "--out",
        csv.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, double[]> most = new HashMap<>(); // producer → {value, slice}
    for (String line : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
      String[] f = line.split(",");
      assertEquals("utilization", f[2]);
      double v = Double.parseDouble(f[3]);
      if (v > most.getOrDefault(f[0], new double[] {-1})[0]) {
        most.put(f[0], new double[] {v, Integer.parseInt(f[1])});
      }
    }
    List<Map.Entry<String, double[]>> ranked = new ArrayList<>(most.entrySet());
    ranked.sort((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0]));
    assertEquals("nancy-uplink", ranked.get(0).getKey());
    assertEquals(62, ranked.get(0).getValue()[1]);
    assertEquals(0.22864573663198945, ranked.get(0).getValue()[0], 1e-12);
    assertEquals(0.04062020013146158, ranked.get(1).getValue()[0], 1e-12);
  }

  /**
   * The spatiotemporal overview of the links' utilization at its default p: nancy-uplink's row is
   * one part from 0.136 s to 8.0 s, then cut slice by slice over [8, 9) s (slices 59 to 66), where
   * the picture shows its only dark cells.
   */
  @Test
  void theOverviewCutsTheUplinkWhereItIsSlowed() throws Exception {
    Path json = tmp.resolve("o.json");
    CliTest.Result result = CliTest.run("overview", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--metric", "utilization", "--types", "bandwidth", "--out",
        tmp.resolve("o.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Object> answer = OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)));
    assertEquals("utilization", answer.get("metric"));
    assertEquals("use / capacity", answer.get("valueUnit"));
    Map<String, List<String>> cuts = new HashMap<>();
    for (Object o : (List<?>) answer.get("parts")) {
      Map<String, Object> part = OverviewCommandTest.asMap(o);
      cuts.computeIfAbsent((String) part.get("producer"), k -> new ArrayList<>())
          .add(part.get("firstSlice") + "-" + part.get("lastSlice"));
    }
    assertEquals(List.of("0-0", "1-58", "59-59", "60-60", "61-61", "62-62", "63-63", "64-65", "66-99"),
        cuts.get("nancy-uplink"));
  }

  @Test
  void aTraceWithoutCapacitiesIsToldWhatIsNeeded() {
    CliTest.Result result = CliTest.run("overview", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--metric", "utilization", "--types", "latency", "--out",
        tmp.resolve("x.svg").toString());
    assertEquals(1, result.status());
    assertEquals("ocelotl: the utilization metric needs a capacity and its use (speed and speed_used, power and "
        + "power_used, bandwidth and bandwidth_used) among the types kept (latency); the trace smpi_perturbed.trace.gz "
        + "has the variables speed, core_count, speed_used, bandwidth, latency, bandwidth_used\n", result.err());
  }
}
