package org.ocelotl.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.model.ProducerTree;

/**
 * The hierarchical topology graph (VIVA): the platform's resources at the shown level of the
 * producer tree, a shape per kind, size from the time-integrated capacity, fill from the use over
 * the capacity, edges from the platform links and the window's communications.
 *
 * <p>The cut says which tree nodes are shown; a shown inner node is a collapsed group, drawn as
 * one node per kind of its leaves (its hosts, its links…) whose capacity and use are its
 * members' sums. Positions come from one force-directed layout of the whole tree and the platform
 * links ({@link #positions}), which depends on no window: a group collapses onto the place where
 * it was, and moving in time never moves a node. The shown nodes are then pushed apart where
 * they would overlap and their labels placed where they collide with nothing
 * ({@link TopologyLayout}), which depends on the cut and the picture's side, never on time.
 *
 * <p>Where a node's use exceeds its capacity (SimGrid 3.32 writes a host's speed after a speed
 * profile as the profile's factor, not in flops, while its use stays in flops), the node is
 * drawn full and marked over capacity, for the caption and the reader to say so.
 */
public final class TopologyGeometry {
  private TopologyGeometry() {}

  /**
   * Where every tree node sits: a radial tree (leaves on a circle in their order, inner nodes
   * inside at the mean angle of their leaves) relaxed by {@link ForceLayout} along the tree
   * edges and the platform links. Communications do not pull: they change with the window.
   */
  public static double[][] positions(PlatformGraph graph) {
    ProducerTree tree = graph.tree();
    int n = tree.size();
    double[] x = new double[n];
    double[] y = new double[n];
    double height = Math.max(1, tree.height());
    for (int node = 0; node < n; node++) {
      double angle = 2 * Math.PI * (tree.firstLeaf(node) + tree.leafCount(node) / 2.0) / tree.leafCount();
      double radius = 0.45 * tree.depth(node) / height;
      x[node] = 0.5 + radius * Math.cos(angle);
      y[node] = 0.5 + radius * Math.sin(angle);
    }
    List<int[]> edges = new ArrayList<>();
    for (int node = 1; node < n; node++) {
      edges.add(new int[] {tree.parent(node), node});
    }
    for (PlatformGraph.Edge e : graph.edges()) {
      if (e.topology() > 0) {
        edges.add(new int[] {tree.leafNode(e.a()), tree.leafNode(e.b())});
      }
    }
    int[] a = edges.stream().mapToInt(e -> e[0]).toArray();
    int[] b = edges.stream().mapToInt(e -> e[1]).toArray();
    double[] w = new double[a.length];
    java.util.Arrays.fill(w, 1);
    return ForceLayout.layout(x, y, a, b, w, ForceLayout.ITERATIONS);
  }

  /** Expands a shown group: its children are shown instead. */
  public static void expand(ProducerTree tree, boolean[] cut, int node) {
    if (cut[node] && !tree.isLeaf(node)) {
      cut[node] = false;
      for (int child : tree.children(node)) {
        cut[child] = true;
      }
    }
  }

  /** Collapses a group: it is shown instead of everything under it. */
  public static void collapse(ProducerTree tree, boolean[] cut, int node) {
    for (int n = 0; n < tree.size(); n++) {
      if (isUnder(tree, n, node)) {
        cut[n] = false;
      }
    }
    cut[node] = true;
  }

  private static boolean isUnder(ProducerTree tree, int n, int ancestor) {
    for (int p = tree.parent(n); p >= 0; p = tree.parent(p)) {
      if (p == ancestor) {
        return true;
      }
    }
    return false;
  }

  /**
   * The graph for a cut (shown nodes covering every leaf once), laid out for a picture of this
   * side ({@link TopologyLayout}): no two nodes overlap, no label meets a node or another label,
   * nothing leaves the unit square.
   *
   * @param positions from {@link #positions} for the same tree
   * @param sidePx    the side of the square the graph is drawn in, in pixels: labels are
   *                  {@link TopologyLayout#LABEL_PX} high at this side
   */
  public static Topology build(PlatformGraph graph, boolean[] cut, double[][] positions, double sidePx) {
    if (!(sidePx >= 100)) {
      throw new IllegalArgumentException("a topology graph needs a side of at least 100 pixels, got " + sidePx);
    }
    ProducerTree tree = graph.tree();
    int[] shownOf = new int[tree.leafCount()];
    List<Integer> nodeOf = new ArrayList<>();
    List<String> kindOf = new ArrayList<>();
    List<double[]> sums = new ArrayList<>(); // capacity, use, members
    List<int[]> namedLeafOf = new ArrayList<>(); // a leaf of the shown node that names its variables
    checkCovered(tree, cut);
    for (int first = 0; first < tree.leafCount(); ) { // shown nodes in leaf order
      int node = tree.leafNode(first);
      while (!cut[node]) {
        node = tree.parent(node);
      }
      first += tree.leafCount(node);
      Map<String, Integer> byKind = new LinkedHashMap<>();
      for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
        String kind = graph.kinds().get(tree.leafNode(leaf));
        Integer index = byKind.get(kind);
        if (index == null) {
          index = nodeOf.size();
          byKind.put(kind, index);
          nodeOf.add(node);
          kindOf.add(kind);
          sums.add(new double[3]);
          namedLeafOf.add(new int[] {leaf});
        }
        shownOf[leaf] = index;
        double[] s = sums.get(index);
        s[0] += graph.capacity()[leaf];
        s[1] += graph.use()[leaf];
        s[2]++;
        if (graph.capacityVariables().get(namedLeafOf.get(index)[0]).isEmpty()) {
          namedLeafOf.get(index)[0] = leaf;
        }
      }
    }
    Map<String, Double> largest = new TreeMap<>();
    Map<String, Double> largestUse = new TreeMap<>();
    for (int i = 0; i < nodeOf.size(); i++) {
      largest.merge(kindOf.get(i), sums.get(i)[0], Math::max);
      largestUse.merge(kindOf.get(i), sums.get(i)[1], Math::max);
    }
    // The largest a node is drawn at, never below 3 pixels: the boxes cover at most a fifth of
    // the square (n (2r)² ≤ 0.2), which leaves the layout room to push them apart and to label them.
    double maxRadius = Math.max(3 / sidePx, Math.min(0.05, 0.22 / Math.sqrt(nodeOf.size())));
    // Shown nodes of one tree node are consecutive in nodeOf: their rank among them, and how many.
    int[] rankOf = new int[nodeOf.size()];
    int[] kindsOf = new int[nodeOf.size()];
    for (int i = 0, start = 0; i < nodeOf.size(); i++) {
      if (i > 0 && !nodeOf.get(i).equals(nodeOf.get(i - 1))) {
        start = i;
      }
      rankOf[i] = i - start;
      for (int j = start; j <= i; j++) {
        kindsOf[j] = i - start + 1;
      }
    }
    double[] x = new double[nodeOf.size()];
    double[] y = new double[nodeOf.size()];
    List<String> names = new ArrayList<>();
    boolean[] bold = new boolean[nodeOf.size()];
    for (int i = 0; i < nodeOf.size(); i++) {
      int node = nodeOf.get(i);
      // The kinds of one collapsed group sit side by side around the group's place.
      x[i] = positions[0][node] + (rankOf[i] - (kindsOf[i] - 1) / 2.0) * 3 * maxRadius;
      y[i] = positions[1][node];
      bold[i] = !tree.isLeaf(node);
      String name = TreemapGeometry.name(tree, node);
      names.add(bold[i] ? name + " · " + kindOf.get(i) + " ×" + (int) sums.get(i)[2] : name);
    }
    double pixel = 1 / sidePx;
    double half = TopologyLayout.separate(x, y, maxRadius + 2 * pixel, 4 * pixel, pixel);
    double drawn = half - 2 * pixel;
    double labelHeight = TopologyLayout.LABEL_PX * pixel;
    double[][] labels = TopologyLayout.labels(x, y, half, names, bold, labelHeight);
    List<Topology.Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeOf.size(); i++) {
      int node = nodeOf.get(i);
      double[] s = sums.get(i);
      double top = largest.get(kindOf.get(i));
      double size = top > 0 ? drawn * Math.max(0.15, Math.sqrt(s[0] / top)) : drawn * 0.15;
      int leaf = namedLeafOf.get(i)[0];
      boolean byLargest = graph.fillByLargest().contains(kindOf.get(i));
      boolean over = graph.capacities() && !byLargest && s[1] > s[0] && s[1] > 0;
      double topUse = largestUse.get(kindOf.get(i));
      // Without capacities the "capacity" is the metric's value: fill by it against the largest of the kind;
      // a fill in another unit than the size (the analyst's mapping), by the use against the largest use.
      double fill = !graph.capacities() ? (top > 0 ? s[0] / top : 0) : byLargest ? (topUse > 0 ? s[1] / topUse : 0)
          : over ? 1 : s[0] > 0 ? s[1] / s[0] : 0;
      nodes.add(new Topology.Node(node, names.get(i), path(tree, node), kindOf.get(i), shape(kindOf.get(i)),
          bold[i], (int) s[2], x[i], y[i], size, graph.capacityVariables().get(leaf), graph.useVariables().get(leaf),
          s[0], s[1], fill, over, labels[i][0] > 0, labels[i][1], labels[i][2]));
    }
    TreeMap<Long, double[]> merged = new TreeMap<>();
    boolean topology = false;
    for (PlatformGraph.Edge e : graph.edges()) {
      int a = shownOf[e.a()];
      int b = shownOf[e.b()];
      topology |= e.topology() > 0;
      if (a == b) {
        continue;
      }
      long key = (long) Math.min(a, b) * nodes.size() + Math.max(a, b);
      double[] m = merged.computeIfAbsent(key, k -> new double[3]);
      m[0] += e.topology();
      m[1] += e.messages();
      m[2] += e.volume();
    }
    List<Topology.Edge> edges = new ArrayList<>();
    for (Map.Entry<Long, double[]> e : merged.entrySet()) {
      edges.add(new Topology.Edge((int) (e.getKey() / nodes.size()), (int) (e.getKey() % nodes.size()),
          (int) e.getValue()[0], (long) e.getValue()[1], e.getValue()[2]));
    }
    List<String> notes = new ArrayList<>();
    if (tree.height() <= 1) {
      notes.add("the trace has no hierarchy above its producers");
    }
    if (!topology) {
      notes.add("no platform topology in the trace: edges are its communications only");
    }
    if (!graph.capacities()) {
      notes.add("no capacity variables: size and fill from the metric");
    }
    for (String kind : new java.util.TreeSet<>(graph.fillByLargest())) {
      if (kindOf.contains(kind)) {
        notes.add(kind + " filled by its share of the largest " + kind);
      }
    }
    return new Topology(nodes, edges, graph.capacities(), labelHeight, String.join("; ", notes));
  }

  private static void checkCovered(ProducerTree tree, boolean[] cut) {
    int[] covered = new int[tree.leafCount()];
    for (int node = 0; node < tree.size(); node++) {
      if (cut[node]) {
        for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
          covered[leaf]++;
        }
      }
    }
    for (int leaf = 0; leaf < covered.length; leaf++) {
      if (covered[leaf] != 1) {
        throw new IllegalArgumentException("a cut must cover every leaf once; "
            + tree.name(tree.leafNode(leaf)) + " is covered " + covered[leaf] + " times");
      }
    }
  }

  /** Hosts are squares, network links diamonds, everything else (processes, threads) circles. */
  static Topology.Shape shape(String kind) {
    String k = kind.toUpperCase(Locale.ROOT);
    if (k.contains("HOST")) {
      return Topology.Shape.SQUARE;
    }
    if (k.contains("LINK")) {
      return Topology.Shape.DIAMOND;
    }
    return Topology.Shape.CIRCLE;
  }

  private static String path(ProducerTree tree, int node) {
    if (node == 0) {
      return tree.name(0);
    }
    StringBuilder path = new StringBuilder(tree.name(node));
    for (int n = tree.parent(node); n > 0; n = tree.parent(n)) {
      path.insert(0, tree.name(n) + "/");
    }
    return path.toString();
  }
}
