package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The site of a link: the parts cut off by removing a node, against reachability computed by
 * brute force on seeded small graphs; the deepest common ancestor against every node of seeded
 * small trees; and the sites of real links, by a platform graph (examples/topology.trace: hosts on
 * NICs on one backbone) and by SimGrid's names (the compare pairs, which record no platform links).
 */
class LinkSitesTest {
  static final Path APP = Path.of(System.getProperty("user.dir"));

  @TempDir Path tmp;

  @Test
  void theNodesBehindALinkAreThoseReachingTheHeaviestPartOnlyThroughIt() {
    for (long seed = 1; seed <= 3000; seed++) {
      Random random = new Random(seed);
      int nodes = 1 + random.nextInt(8);
      List<int[]> edges = new ArrayList<>();
      for (int a = 0; a < nodes; a++) {
        for (int b = a + 1; b < nodes; b++) {
          if (random.nextInt(3) == 0) {
            edges.add(new int[] {a, b});
          }
        }
      }
      long[] weight = random.longs(nodes, 0, 3).toArray();
      int removed = random.nextInt(nodes);
      int[][] graph = edges.toArray(new int[0][]);
      assertArrayEquals(bruteForceBehind(nodes, graph, weight, removed), LinkSites.behind(nodes, graph, weight, removed),
          "seed " + seed);
    }
  }

  /** Reachability by closing the adjacency matrix (Warshall), parts compared by their weights. */
  private static int[] bruteForceBehind(int nodes, int[][] edges, long[] weight, int removed) {
    boolean[][] reach = new boolean[nodes][nodes];
    for (int n = 0; n < nodes; n++) {
      reach[n][n] = true;
    }
    for (int[] e : edges) {
      if (e[0] != removed && e[1] != removed) {
        reach[e[0]][e[1]] = true;
        reach[e[1]][e[0]] = true;
      }
    }
    for (int k = 0; k < nodes; k++) {
      for (int i = 0; i < nodes; i++) {
        for (int j = 0; j < nodes; j++) {
          reach[i][j] |= reach[i][k] && reach[k][j];
        }
      }
    }
    long[] part = new long[nodes];
    long heaviest = -1;
    for (int n = 0; n < nodes; n++) {
      for (int m = 0; m < nodes; m++) {
        part[n] += reach[n][m] && m != removed ? weight[m] : 0;
      }
      heaviest = n == removed ? heaviest : Math.max(heaviest, part[n]);
    }
    List<Integer> heaviestParts = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      boolean[] reached = reach[n];
      int first = IntStream.range(0, nodes).filter(m -> reached[m]).findFirst().getAsInt();
      if (n != removed && first == n && part[n] == heaviest) {
        heaviestParts.add(n);
      }
    }
    if (heaviestParts.size() != 1) {
      return new int[0];
    }
    int rest = heaviestParts.get(0);
    return IntStream.range(0, nodes).filter(n -> n != removed && weight[n] > 0 && !reach[rest][n]).toArray();
  }

  @Test
  void theDeepestCommonAncestorIsTheDeepestNodeAboveThemAll() {
    for (long seed = 1; seed <= 2000; seed++) {
      Random random = new Random(seed);
      int size = 1 + random.nextInt(10);
      int[] parents = new int[size];
      String[] names = new String[size];
      parents[0] = -1;
      for (int n = 0; n < size; n++) {
        names[n] = "n" + n;
        parents[n] = n == 0 ? -1 : random.nextInt(n);
      }
      ProducerTree tree = new ProducerTree(names, parents);
      int[] chosen = IntStream.range(0, size).filter(n -> random.nextInt(3) == 0).toArray();
      int expected = -1;
      for (int candidate = 0; candidate < size; candidate++) {
        int c = candidate;
        if (chosen.length > 0 && Arrays.stream(chosen).allMatch(n -> above(tree, c, n))
            && (expected < 0 || tree.depth(c) > tree.depth(expected))) {
          expected = c;
        }
      }
      assertEquals(expected, LinkSites.deepestCommonAncestor(tree, chosen), "seed " + seed);
    }
  }

  private static boolean above(ProducerTree tree, int ancestor, int node) {
    for (int n = node; n >= 0; n = tree.parent(n)) {
      if (n == ancestor) {
        return true;
      }
    }
    return false;
  }

  /**
   * Two sites of two hosts each, each site's hosts on a switch, each switch on its uplink, the two
   * uplinks on a backbone router; a third site's lone host on the backbone through its NIC:
   *
   * <pre>
   *   a1  a2        b1  b2
   *    \  /          \  /
   *    a-sw          b-sw
   *     |             |
   *   a-uplink     b-uplink
   *       \         /
   *        backbone ── c1-nic ── c1
   * </pre>
   */
  @Test
  void aDrawnPlatform() {
    String[] names = {"0", "a", "a1", "a2", "b", "b1", "b2", "c1"};
    ProducerTree tree = new ProducerTree(names, new int[] {-1, 0, 1, 1, 0, 4, 4, 0});
    // Graph nodes: 0 a1, 1 a2, 2 a-sw, 3 a-uplink, 4 b1, 5 b2, 6 b-sw, 7 b-uplink, 8 backbone, 9 c1-nic, 10 c1
    int[][] edges = {{0, 2}, {1, 2}, {2, 3}, {3, 8}, {4, 6}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 10}};
    long[] weight = {1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1};
    int[] treeNode = {2, 3, -1, -1, 5, 6, -1, -1, -1, -1, 7};
    assertArrayEquals(new int[] {0, 1}, LinkSites.behind(11, edges, weight, 3));
    assertEquals(1, LinkSites.deepestCommonAncestor(tree, new int[] {treeNode[0], treeNode[1]}), "a-uplink: site a");
    assertArrayEquals(new int[] {10}, LinkSites.behind(11, edges, weight, 9), "c1-nic: host c1");
    assertArrayEquals(new int[0], LinkSites.behind(11, edges, weight, 8), "the backbone: parts of 2, 2 and 1");
    assertArrayEquals(new int[] {4, 5, 10}, LinkSites.behind(11, edges, new long[] {2, 2, 0, 0, 1, 1, 0, 0, 0, 0, 1}, 8),
        "the backbone with site a the heaviest: the others are behind it");
  }

  @Test
  void theLinksOfARealPlatformGraph() throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(APP.resolve("../examples/topology.trace").normalize(),
        ImportOptions.DEFAULT, ImportProgress.NONE);
    ProducerTree tree = store.tree();
    assertFalse(LinkSites.platformLinks(store).isEmpty(), "the trace records its platform");
    assertEquals("alpha-1", tree.path(LinkSites.site(store, tree, "alpha-1-nic")));
    assertEquals("beta-3", tree.path(LinkSites.site(store, tree, "beta-3-nic")));
    assertEquals(-1, LinkSites.site(store, tree, "backbone"), "six hosts apart: no part is the rest");
    assertEquals(-1, LinkSites.site(store, tree, "no-such-link"));
  }

  @Test
  void theLinksOfAPlatformWithoutItsGraphByTheirNames() throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(APP.resolve(
        "src/test/resources/compare/cmp_uplink.trace.gz"), ImportOptions.DEFAULT, ImportProgress.NONE);
    ProducerTree tree = store.tree();
    assertEquals(List.of(), LinkSites.platformLinks(store), "SimGrid wrote no platform links");
    assertEquals("nancy", tree.path(LinkSites.site(store, tree, "nancy-uplink")));
    assertEquals("nancy/nancy-c1", tree.path(LinkSites.site(store, tree, "nancy/nancy-c1-uplink")));
    assertEquals("lyon/lyon-c2/lyon-c2-1", tree.path(LinkSites.site(store, tree, "lyon/lyon-c2/lyon-c2-1-nic")));
    assertEquals(-1, LinkSites.site(store, tree, "nancy"), "a site is no link, and names no sibling it extends");
  }
}
