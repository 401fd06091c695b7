package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code ocelotl topology} on examples/topology.trace, SimGrid's platform tracing of
 * examples/gen/simgrid-topology/platform.xml: the graph is checked against the platform file
 * itself, read here with the JDK's XML parser.
 */
class TopologyCommandTest {
  static final Path EXAMPLES = OverviewCommandTest.BUNDLED.getParent();
  static final Path TRACE = EXAMPLES.resolve("topology.trace");
  static final Path PLATFORM = EXAMPLES.resolve("gen/simgrid-topology/platform.xml");

  @TempDir Path tmp;

  /**
   * The bundled trace's graph cut at the cabinets, at step 5 of 20, with the states' durations
   * (no capacity variables there): what the cabinets hide is what the treemap's hide.
   */
  @Test
  void whatTheCabinetsHideIsTheTreemaps() throws Exception {
    Path json = tmp.resolve("bundled.json");
    CliTest.Result result = CliTest.run("topology", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--metric", "state-duration", "--cut-depth", "2", "--step", "5",
        "--out", tmp.resolve("bundled.svg").toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    Map<String, Object> graph = OverviewCommandTest.asMap(OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)))
        .get("topology"));
    TreemapCommandTest.assertHidesLyonC12(OverviewCommandTest.asMap(graph.get("hiddenNodes")));
  }

  @Test
  void nodesEdgesAndCapacitiesAreThePlatformFiles() throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    // The platform names SimGrid's DTD by URL: never fetch it (tests run offline).
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Document xml = factory.newDocumentBuilder().parse(PLATFORM.toFile());
    Map<String, Double> capacity = new HashMap<>();
    NodeList hosts = xml.getElementsByTagName("host");
    for (int i = 0; i < hosts.getLength(); i++) {
      Element h = (Element) hosts.item(i);
      capacity.put(h.getAttribute("id"), quantity(h.getAttribute("speed"), "f"));
    }
    NodeList links = xml.getElementsByTagName("link");
    for (int i = 0; i < links.getLength(); i++) {
      Element l = (Element) links.item(i);
      capacity.put(l.getAttribute("id"), quantity(l.getAttribute("bandwidth"), "Bps"));
    }
    // SimGrid traces a route src → link … link → dst as edges between consecutive hops, each pair once.
    Set<String> hops = new TreeSet<>();
    NodeList routes = xml.getElementsByTagName("route");
    for (int i = 0; i < routes.getLength(); i++) {
      Element r = (Element) routes.item(i);
      List<String> path = new ArrayList<>(List.of(r.getAttribute("src")));
      NodeList ctn = r.getElementsByTagName("link_ctn");
      for (int k = 0; k < ctn.getLength(); k++) {
        path.add(((Element) ctn.item(k)).getAttribute("id"));
      }
      path.add(r.getAttribute("dst"));
      for (int k = 0; k + 1 < path.size(); k++) {
        String a = path.get(k);
        String b = path.get(k + 1);
        hops.add(a.compareTo(b) < 0 ? a + " " + b : b + " " + a);
      }
    }
    Map<String, Object> answer = topology("--width", "800", "--height", "800");
    Map<String, Object> graph = OverviewCommandTest.asMap(answer.get("topology"));
    List<Map<String, Object>> nodes = list(graph.get("nodes"));
    assertEquals(hosts.getLength() + links.getLength(), nodes.size());
    double duration = ((Number) answer.get("end")).doubleValue() - ((Number) answer.get("start")).doubleValue();
    for (Map<String, Object> n : nodes) {
      String name = (String) n.get("name");
      assertEquals(capacity.get(name) * duration, ((Number) n.get("capacity")).doubleValue(),
          1e-9 * capacity.get(name) * duration, name + ": capacity × duration");
      assertEquals(hosts.getLength() > 0 && name.endsWith("nic") || name.equals("backbone") ? "DIAMOND" : "SQUARE",
          n.get("shape"), name);
    }
    Set<String> edges = new TreeSet<>();
    for (Map<String, Object> e : list(graph.get("edges"))) {
      if (((Number) e.get("topology")).intValue() > 0) {
        String a = (String) nodes.get(((Number) e.get("a")).intValue()).get("name");
        String b = (String) nodes.get(((Number) e.get("b")).intValue()).get("name");
        edges.add(a.compareTo(b) < 0 ? a + " " + b : b + " " + a);
      }
    }
    assertEquals(hops, edges);
    assertEquals(18, edges.size());
  }

  /** Cut at the root: one node per kind, whose capacity is its members' sum. */
  @Test
  void fullAggregationIsOneNodePerKind() throws Exception {
    Map<String, Object> whole = OverviewCommandTest.asMap(topology().get("topology"));
    Map<String, Object> root = OverviewCommandTest.asMap(topology("--cut-depth", "0").get("topology"));
    List<Map<String, Object>> kinds = list(root.get("nodes"));
    assertEquals(List.of("HOST", "LINK"), kinds.stream().map(n -> n.get("kind")).toList());
    for (Map<String, Object> k : kinds) {
      double sum = list(whole.get("nodes")).stream().filter(n -> n.get("kind").equals(k.get("kind")))
          .mapToDouble(n -> ((Number) n.get("capacity")).doubleValue()).sum();
      assertEquals(sum, ((Number) k.get("capacity")).doubleValue(), 1e-9 * sum, (String) k.get("kind"));
      assertEquals(true, k.get("aggregate"));
    }
    assertEquals(1, list(root.get("edges")).size());
  }

  /** The bundled trace has capacities and MPI messages but no platform topology: edges are messages, and a note says so. */
  @Test
  void withoutTopologyTheEdgesAreTheMessages() throws Exception {
    Path json = tmp.resolve("b.json");
    CliTest.Result result = CliTest.run("topology", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("b.svg").toString(), "--json", json.toString(),
        "--cut-depth", "3");
    assertEquals(0, result.status(), result.err());
    assertTrue(result.out().startsWith("note: no platform topology in the trace: edges are its communications only\n"),
        result.out());
    Map<String, Object> graph = OverviewCommandTest.asMap(OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)))
        .get("topology"));
    List<Map<String, Object>> edges = list(graph.get("edges"));
    assertTrue(!edges.isEmpty() && edges.stream().allMatch(e -> ((Number) e.get("messages")).longValue() > 0
        && ((Number) e.get("topology")).intValue() == 0), "message edges only");
  }

  /**
   * Size and fill per node kind, the analyst's choice (decision 050). Over [3, 5) s, hosts sized
   * and filled by speed_used are each full (use ÷ size = 1), lyon-c1-2 included, which the default
   * (speed, then in the profile's factor) marks over capacity; links keep bandwidth and its use.
   */
  @Test
  void hostsSizedAndFilledByTheirUseAreFull() throws Exception {
    Map<String, Object> graph = bundledGraph("--from", "3", "--to", "5", "--size", "host=speed_used", "--fill",
        "HOST=speed_used");
    List<Map<String, Object>> nodes = list(graph.get("nodes"));
    List<Map<String, Object>> hosts = nodes.stream().filter(n -> n.get("kind").equals("HOST")).toList();
    assertEquals(32, hosts.size());
    for (Map<String, Object> h : hosts) {
      assertEquals(List.of("speed_used", "speed_used", 1.0, false), List.of(h.get("capacityVariable"),
          h.get("useVariable"), h.get("fill"), h.get("overCapacity")), (String) h.get("name"));
    }
    assertTrue(nodes.stream().filter(n -> n.get("kind").equals("LINK")).allMatch(n -> n.get("capacityVariable")
        .equals("bandwidth") && n.get("useVariable").equals("bandwidth_used")), "links keep the default");
  }

  /**
   * From a mapping file, links filled by their bandwidth (another unit than their use): over
   * [8, 9) s nancy-uplink's fill is its bandwidth at 0.2 % over the largest link's,
   * 2.425e6 / 1.25e9 = 0.00194, and nothing is over capacity; the caption says how links are filled.
   */
  @Test
  void aMappingFileFillsLinksByTheirShareOfTheLargest() throws Exception {
    Path mapping = tmp.resolve("links.mapping");
    Files.writeString(mapping, "# links by their bandwidth\nfill.LINK=bandwidth\n\nsize.host = speed_used\n");
    Map<String, Object> graph = bundledGraph("--from", "8", "--to", "9", "--mapping", mapping.toString());
    Map<String, Object> uplink = list(graph.get("nodes")).stream().filter(n -> n.get("name").equals("nancy-uplink"))
        .findFirst().orElseThrow();
    assertEquals(List.of("bandwidth", "bandwidth", 2.425e6, 0.00194, false), List.of(uplink.get("capacityVariable"),
        uplink.get("useVariable"), uplink.get("use"), uplink.get("fill"), uplink.get("overCapacity")));
    assertTrue(((String) graph.get("note")).contains("LINK filled by its share of the largest LINK"),
        (String) graph.get("note"));
    // --fill overrides the file: links back to their use.
    Map<String, Object> over = bundledGraph("--from", "8", "--to", "9", "--mapping", mapping.toString(), "--fill",
        "link=bandwidth_used");
    Map<String, Object> used = list(over.get("nodes")).stream().filter(n -> n.get("name").equals("nancy-uplink"))
        .findFirst().orElseThrow();
    assertEquals("bandwidth_used", used.get("useVariable"));
  }

  /** A bad mapping: one line naming the file, the line and what was expected; exit 1. */
  @Test
  void aBadMappingIsOneLine() throws Exception {
    Path mapping = tmp.resolve("bad.mapping");
    Files.writeString(mapping, "size.HOST=speed_used\n# fine so far\nfill HOST speed_used\n");
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + mapping + ", line 3: expected size.KIND=VARIABLE or "
        + "fill.KIND=VARIABLE, found 'fill HOST speed_used'\n"), bundled("--mapping", mapping.toString()));
    Files.writeString(mapping, "size.HOST=flops\n");
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + mapping + ", line 1: no variable 'flops' in the trace; its "
        + "variables: bandwidth, bandwidth_used, core_count, latency, speed, speed_used\n"),
        bundled("--mapping", mapping.toString()));
    assertEquals(new CliTest.Result(1, "", "ocelotl: --size: no node kind 'cpu' in the trace; its kinds: 0, HOST, L1, "
        + "L2, LINK, MPI, ROUTER\n"), bundled("--size", "cpu=speed"));
    assertEquals(new CliTest.Result(1, "", "ocelotl: --fill: expected KIND=VARIABLE, found 'speed'\n"),
        bundled("--fill", "speed"));
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + tmp.resolve("none") + ": cannot read the mapping file "
        + "(no such file)\n"), bundled("--mapping", tmp.resolve("none").toString()));
  }

  private CliTest.Result bundled(String... options) {
    List<String> args = new ArrayList<>(List.of("topology", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("b.svg").toString(), "--json", tmp.resolve("b.json")
        .toString()));
    args.addAll(List.of(options));
    return CliTest.run(args.toArray(String[]::new));
  }

  private Map<String, Object> bundledGraph(String... options) throws IOException {
    CliTest.Result result = bundled(options);
    assertEquals(0, result.status(), result.err());
    return OverviewCommandTest.asMap(OverviewCommandTest.asMap(PlainJson.parse(Files.readString(tmp.resolve("b.json"))))
        .get("topology"));
  }

  private Map<String, Object> topology(String... options) throws IOException {
    Path json = tmp.resolve("t.json");
    List<String> args = new ArrayList<>(List.of("topology", TRACE.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--out", tmp.resolve("t.png").toString(), "--json", json.toString()));
    args.addAll(List.of(options));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    // The platform is flat (hosts and links under the root): still a graph, with a note.
    assertTrue(result.out().startsWith("note: the trace has no hierarchy above its producers\n"), result.out());
    return OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)));
  }

  /** "1Gf", "500Mf", "125MBps" in base units. */
  static double quantity(String text, String unit) {
    String number = text.substring(0, text.length() - unit.length());
    char prefix = number.charAt(number.length() - 1);
    double scale = switch (prefix) {
      case 'k' -> 1e3;
      case 'M' -> 1e6;
      case 'G' -> 1e9;
      default -> 1;
    };
    return Double.parseDouble(scale == 1 ? number : number.substring(0, number.length() - 1)) * scale;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Object json) {
    return (List<Map<String, Object>>) json;
  }

  /**
   * SimGrid 3.32 writes lyon-c1-2's speed after its speed profile as the profile's factor (2.0
   * over [0, 3) s: 6 integrated) while speed_used stays in flops (1.6384e9): the graph says so on
   * standard error and in the caption, naming the node and the variables, and marks the node; no
   * other node's use exceeds its capacity.
   */
  @Test
  void useBeyondCapacityIsSaidAndMarked() throws Exception {
    Path json = tmp.resolve("over.json");
    Path svg = tmp.resolve("over.svg");
    CliTest.Result result = CliTest.run("topology", OverviewCommandTest.BUNDLED.toString(), "--workspace",
        tmp.resolve("ws").toString(), "--from", "0", "--to", "3", "--out", svg.toString(), "--json", json.toString());
    assertEquals(0, result.status(), result.err());
    assertEquals("warning: use exceeds capacity on 1 node, drawn full with a red outline (the trace's capacity is "
        + "not in its use's unit): lyon/lyon-c1/lyon-c1-2: speed_used 1.638e+09 > speed 6\n", result.err());
    List<Map<String, Object>> over = new ArrayList<>();
    for (Object n : (List<?>) OverviewCommandTest.asMap(OverviewCommandTest.asMap(PlainJson.parse(Files.readString(json)))
        .get("topology")).get("nodes")) {
      if (Boolean.TRUE.equals(OverviewCommandTest.asMap(n).get("overCapacity"))) {
        over.add(OverviewCommandTest.asMap(n));
      }
    }
    assertEquals(1, over.size());
    Map<String, Object> node = over.get(0);
    assertEquals("lyon/lyon-c1/lyon-c1-2", node.get("path"));
    assertEquals("speed", node.get("capacityVariable"));
    assertEquals("speed_used", node.get("useVariable"));
    assertEquals(6.0, ((Number) node.get("capacity")).doubleValue(), 1e-9);
    assertEquals(1.6384e9, ((Number) node.get("use")).doubleValue(), 1e-3);
    assertEquals(1.0, ((Number) node.get("fill")).doubleValue());
    String picture = Files.readString(svg);
    assertTrue(picture.contains("lyon/lyon-c1/lyon-c1-2: speed_used 1.638e+09 &gt; speed 6"), "the caption names it");
    assertTrue(picture.contains("#c62828"), "the node is outlined in red");
  }

  /**
   * The laid-out boxes of the bundled trace's graph (76 nodes; cut at the sites, 12: 4 sites and
   * 4 site uplinks, the sites as hosts and links) and of s4u_mw_perturbed's (140 nodes), at 1000
   * and 600 pixels: no two nodes overlap, no drawn label meets a node or another label, nothing
   * leaves the square; the labelled nodes are counted exactly (a change of layout shows here).
   */
  @Test
  void nothingOverlapsAndNothingIsClipped() throws Exception {
    Path s4u = org.ocelotl.testing.SharedTraces.file("paje/simgrid/s4u_mw_perturbed.trace");
    record Case(Path trace, String side, List<String> extra, int nodes, int labelled) {}
    for (Case c : List.of(new Case(OverviewCommandTest.BUNDLED, "1000", List.of(), 76, 75),
        new Case(OverviewCommandTest.BUNDLED, "600", List.of("--cut-depth", "1"), 12, 12),
        new Case(s4u, "1000", List.of(), 140, 126), new Case(s4u, "600", List.of(), 140, 53))) {
      Path json = tmp.resolve("layout.json");
      List<String> args = new ArrayList<>(List.of("topology", c.trace().toString(), "--workspace",
          tmp.resolve("ws").toString(), "--width", c.side(), "--height", c.side(), "--out",
          tmp.resolve("layout.svg").toString(), "--json", json.toString()));
      args.addAll(c.extra());
      CliTest.Result result = CliTest.run(args.toArray(String[]::new));
      assertEquals(0, result.status(), result.err());
      Map<String, Object> graph = OverviewCommandTest.asMap(OverviewCommandTest.asMap(
          PlainJson.parse(Files.readString(json))).get("topology"));
      double labelHeight = ((Number) graph.get("labelHeight")).doubleValue();
      List<double[]> boxes = new ArrayList<>();
      List<double[]> labels = new ArrayList<>();
      for (Object o : (List<?>) graph.get("nodes")) {
        Map<String, Object> n = OverviewCommandTest.asMap(o);
        double x = ((Number) n.get("x")).doubleValue();
        double y = ((Number) n.get("y")).doubleValue();
        double r = ((Number) n.get("size")).doubleValue();
        boxes.add(new double[] {x - r, y - r, x + r, y + r});
        if (Boolean.TRUE.equals(n.get("labelled"))) {
          labels.add(org.ocelotl.view.TopologyLayout.labelBox((String) n.get("name"), (Boolean) n.get("aggregate"),
              labelHeight, ((Number) n.get("labelX")).doubleValue(), ((Number) n.get("labelY")).doubleValue()));
        }
      }
      String where = c.trace().getFileName() + " at " + c.side() + " px " + c.extra();
      assertEquals(c.nodes(), boxes.size(), where);
      assertEquals(c.labelled(), labels.size(), where + ": labelled nodes");
      boxes.addAll(labels);
      for (int i = 0; i < boxes.size(); i++) {
        double[] a = boxes.get(i);
        assertTrue(a[0] >= 0 && a[1] >= 0 && a[2] <= 1 && a[3] <= 1, where + ": box " + i + " clipped");
        for (int j = i + 1; j < boxes.size(); j++) {
          assertTrue(!org.ocelotl.view.TopologyLayout.meet(a, boxes.get(j)), where + ": boxes " + i + " and " + j
              + " meet");
        }
      }
    }
  }
}
