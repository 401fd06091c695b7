package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.testing.SharedTraces;

/**
 * The overview of the bundled perturbed SimGrid run (host lyon-c1-2 at 20% speed during
 * [3,5) s, the nancy uplink at 0.2% during [8,9) s) must show both perturbations.
 */
class OverviewCommandTest {
  static final Path BUNDLED = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz").normalize();

  @TempDir static Path tmp;
  static Map<String, Object> overview;

  @BeforeAll
  static void drawTheDefaultOverview() throws IOException {
    Path json = tmp.resolve("overview.json");
    // 50 slices: the N these perturbation checks were written for (the default is 100 since decision 031).
    CliTest.Result result = CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--slices", "50", "--out", tmp.resolve("overview.png").toString(), "--json", json.toString(), "--csv",
        tmp.resolve("bp.csv").toString());
    assertEquals(0, result.status(), result.err());
    overview = asMap(PlainJson.parse(Files.readString(json)));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object json) {
    return (Map<String, Object>) json;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> parts() {
    return (List<Map<String, Object>>) overview.get("parts");
  }

  static double number(Map<String, Object> map, String key) {
    return ((Number) map.get(key)).doubleValue();
  }

  /** Instants where every producer's partition is cut: the phases the analyst sees. */
  static TreeSet<Double> cutsAcrossAllProducers() {
    List<Double> starts = new ArrayList<>();
    for (Map<String, Object> part : parts()) {
      starts.add(number(part, "start"));
    }
    TreeSet<Double> cuts = new TreeSet<>();
    for (double t : new TreeSet<>(starts)) {
      boolean everywhere = parts().stream().noneMatch(p -> number(p, "start") < t && number(p, "end") > t);
      if (everywhere && t > 0) {
        cuts.add(t);
      }
    }
    return cuts;
  }

  /**
   * A trace without states opens, as on the page, on the first metric it has records for (links
   * only: link-count; variables only: variable-mean); a metric named explicitly is still refused
   * when the trace has nothing it reads.
   */
  @Test
  void aTraceWithoutStatesOpensOnTheFirstMetricItHas() throws IOException {
    for (String[] trace : new String[][] {{"links.trace", "link-count"}, {"variables.trace", "variable-mean"}}) {
      Path json = tmp.resolve(trace[0] + ".json");
      String file = SharedTraces.file("paje/pajeng/" + trace[0]).toString();
      CliTest.Result result = CliTest.run("overview", file, "--workspace", tmp.resolve("ws").toString(),
          "--out", tmp.resolve(trace[0] + ".svg").toString(), "--json", json.toString());
      assertEquals(0, result.status(), result.err());
      assertEquals(trace[1], asMap(PlainJson.parse(Files.readString(json))).get("metric"), trace[0]);
      CliTest.Result named = CliTest.run("overview", file, "--workspace", tmp.resolve("ws").toString(),
          "--metric", "state-duration", "--out", tmp.resolve(trace[0] + "-named.svg").toString());
      assertEquals(new CliTest.Result(1, "", "ocelotl: the trace " + trace[0]
          + " has no states: the state-duration metric needs them\n"), named);
    }
  }

  @Test
  void bothPerturbationsAreCutInTime() {
    double slice = (number(overview, "end") - number(overview, "start")) / number(overview, "slices");
    TreeSet<Double> cuts = cutsAcrossAllProducers();
    for (double t : new double[] {3.0, 5.0, 8.0, 9.0}) {
      Double nearest = cuts.floor(t + slice) != null && cuts.floor(t + slice) >= t - slice ? cuts.floor(t + slice) : null;
      assertTrue(nearest != null, "a cut across all producers within one slice (" + slice + " s) of " + t + " s; cuts: " + cuts);
    }
  }

  @Test
  void theSlowHostStandsOutDuringItsPerturbation() {
    // lyon-c1-2 computes (slowly) while the other hosts wait for it.
    boolean slowHostComputes = parts().stream().anyMatch(p -> String.valueOf(p.get("producer")).startsWith("lyon-c1-2")
        && number(p, "start") >= 3.0 - 0.5 && number(p, "end") <= 5.5 && "computing".equals(p.get("mode")));
    long othersWaiting = parts().stream().filter(p -> !String.valueOf(p.get("producer")).startsWith("lyon-c1-2")
        && number(p, "start") >= 3.5 && number(p, "end") <= 5.2 && !"computing".equals(p.get("mode"))).count();
    assertTrue(slowHostComputes, "a part of lyon-c1-2 in mode computing during [3,5) s");
    assertTrue(othersWaiting > 0, "other producers are in MPI states meanwhile");
  }

  /**
   * The S4U master/workers run: worker host lyon-c2-3 at 10% speed during [300,600) s, seen in
   * the hosts' speed_used variable, not in states.
   */
  @Test
  void theSlowedWorkerStandsOutInTheVariableOverview() throws IOException {
    Path json = tmp.resolve("s4u.json");
    CliTest.Result result = CliTest.run("overview", SharedTraces.file("paje/simgrid/s4u_mw_perturbed.trace").toString(),
        "--workspace", tmp.resolve("ws").toString(), "--metric", "variable-mean", "--types", "speed_used",
        "--out", tmp.resolve("s4u.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Object> s4u = asMap(PlainJson.parse(Files.readString(json)));
    List<Map<String, Object>> parts = asParts(s4u.get("parts"));
    double slice = (number(s4u, "end") - number(s4u, "start")) / number(s4u, "slices");
    assertTrue(parts.stream().noneMatch(p -> String.valueOf(p.get("producer")).endsWith("-nic")),
        "network links hold no speed_used: they are not drawn");
    // The slowed host is a part of its own, alone in its interval, that starts and ends near the perturbation.
    List<Map<String, Object>> slowed = parts.stream()
        .filter(p -> "lyon-c2-3".equals(p.get("producer")) && number(p, "start") < 450 && number(p, "end") > 450).toList();
    assertEquals(1, slowed.size(), "one part of lyon-c2-3 around 450 s");
    Map<String, Object> part = slowed.get(0);
    assertTrue(Math.abs(number(part, "start") - 300) <= slice, "starts within a slice of 300 s: " + part);
    double end = parts.stream().filter(p -> "lyon-c2-3".equals(p.get("producer")) && number(p, "start") >= number(part, "start")
        && number(p, "end") <= 600 + slice).mapToDouble(p -> number(p, "end")).max().orElseThrow();
    assertTrue(Math.abs(end - 600) <= slice, "its low-speed parts end within a slice of 600 s, at " + end);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> asParts(Object json) {
    return (List<Map<String, Object>>) json;
  }

  @Test
  void picturesAndTablesAreWritten() throws IOException {
    BufferedImage png = ImageIO.read(tmp.resolve("overview.png").toFile());
    assertEquals(1400, png.getWidth());
    assertEquals(900, png.getHeight());
    List<String> csv = Files.readAllLines(tmp.resolve("bp.csv"));
    assertEquals("p,part_count,gain,loss,gain_fraction,loss_fraction", csv.get(0));
    assertEquals(((List<?>) overview.get("breakpoints")).size() + 1, csv.size());
    assertEquals(0.0, Double.parseDouble(csv.get(1).split(",")[0]));
    assertTrue((Boolean) overview.get("exact"));
  }

  @Test
  void theVariableMeanOfTheBundledTraceIsDrawn() throws IOException {
    // SimGrid builds bandwidth_used by additions and subtractions: its residues below zero
    // (−1.04e-7 on rennes-c1-1-nic) are rounding, not values, and must not stop the overview.
    Path json = tmp.resolve("variables.json");
    CliTest.Result result = CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--metric", "variable-mean", "--mode", "temporal", "--slices", "100", "--out", tmp.resolve("v.svg").toString(),
        "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Object> variables = asMap(PlainJson.parse(Files.readString(json)));
    assertEquals("variable-mean", variables.get("metric"));
    // Variables have units of their own: one at a time, the one that varies most unless the filter
    // says (DefaultVariableTest), and its name stands for the unit the trace does not give.
    assertEquals(List.of("bandwidth"), variables.get("types"));
    assertEquals("bandwidth", variables.get("valueUnit"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> legend = (List<Map<String, Object>>) ((Map<String, Object>) variables.get("overview")).get("legend");
    assertTrue(!legend.get(0).get("colour").equals("#808080"), "SimGrid's grey is kept for visual aggregates");
    CliTest.Result two = CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--metric", "variable-mean", "--types", "speed_used,bandwidth_used", "--out", tmp.resolve("v2.svg").toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: the variable mean shows one variable at a time (their units differ); "
        + "the type filter keeps 2: speed_used, bandwidth_used; keep one\n"), two);
  }

  @Test
  void aWideTraceShowsItsStructureAtAnAutomaticDepth() throws IOException {
    // Node's trace: 1 process, 13 threads and 1,895 async lanes; all levels at once collapse into
    // one crossed block in 600 pixels. Automatically cut, its threads and lane groups are rows:
    // by default, as the page draws it (issue 33 item 10).
    Path trace = SharedTraces.file("chrome/node_trace.json");
    Path json = tmp.resolve("wide.json");
    CliTest.Result result = CliTest.run("overview", trace.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--slices", "20", "--out", tmp.resolve("wide.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Object> wide = asMap(PlainJson.parse(Files.readString(json)));
    long depth = (Long) wide.get("producerDepth");
    long leaves = (Long) wide.get("leaves");
    assertTrue(depth > 0, "cut at depth " + depth);
    assertTrue(leaves > 10 && leaves <= 150, leaves + " leaves: more than one block, fewer than 600 / 4 rows");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> axis = (List<Map<String, Object>>) ((Map<String, Object>) wide.get("overview")).get("producers");
    assertTrue(axis.stream().filter(a -> Boolean.TRUE.equals(a.get("row"))).count() > 10, "rows drawn: " + axis.size());
    assertTrue(Files.readString(tmp.resolve("wide.svg")).contains("producers cut at depth " + depth), "the caption says so");
    CliTest.Result every = CliTest.run("overview", trace.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--slices", "20", "--depth", "0", "--mode", "temporal", "--out", tmp.resolve("every.svg").toString(),
        "--json", json.toString());
    assertEquals(0, every.status(), every.err());
    assertEquals(0L, asMap(PlainJson.parse(Files.readString(json))).get("producerDepth"));
    assertTrue((Long) asMap(PlainJson.parse(Files.readString(json))).get("leaves") > 1000, "depth 0 keeps every level");
  }

  @Test
  void timeAxesStartAtZeroInAReadableUnit() throws IOException {
    // The Chrome sample's times are µs since boot (927,200,000 …) and the OTF2 sample's ns:
    // the axis must read seconds since the trace's start.
    for (String trace : List.of("chrome/node_trace.json", "otf2/ez_mpi4/eztrace_log.otf2")) {
      Path svg = tmp.resolve(trace.replace('/', '_') + ".svg");
      CliTest.Result result = CliTest.run("overview", SharedTraces.file(trace).toString(), "--workspace",
          tmp.resolve("ws").toString(), "--mode", "temporal", "--out", svg.toString());
      assertEquals(0, result.status(), result.err());
      String text = Files.readString(svg);
      assertTrue(text.contains(">time since the trace's start (s)<") || text.contains(">time since the trace's start (ms)<"),
          trace + ": the axis names its unit");
      assertTrue(text.contains(">0<"), trace + ": the first tick is 0");
      assertTrue(text.contains("since the start"), trace + ": the caption's window is relative");
    }
  }

  @Test
  void theSameRequestGivesTheSameAnswerWhateverTheCacheHolds() throws IOException {
    // Issue 18: a view came back approximate or exact depending on the models cached before.
    String trace = SharedTraces.file("paje/simgrid/smpi_small_flat.trace").toString();
    Path warm = tmp.resolve("warm.json");
    Path cold = tmp.resolve("cold.json");
    for (String slices : List.of("1000", "97")) { // a finer model first, then one it could be split into
      assertEquals(0, CliTest.run("overview", trace, "--workspace", tmp.resolve("warm").toString(), "--mode", "temporal",
          "--slices", slices, "--out", tmp.resolve("w.svg").toString(), "--json", warm.toString()).status());
    }
    assertEquals(0, CliTest.run("overview", trace, "--workspace", tmp.resolve("cold").toString(), "--mode", "temporal",
        "--slices", "97", "--out", tmp.resolve("c.svg").toString(), "--json", cold.toString()).status());
    Map<String, Object> warmJson = asMap(PlainJson.parse(Files.readString(warm)));
    assertEquals(true, warmJson.get("exact"));
    warmJson.remove("trace"); // the store's path differs between the two workspaces, nothing else
    Map<String, Object> coldJson = asMap(PlainJson.parse(Files.readString(cold)));
    coldJson.remove("trace");
    assertEquals(coldJson, warmJson);
  }

  @Test
  void badParametersGetOneLineAndStatusOne() {
    CliTest.Result badP = CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--p", "1.5", "--out", tmp.resolve("x.png").toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: --p: expected a number in [0, 1] or auto, found 1.5\n"), badP);
    CliTest.Result badView = CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--mode", "spatiotemporal", "--view", "stacked", "--out", tmp.resolve("x.png").toString());
    assertEquals(1, badView.status());
    assertEquals("ocelotl: --view: no view 'stacked' for aggregation 'spatiotemporal'; temporal has partition, stacked, mode; "
        + "spatiotemporal has partition, mode\n", badView.err());
    assertTrue(Files.notExists(tmp.resolve("x.png")));
  }

  @Test
  void aModelFileIsOneInputAndTakesNoBuildingOptions() throws IOException {
    Path model = Files.writeString(tmp.resolve("one.csv"), "producer,slice,type,value\na,0,u,1\n");
    String out = tmp.resolve("m.svg").toString();
    assertEquals(new CliTest.Result(1, "", "ocelotl: overview takes a TRACE or --model FILE (one of the two)\n"),
        CliTest.run("overview", BUNDLED.toString(), "--model", model.toString(), "--out", out));
    assertEquals(new CliTest.Result(1, "", "ocelotl: overview takes a TRACE or --model FILE (one of the two)\n"),
        CliTest.run("overview", "--out", out));
    assertEquals(new CliTest.Result(1, "", "ocelotl: --metric chooses how a trace's model is built; it has no meaning "
        + "with --model\n"), CliTest.run("overview", "--model", model.toString(), "--metric", "event-count", "--out", out));
    assertEquals(new CliTest.Result(1, "", "ocelotl: --tree goes with --model\n"),
        CliTest.run("overview", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(), "--tree",
            model.toString(), "--out", out));
    assertTrue(Files.notExists(tmp.resolve("m.svg")));
    CliTest.Result drawn = CliTest.run("overview", "--model", model.toString(), "--mode", "temporal", "--out", out);
    assertEquals(new CliTest.Result(0, "model: p = 0.00000, 1 parts of 1 breakpoints, exact model → " + out + "\n", ""), drawn);
  }

  /** --from/--to with --model: a window of its slices, drawn and written on the model's slice numbers. */
  @Test
  void aModelFilesWindowIsWholeSlices() throws IOException {
    Path model = Files.writeString(tmp.resolve("three.csv"), "producer,slice,type,value\na,0,u,1\na,1,u,1\na,2,v,3\n");
    Path svg = tmp.resolve("w.svg");
    Path json = tmp.resolve("w.json");
    CliTest.Result drawn = CliTest.run("overview", "--model", model.toString(), "--mode", "temporal", "--from", "1",
        "--to", "3", "--out", svg.toString(), "--json", json.toString());
    assertEquals(0, drawn.status(), drawn.err());
    Map<?, ?> answer = (Map<?, ?>) PlainJson.parse(Files.readString(json));
    assertEquals(List.of(1.0, 3.0, 2L, 2L), List.of(answer.get("start"), answer.get("end"), answer.get("slices"),
        answer.get("partCount")));
    assertTrue(Files.readString(svg).contains("window [1, 3) slice"), "the caption names the window");
    Path refused = tmp.resolve("refused.svg");
    assertEquals(new CliTest.Result(1, "", "ocelotl: the window [2, 1) holds no slice: its start must be below its end\n"),
        CliTest.run("overview", "--model", model.toString(), "--from", "2", "--to", "1", "--out", refused.toString()));
    assertEquals(new CliTest.Result(1, "", "ocelotl: the window [0, 4) ends beyond the model: its end must be at most 3\n"),
        CliTest.run("overview", "--model", model.toString(), "--to", "4", "--out", refused.toString()));
    assertTrue(Files.notExists(refused));
  }
}
