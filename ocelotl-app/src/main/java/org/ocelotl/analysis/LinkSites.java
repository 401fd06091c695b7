package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * The site of a link: the subtree of producers on the far side of it from the rest of the
 * platform (docs/aggregation.md, "A perturbed link"; decision 060). Remove the link's node from the
 * platform graph; the hosts then cut off from the part that holds the most leaves are behind
 * it, and their deepest common ancestor in the producer tree is its site (a site's uplink: the
 * site; a cabinet's uplink: the cabinet; a host's NIC: the host). A link behind which nothing is
 * cut off, or that splits the platform into parts as large as each other (a backbone), has none.
 *
 * <p>The platform graph is the trace's platform links ({@link Platform#TOPOLOGY_TYPE}). A trace
 * that records none (SimGrid 3.32 writes none for a platform built by a plugin, as the compare
 * pairs' is) is read by SimGrid's naming instead: a link of a zone joins the zone's children
 * (hierarchical routing), and is named after the child it serves ("nancy-uplink" in the root zone
 * beside zone "nancy", "nancy-c1-uplink" in zone nancy beside "nancy-c1").
 */
public final class LinkSites {
  private LinkSites() {}

  /**
   * The site of a link in a producer tree: the node of {@code tree} whose subtree is behind the
   * link, or -1 for none (no such link, nothing behind it, a backbone, or a site the tree does not
   * hold). The tree's paths are the store's (a model's tree of this store or of a run of the same
   * platform).
   */
  public static int site(TraceStore store, ProducerTree tree, String linkPath) {
    StoreMetadata m = store.metadata();
    Map<String, Integer> producerOfPath = new HashMap<>();
    for (StoreMetadata.Producer p : m.producers()) {
      producerOfPath.put(m.path(p.id()), p.id());
    }
    Integer link = producerOfPath.get(linkPath);
    if (link == null) {
      return -1;
    }
    Map<String, Integer> nodeOfPath = new HashMap<>();
    for (int node = 1; node < tree.size(); node++) {
      nodeOfPath.put(tree.path(node), node);
    }
    List<int[]> edges = platformLinks(store);
    return edges.isEmpty() ? byName(m, nodeOfPath, link) : byGraph(m, tree, nodeOfPath, edges, link);
  }

  private static int byGraph(StoreMetadata m, ProducerTree tree, Map<String, Integer> nodeOfPath, List<int[]> edges,
      int link) {
    // The graph's nodes are the producers some platform link touches: hosts, routers, links.
    int[] graphNode = new int[m.producers().size()];
    Arrays.fill(graphNode, -1);
    List<Integer> producerOfNode = new ArrayList<>();
    int[][] graphEdges = new int[edges.size()][];
    for (int e = 0; e < edges.size(); e++) {
      int[] ends = new int[2];
      for (int i = 0; i < 2; i++) {
        int p = edges.get(e)[i];
        if (graphNode[p] < 0) {
          graphNode[p] = producerOfNode.size();
          producerOfNode.add(p);
        }
        ends[i] = graphNode[p];
      }
      graphEdges[e] = ends;
    }
    if (graphNode[link] < 0) {
      return -1;
    }
    long[] weight = new long[producerOfNode.size()];
    int[] treeNode = new int[producerOfNode.size()];
    for (int n = 0; n < weight.length; n++) {
      Integer node = nodeOfPath.get(m.path(producerOfNode.get(n)));
      treeNode[n] = node == null ? -1 : node;
      weight[n] = node == null ? 0 : tree.leafCount(node);
    }
    int[] behind = behind(weight.length, graphEdges, weight, graphNode[link]);
    int[] nodes = new int[behind.length];
    for (int i = 0; i < behind.length; i++) {
      nodes[i] = treeNode[behind[i]];
    }
    int site = deepestCommonAncestor(tree, nodes);
    return site == 0 ? -1 : site;
  }

  /**
   * Without a platform graph: the sibling of the link (a child of the zone that holds it) whose
   * name, followed by '-', begins the link's name; the longest such, if the tree holds it.
   */
  private static int byName(StoreMetadata m, Map<String, Integer> nodeOfPath, int link) {
    StoreMetadata.Producer l = m.producers().get(link);
    int site = -1;
    int longest = 0;
    for (StoreMetadata.Producer p : m.producers()) {
      if (p.id() != link && p.parent() == l.parent() && p.name().length() > longest
          && l.name().startsWith(p.name() + "-") && nodeOfPath.containsKey(m.path(p.id()))) {
        site = nodeOfPath.get(m.path(p.id()));
        longest = p.name().length();
      }
    }
    return site;
  }

  /** The trace's platform links, each pair of store producers once, in the order first met. */
  static List<int[]> platformLinks(TraceStore store) {
    StoreMetadata m = store.metadata();
    boolean[] topology = new boolean[m.types().stream().mapToInt(StoreMetadata.EventType::id).max().orElse(-1) + 1];
    boolean any = false;
    for (StoreMetadata.EventType t : m.types()) {
      topology[t.id()] = Platform.TOPOLOGY_TYPE.matcher(t.name()).matches();
      any |= topology[t.id()];
    }
    List<int[]> edges = new ArrayList<>();
    if (!any) {
      return edges; // no scan of the messages of a trace without a platform
    }
    java.util.Set<Long> seen = new java.util.HashSet<>();
    long producers = m.producers().size();
    store.scanLinks(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, (LinkColumns c) -> {
      for (int i = 0; i < c.size(); i++) {
        int a = c.from()[i];
        int b = c.to()[i];
        if (topology[c.type()[i]] && a != b && seen.add(Math.min(a, b) * producers + Math.max(a, b))) {
          edges.add(new int[] {a, b});
        }
      }
    });
    return edges;
  }

  /**
   * The nodes of positive weight cut off by removing {@code removed} from the graph: those outside
   * the connected part of greatest weight; none where two parts have that weight (no part is the
   * rest of the platform) or every weighted node stays with it.
   *
   * @param nodes   the graph's nodes, 0 to nodes − 1
   * @param edges   pairs of nodes
   * @param weight  per node, what it holds (the producer tree's leaves under a host; 0 for a router)
   * @param removed the link's node
   * @return the nodes behind the link, ascending
   */
  static int[] behind(int nodes, int[][] edges, long[] weight, int removed) {
    int[] root = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      root[n] = n;
    }
    for (int[] e : edges) {
      if (e[0] != removed && e[1] != removed) {
        root[find(root, e[0])] = find(root, e[1]);
      }
    }
    long[] partWeight = new long[nodes];
    for (int n = 0; n < nodes; n++) {
      if (n != removed) {
        partWeight[find(root, n)] += weight[n];
      }
    }
    int largest = -1;
    boolean tie = false;
    for (int n = 0; n < nodes; n++) {
      if (n == removed || find(root, n) != n) {
        continue;
      }
      if (largest < 0 || partWeight[n] > partWeight[largest]) {
        largest = n;
        tie = false;
      } else if (partWeight[n] == partWeight[largest]) {
        tie = true;
      }
    }
    if (largest < 0 || tie) {
      return new int[0];
    }
    int rest = largest;
    return java.util.stream.IntStream.range(0, nodes)
        .filter(n -> n != removed && weight[n] > 0 && find(root, n) != rest).toArray();
  }

  private static int find(int[] root, int n) {
    while (root[n] != n) {
      root[n] = root[root[n]]; // path halving: each step skips a parent
      n = root[n];
    }
    return n;
  }

  /** The deepest node at or above every one of {@code nodes} (none of them -1); -1 for none given. */
  static int deepestCommonAncestor(ProducerTree tree, int[] nodes) {
    if (nodes.length == 0) {
      return -1;
    }
    int common = nodes[0];
    for (int n : nodes) {
      while (tree.depth(n) > tree.depth(common)) {
        n = tree.parent(n);
      }
      while (tree.depth(common) > tree.depth(n)) {
        common = tree.parent(common);
      }
      while (n != common) {
        n = tree.parent(n);
        common = tree.parent(common);
      }
    }
    return common;
  }
}
