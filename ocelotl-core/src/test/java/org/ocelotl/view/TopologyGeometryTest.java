package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.ProducerTree;

/**
 * <pre>
 * root ─┬─ a ─┬─ a1 (HOST, capacity 4, use 1)     platform: a1–l1, a2–l1, l1–l2, l2–b1
 *       │     ├─ a2 (HOST, 4, 3)                   messages: a1–b1 ×5, a1–a2 ×2
 *       │     └─ l1 (LINK, 10, 2)
 *       └─ b ─┬─ b1 (HOST, 2, 2)
 *             └─ l2 (LINK, 10, 0)
 * </pre>
 */
class TopologyGeometryTest {
  static final ProducerTree TREE = new ProducerTree(new String[] {"root", "a", "b", "a1", "a2", "l1", "b1", "l2"},
      new int[] {-1, 0, 0, 1, 1, 1, 2, 2});
  static final PlatformGraph GRAPH = new PlatformGraph(TREE,
      List.of("0", "ZONE", "ZONE", "HOST", "HOST", "LINK", "HOST", "LINK"),
      new double[] {4, 4, 10, 2, 10}, new double[] {1, 3, 2, 2, 0}, true,
      List.of(new PlatformGraph.Edge(0, 1, 0, 2, 200), new PlatformGraph.Edge(0, 2, 1, 0, 0), new PlatformGraph.Edge(0, 3, 0, 5, 500),
          new PlatformGraph.Edge(1, 2, 1, 0, 0), new PlatformGraph.Edge(2, 4, 1, 0, 0), new PlatformGraph.Edge(3, 4, 1, 0, 0)));
  static final boolean[] LEAVES = {false, false, false, true, true, true, true, true};

  @Test
  void everyLeafIsANodeAndEveryEdgeIsKept() {
    Topology t = TopologyGeometry.build(GRAPH, LEAVES, TopologyGeometry.positions(GRAPH), 1000);
    assertEquals(List.of("a1", "a2", "l1", "b1", "l2"), t.nodes().stream().map(Topology.Node::name).toList());
    assertEquals(List.of(Topology.Shape.SQUARE, Topology.Shape.SQUARE, Topology.Shape.DIAMOND, Topology.Shape.SQUARE,
        Topology.Shape.DIAMOND), t.nodes().stream().map(Topology.Node::shape).toList());
    assertEquals(6, t.edges().size());
    assertEquals(4, t.edges().stream().filter(e -> e.topology() > 0).count());
    Topology.Node a2 = t.nodes().get(1);
    assertEquals(0.75, a2.fill(), 1e-12);
    assertEquals(4, a2.capacity());
    assertEquals("", t.note());
  }

  /** Collapsing b: b's host and link become one node each; edges into b add up; a1–b1 and l1–l2 stay apart. */
  @Test
  void aCollapsedGroupIsOneNodePerKind() {
    boolean[] cut = LEAVES.clone();
    TopologyGeometry.collapse(TREE, cut, 2);
    Topology t = TopologyGeometry.build(GRAPH, cut, TopologyGeometry.positions(GRAPH), 1000);
    assertEquals(List.of("a1", "a2", "l1", "b · HOST ×1", "b · LINK ×1"), t.nodes().stream().map(Topology.Node::name).toList());
    assertEquals(6, t.edges().size());
    TopologyGeometry.expand(TREE, cut, 2);
    assertArrayEquals(LEAVES, cut);
  }

  /** Messages and the bytes they carried add up on the edges between shown nodes; inside a node they vanish. */
  @Test
  void messagesAndVolumesAddUpBetweenShownNodes() {
    boolean[] cut = LEAVES.clone();
    TopologyGeometry.collapse(TREE, cut, 1);
    Topology t = TopologyGeometry.build(GRAPH, cut, TopologyGeometry.positions(GRAPH), 1000);
    List<String> names = t.nodes().stream().map(Topology.Node::name).toList();
    assertEquals(List.of("a · HOST ×2", "a · LINK ×1", "b1", "l2"), names);
    List<Topology.Edge> carrying = t.edges().stream().filter(e -> e.messages() > 0).toList();
    assertEquals(1, carrying.size(), "a1–a2's messages are inside a's host node: " + t.edges());
    assertEquals(List.of("a · HOST ×2", "b1"), List.of(names.get(carrying.get(0).a()), names.get(carrying.get(0).b())));
    assertEquals(5, carrying.get(0).messages());
    assertEquals(500, carrying.get(0).volume(), 0);
  }

  /** At full aggregation: one node per kind, whose capacity and use are its members' sums. */
  @Test
  void fullAggregationSumsPerKind() {
    boolean[] root = new boolean[TREE.size()];
    root[0] = true;
    Topology t = TopologyGeometry.build(GRAPH, root, TopologyGeometry.positions(GRAPH), 1000);
    assertEquals(2, t.nodes().size());
    Topology.Node hosts = t.nodes().get(0);
    Topology.Node links = t.nodes().get(1);
    assertEquals("HOST", hosts.kind());
    assertEquals(10, hosts.capacity(), 0);
    assertEquals(6, hosts.use(), 0);
    assertEquals(3, hosts.members());
    assertEquals(20, links.capacity(), 0);
    assertEquals(2, links.use(), 0);
    assertEquals(1, t.edges().size(), "hosts–links: the platform links between the two kinds");
    assertEquals(3, t.edges().get(0).topology());
    assertEquals(0, t.edges().get(0).messages());
  }

  /**
   * Positions depend on the tree and the platform (and on the shown nodes where they would
   * overlap): the same in every run, and a1 keeps its place when the far group collapses.
   */
  @Test
  void positionsAreStableAndDeterministic() {
    double[][] p = TopologyGeometry.positions(GRAPH);
    assertArrayEquals(p[0], TopologyGeometry.positions(GRAPH)[0]);
    assertArrayEquals(p[1], TopologyGeometry.positions(GRAPH)[1]);
    boolean[] cut = LEAVES.clone();
    TopologyGeometry.collapse(TREE, cut, 2);
    Topology t = TopologyGeometry.build(GRAPH, cut, p, 1000);
    Topology all = TopologyGeometry.build(GRAPH, LEAVES, p, 1000);
    assertEquals(all.nodes().get(0).y(), t.nodes().get(0).y(), 0, "a1 keeps its place when b collapses");
    assertEquals(all.nodes().get(0).x(), t.nodes().get(0).x(), 0);
  }

  @Test
  void withoutPlatformLinksOrCapacitiesTheNoteSaysSo() {
    PlatformGraph bare = new PlatformGraph(TREE, GRAPH.kinds(), GRAPH.capacity(), GRAPH.capacity(), false,
        List.of(new PlatformGraph.Edge(0, 3, 0, 5, 500)));
    Topology t = TopologyGeometry.build(bare, LEAVES, TopologyGeometry.positions(bare), 1000);
    assertEquals("no platform topology in the trace: edges are its communications only; "
        + "no capacity variables: size and fill from the metric", t.note());
    assertEquals(List.of(1.0, 1.0, 1.0, 0.5, 1.0), t.nodes().stream().map(Topology.Node::fill).toList(),
        "the value over the largest of the kind (hosts 4, 4, 2; links 10, 10)");
  }

  /**
   * The layout keeps every node in the unit square, puts no two nodes on the same spot, and, on
   * 20 seeded random graphs of two dense clusters joined by one edge, places the mean
   * within-cluster distance below the mean across-cluster distance.
   */
  @Test
  void theLayoutSeparatesClusters() {
    for (int seed = 0; seed < 20; seed++) {
      Random random = new Random(seed);
      int half = 10 + random.nextInt(30);
      int n = 2 * half;
      double[] x = new double[n];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = random.nextDouble();
        y[i] = random.nextDouble();
      }
      List<int[]> edges = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          if ((i < half) == (j < half) && random.nextInt(3) == 0) {
            edges.add(new int[] {i, j});
          }
        }
      }
      edges.add(new int[] {0, half});
      double[] w = new double[edges.size()];
      java.util.Arrays.fill(w, 1);
      double[][] p = ForceLayout.layout(x, y, edges.stream().mapToInt(e -> e[0]).toArray(),
          edges.stream().mapToInt(e -> e[1]).toArray(), w, ForceLayout.ITERATIONS);
      double within = 0;
      double across = 0;
      int nw = 0;
      int na = 0;
      for (int i = 0; i < n; i++) {
        assertTrue(p[0][i] >= 0 && p[0][i] <= 1 && p[1][i] >= 0 && p[1][i] <= 1, "seed " + seed);
        for (int j = i + 1; j < n; j++) {
          double d = Math.hypot(p[0][i] - p[0][j], p[1][i] - p[1][j]);
          assertTrue(d > 1e-6, "seed " + seed + ": nodes " + i + " and " + j + " coincide");
          if ((i < half) == (j < half)) {
            within += d;
            nw++;
          } else {
            across += d;
            na++;
          }
        }
      }
      assertTrue(within / nw < across / na, "seed " + seed + ": within " + within / nw + ", across " + across / na);
    }
  }

  /**
   * b1's use (5) exceeds its capacity (2), as SimGrid's speed after a speed profile does: the node
   * is marked, drawn full, and names its variables; a1 (use 1 of 4) is a quarter full.
   */
  @Test
  void useBeyondCapacityIsMarkedNotHidden() {
    PlatformGraph over = new PlatformGraph(TREE, GRAPH.kinds(), GRAPH.capacity(), new double[] {1, 3, 2, 5, 0}, true,
        GRAPH.edges(), List.of("speed", "speed", "bandwidth", "speed", "bandwidth"),
        List.of("speed_used", "speed_used", "bandwidth_used", "speed_used", "bandwidth_used"), java.util.Set.of());
    Topology t = TopologyGeometry.build(over, LEAVES, TopologyGeometry.positions(over), 1000);
    assertEquals(List.of("b1"), t.overCapacity().stream().map(Topology.Node::name).toList());
    Topology.Node b1 = t.overCapacity().get(0);
    assertEquals(1.0, b1.fill());
    assertEquals(2.0, b1.capacity());
    assertEquals(5.0, b1.use());
    assertEquals("speed", b1.capacityVariable());
    assertEquals("speed_used", b1.useVariable());
    assertEquals(0.25, t.nodes().get(0).fill());
  }

  /**
   * The same graph with the hosts filled by a variable of another unit than their size (an
   * analyst's mapping, decision 050): each host's fill is its use over the largest host use (5),
   * and none is over capacity.
   */
  @Test
  void aFillInAnotherUnitIsAShareOfTheLargestOfTheKind() {
    PlatformGraph mapped = new PlatformGraph(TREE, GRAPH.kinds(), GRAPH.capacity(), new double[] {1, 3, 2, 5, 0}, true,
        GRAPH.edges(), List.of("speed", "speed", "bandwidth", "speed", "bandwidth"),
        List.of("load", "load", "bandwidth_used", "load", "bandwidth_used"), java.util.Set.of("HOST"));
    Topology t = TopologyGeometry.build(mapped, LEAVES, TopologyGeometry.positions(mapped), 1000);
    assertEquals(List.of(), t.overCapacity());
    assertEquals(List.of(0.2, 0.6, 1.0), t.nodes().stream().filter(n -> n.kind().equals("HOST"))
        .map(Topology.Node::fill).toList());
    assertEquals(0.2, t.nodes().stream().filter(n -> n.name().equals("l1")).findFirst().orElseThrow().fill(),
        "links keep use ÷ capacity");
  }

  /**
   * The laid-out boxes: on 12 seeded random trees of 20 to 400 leaves whose force layout is
   * replaced by every node on one spot or on a line (the worst starts), for a 600 and a 1000 px
   * side, no two node boxes overlap, no drawn label meets a node box or another label, and every
   * box lies in the unit square.
   */
  @Test
  void nothingOverlapsAndNothingIsClipped() {
    for (int seed = 0; seed < 12; seed++) {
      Random random = new Random(seed);
      int leaves = 20 + random.nextInt(381);
      int groups = 1 + random.nextInt(8);
      String[] names = new String[1 + groups + leaves];
      int[] parents = new int[names.length];
      names[0] = "0";
      parents[0] = -1;
      for (int g = 1; g <= groups; g++) {
        names[g] = "site-" + g;
        parents[g] = 0;
      }
      List<String> kinds = new java.util.ArrayList<>(java.util.Collections.nCopies(1 + groups, "ZONE"));
      for (int l = 0; l < leaves; l++) {
        names[1 + groups + l] = "host-" + l + "-" + "x".repeat(random.nextInt(12));
        parents[1 + groups + l] = 1 + l * groups / leaves;
        kinds.add(random.nextBoolean() ? "HOST" : "LINK");
      }
      ProducerTree tree = new ProducerTree(names, parents);
      double[] capacity = random.doubles(leaves, 1, 10).toArray();
      PlatformGraph graph = new PlatformGraph(tree, kinds, capacity, capacity, true, List.of());
      double[][] start = new double[2][tree.size()];
      for (int node = 0; node < tree.size(); node++) {
        start[0][node] = seed % 2 == 0 ? 0.5 : (double) node / tree.size();
        start[1][node] = 0.5;
      }
      boolean[] cut = new boolean[tree.size()];
      for (int node = 0; node < tree.size(); node++) {
        cut[node] = tree.isLeaf(node);
      }
      for (double side : new double[] {600, 1000}) {
        String where = "seed " + seed + ", " + leaves + " leaves, side " + side;
        Topology t = TopologyGeometry.build(graph, cut, start, side);
        assertLaidOut(t, where);
      }
      for (int g = 1; g <= groups; g++) { // collapsed groups: one node per kind, side by side
        TopologyGeometry.collapse(tree, cut, g);
      }
      assertLaidOut(TopologyGeometry.build(graph, cut, start, 1000), "seed " + seed + " collapsed");
    }
  }

  /** No node box overlaps another, no label meets a node box or a label, every box in [0, 1]². */
  static void assertLaidOut(Topology t, String where) {
    List<double[]> boxes = new java.util.ArrayList<>();
    for (Topology.Node n : t.nodes()) {
      boxes.add(new double[] {n.x() - n.size(), n.y() - n.size(), n.x() + n.size(), n.y() + n.size()});
    }
    int nodes = boxes.size();
    for (Topology.Node n : t.nodes()) {
      if (n.labelled()) {
        boxes.add(TopologyLayout.labelBox(n.name(), n.aggregate(), t.labelHeight(), n.labelX(), n.labelY()));
      }
    }
    for (int i = 0; i < boxes.size(); i++) {
      double[] a = boxes.get(i);
      assertTrue(a[0] >= 0 && a[1] >= 0 && a[2] <= 1 && a[3] <= 1, where + ": box " + i + " clipped "
          + java.util.Arrays.toString(a));
      for (int j = i + 1; j < boxes.size(); j++) {
        assertTrue(!TopologyLayout.meet(a, boxes.get(j)), where + ": boxes " + i + " and " + j + " meet ("
            + (i < nodes ? "node" : "label") + ", " + (j < nodes ? "node" : "label") + ")");
      }
    }
  }
}
