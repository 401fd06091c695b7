package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.testing.SharedTraces;

/**
 * {@code ocelotl treemap} on real traces. The bundled run slows host lyon-c1-2 to 20 % during
 * [3, 5) s: there its ranks compute while every other rank waits, so the spatial partition at
 * the default p must keep lyon-c1-2 apart, in mode computing, and aggregate the rest of lyon.
 */
class TreemapCommandTest {
  @TempDir Path tmp;

  @Test
  void theBundledPerturbationIsolatesLyonC12() throws Exception {
    Map<String, Object> treemap = treemap(OverviewCommandTest.BUNDLED, "--from", "3", "--to", "5");
    List<Map<String, Object>> cells = cells(treemap);
    List<Map<String, Object>> lyon = cells.stream()
        .filter(c -> ((String) c.get("path")).startsWith("lyon/") && !c.get("kind").equals("GROUP")).toList();
    Map<String, Object> perturbed = lyon.stream().filter(c -> ((String) c.get("path")).contains("lyon-c1-2"))
        .findFirst().orElseThrow(() -> new AssertionError("lyon-c1-2 is not drawn: " + lyon));
    assertEquals("lyon/lyon-c1/lyon-c1-2", perturbed.get("path"), "lyon-c1-2 is a node of its own");
    assertEquals("computing", type(treemap, perturbed));
    for (Map<String, Object> c : lyon) {
      if (c != perturbed) {
        assertEquals("AGGREGATE", c.get("kind"), c.get("path") + " aggregates");
        assertTrue(((Number) c.get("leaves")).intValue() >= 2, c.get("path") + " aggregates several ranks");
        assertFalse(type(treemap, c).equals("computing"), c.get("path") + " waits");
      }
    }
    int lyonLeaves = lyon.stream().mapToInt(c -> ((Number) c.get("leaves")).intValue()).sum();
    assertEquals(16, lyonLeaves, "lyon's 16 ranks are all drawn");
    BufferedImage png = ImageIO.read(tmp.resolve("t.png").toFile());
    assertEquals(1000 + 2 * 16 + 230, png.getWidth());
  }

  /**
   * s4u_mw_perturbed runs worker host lyon-c2-3 at 10 % speed during [300, 600) s: with the
   * variable mean of speed_used, the spatial partition at the default p keeps it as a node of
   * its own, drawn at about a tenth of its neighbours' area, while the other sites aggregate.
   */
  @Test
  void theSlowS4uHostStandsOut() throws Exception {
    Map<String, Object> answer = treemap(SharedTraces.file("paje/simgrid/s4u_mw_perturbed.trace"),
        "--metric", "variable-mean", "--types", "speed_used", "--from", "300", "--to", "600");
    List<Map<String, Object>> shown = cells(answer).stream().filter(c -> !c.get("kind").equals("GROUP")).toList();
    Map<String, Object> slow = shown.stream().filter(c -> c.get("path").equals("lyon/lyon-c2/lyon-c2-3")).findFirst()
        .orElseThrow(() -> new AssertionError("lyon-c2-3 is not a node of its own: " + shown));
    double others = shown.stream().filter(c -> ((String) c.get("path")).startsWith("lyon/lyon-c2/") && c != slow)
        .mapToDouble(c -> ((Number) c.get("value")).doubleValue()).average().orElseThrow();
    double value = ((Number) slow.get("value")).doubleValue();
    assertTrue(value < 0.1 * others, "lyon-c2-3: " + value + " against " + others + " for its neighbours");
    for (String site : List.of("rennes", "nancy", "grenoble")) {
      assertTrue(shown.stream().anyMatch(c -> c.get("path").equals(site) && c.get("kind").equals("AGGREGATE")),
          site + " aggregates");
    }
  }

  @Test
  void aFlatTraceGetsAFlatTreemapAndANote() throws Exception {
    Path json = tmp.resolve("t.json");
    CliTest.Result result = CliTest.run("treemap", SharedTraces.file("paje/simgrid/smpi_small_flat.trace").toString(),
        "--workspace", tmp.resolve("ws").toString(), "--out", tmp.resolve("t.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    assertTrue(result.out().startsWith("note: the trace has no hierarchy above its producers: the treemap is flat\n"),
        result.out());
    Map<String, Object> treemap = OverviewCommandTest.asMap(OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)))
        .get("treemap"));
    List<Map<String, Object>> cells = cells(Map.of("treemap", treemap));
    assertEquals(17, cells.size());
    assertTrue(cells.stream().skip(1).allMatch(c -> c.get("kind").equals("PRODUCER")), "16 ranks under the root");
    var svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(tmp.resolve("t.svg").toFile());
    assertEquals(16, svg.getElementsByTagName("title").getLength(), "one tooltip per rank");
  }

  @Test
  void aCutAtDepthOneShowsTheSites() throws Exception {
    Map<String, Object> treemap = treemap(OverviewCommandTest.BUNDLED, "--cut-depth", "1", "--step", "3");
    List<String> shown = cells(treemap).stream().filter(c -> c.get("kind").equals("AGGREGATE"))
        .map(c -> (String) c.get("path")).sorted().toList();
    assertEquals(List.of("grenoble", "lyon", "nancy", "rennes"), shown);
    Map<String, Object> t = OverviewCommandTest.asMap(treemap.get("treemap"));
    assertEquals(3, ((Number) t.get("firstSlice")).intValue());
    assertEquals(3, ((Number) t.get("lastSlice")).intValue());
  }

  /**
   * Cut at the cabinets, at step 5 of 20 ([3.39, 4.07) s): the cabinets hide 60 departing nodes,
   * 27 of them worth telling apart at the default p; first, lyon-c1-2 in lyon-c1, computing while
   * its cabinet waits in PMPI_Waitall (1.7 % of its time against 58.6 %).
   */
  @Test
  void whatTheCabinetsHide() throws Exception {
    Map<String, Object> t = OverviewCommandTest.asMap(treemap(OverviewCommandTest.BUNDLED, "--cut-depth", "2", "--step", "5")
        .get("treemap"));
    assertHidesLyonC12(OverviewCommandTest.asMap(t.get("hiddenNodes")));
  }

  /** The hidden nodes of the bundled trace's cabinets at step 5 of 20 (treemap and topology graph alike). */
  @SuppressWarnings("unchecked")
  static void assertHidesLyonC12(Map<String, Object> hidden) {
    assertEquals(List.of(60, 27), List.of(((Number) hidden.get("count")).intValue(), ((Number) hidden.get("hidden")).intValue()));
    List<Map<String, Object>> listed = (List<Map<String, Object>>) hidden.get("outliers");
    assertEquals(10, listed.size());
    Map<String, Object> first = listed.get(0);
    assertEquals(List.of("lyon/lyon-c1/lyon-c1-2", "lyon/lyon-c1", "PMPI_Waitall"),
        List.of(first.get("producer"), first.get("aggregate"), first.get("type")));
    double[] expected = {3.39009675, 4.0681161, 2.236008226448078, 0.5081261618362165, 0.017055560434964506, 0.5864455877992274};
    String[] keys = {"start", "end", "score", "worthUpTo", "cellShare", "partShare"};
    for (int k = 0; k < keys.length; k++) {
      assertEquals(expected[k], ((Number) first.get(keys[k])).doubleValue(), 1e-9 * Math.max(1, expected[k]), keys[k]);
    }
    assertEquals(List.of("nancy/nancy-c2/nancy-c2-4/rank-31", "nancy/nancy-c2/nancy-c2-1/rank-24"),
        listed.subList(1, 3).stream().map(o -> o.get("producer")).toList());
  }

  @Test
  void badStepsAndDepthsAreOneLineErrors() {
    CliTest.Result step = CliTest.run("treemap", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("t.svg").toString(), "--step", "20");
    assertEquals(1, step.status());
    assertEquals("ocelotl: the time step must be a slice in [0, 19], got 20\n", step.err());
    CliTest.Result depth = CliTest.run("treemap", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("t.svg").toString(), "--cut-depth", "-3");
    assertEquals(1, depth.status());
    assertEquals("ocelotl: --cut: expected 0 to 1000 or p, found -3\n", depth.err());
  }

  /**
   * The bundled run's bandwidths (variable mean) over [4, 6) s: at the default p (0) the 20
   * shown nodes are drawn, none hatched; past the one breakpoint (p = 0.165) the root is the
   * one part, named "all producers" with its 44 links (it was "0", the Pajé root's raw id).
   */
  @Test
  void aVariableMeanTreemapOfBandwidthsNamesItsRoot() throws Exception {
    Map<String, Object> answer = treemap(OverviewCommandTest.BUNDLED, "--metric", "variable-mean", "--types",
        "bandwidth", "--from", "4", "--to", "6");
    assertEquals(20, ((List<?>) OverviewCommandTest.asMap(answer.get("treemap")).get("cut")).size());
    assertFalse(cells(answer).stream().anyMatch(c -> "VISUAL".equals(c.get("kind"))));
    Map<String, Object> whole = treemap(OverviewCommandTest.BUNDLED, "--metric", "variable-mean", "--types",
        "bandwidth", "--from", "4", "--to", "6", "--p", "0.5");
    assertEquals(1, cells(whole).size());
    Map<String, Object> root = cells(whole).get(0);
    assertEquals("all producers", root.get("name"));
    assertEquals("AGGREGATE", root.get("kind"));
    assertEquals(44, ((Number) root.get("leaves")).intValue());
    assertEquals(379.25e9, ((Number) root.get("value")).doubleValue(), 1e-3);
  }

  private Map<String, Object> treemap(Path trace, String... options) throws IOException {
    Path json = tmp.resolve("t.json");
    List<String> args = new java.util.ArrayList<>(List.of("treemap", trace.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("t.png").toString(), "--json", json.toString()));
    args.addAll(List.of(options));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    return OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)));
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> cells(Map<String, Object> answer) {
    return (List<Map<String, Object>>) OverviewCommandTest.asMap(answer.get("treemap")).get("cells");
  }

  @SuppressWarnings("unchecked")
  static String type(Map<String, Object> answer, Map<String, Object> cell) {
    return ((List<String>) answer.get("types")).get(((Number) cell.get("mode")).intValue());
  }
}
