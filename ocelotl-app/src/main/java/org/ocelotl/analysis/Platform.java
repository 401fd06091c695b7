package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.model.Utilization;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelTree;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.PlatformGraph;
import org.ocelotl.view.TopologyGeometry;

/**
 * Reads a {@link PlatformGraph} off a trace for a built model: the model's producer tree, each
 * node's kind (its store container type), capacities and uses from the model's values, and the
 * edges from the store's links.
 */
final class Platform {
  /**
   * SimGrid's platform tracing names the link types of the topology after the enclosing zone's
   * container type and the two end types with their type ids ("0-HOST1-LINK5", "L1-LINK7-ROUTER6");
   * every such link is an edge of the platform, written once at time 0.
   */
  static final Pattern TOPOLOGY_TYPE = Pattern.compile("[A-Za-z0-9_]+-[A-Za-z_]+\\d+-[A-Za-z_]+\\d+");

  private Platform() {}

  /**
   * What a model's graph keeps whatever the window or step: each node's kind, the model leaf of
   * each store producer, the platform links between leaves and the positions they give.
   */
  record Layout(List<String> kinds, int[] leafOfProducer, List<PlatformGraph.Edge> links, double[][] positions) {}

  /** The layout of a model's graph: one scan of the trace's links, one force-directed layout. */
  static Layout layout(TraceStore store, BuiltModel built) {
    ProducerTree tree = built.model().tree();
    Map<String, Integer> modelNode = new HashMap<>();
    String[] modelPaths = new String[tree.size()];
    for (int node = 0; node < tree.size(); node++) {
      modelPaths[node] = node == 0 ? "" : join(modelPaths[tree.parent(node)], tree.name(node));
      modelNode.putIfAbsent(modelPaths[node], node);
    }
    List<StoreMetadata.Producer> producers = store.metadata().producers();
    String[] storePaths = new String[producers.size()];
    Map<String, String> kindOfPath = new HashMap<>();
    for (StoreMetadata.Producer p : producers) {
      storePaths[p.id()] = store.metadata().path(p.id());
      kindOfPath.put(storePaths[p.id()], p.kind());
    }
    List<String> kinds = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      String kind = kindOfPath.get(modelPaths[node]);
      if (kind == null && tree.name(node).endsWith(ModelTree.SELF)) {
        kind = kindOfPath.get(modelPaths[tree.parent(node)]);
      }
      kinds.add(kind == null ? "group" : kind);
    }
    int[] leafOfProducer = new int[producers.size()];
    for (StoreMetadata.Producer p : producers) {
      leafOfProducer[p.id()] = leafOf(tree, modelNode, producers, storePaths, p.id());
    }
    List<PlatformGraph.Edge> links = edges(store, leafOfProducer, true, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY);
    double[] none = new double[tree.leafCount()];
    double[][] positions = TopologyGeometry.positions(new PlatformGraph(tree, kinds, none, none, false, links));
    return new Layout(kinds, leafOfProducer, links, positions);
  }

  /** The graph of slices [first, last]: capacities and uses, the platform links and the messages sent then. */
  static PlatformGraph of(TraceStore store, BuiltModel built, Layout layout, NodeMapping mapping, int first,
      int last) {
    ProducerTree tree = built.model().tree();
    double[] capacity = new double[tree.leafCount()];
    double[] use = new double[tree.leafCount()];
    String[] capacityVariables = new String[tree.leafCount()];
    String[] useVariables = new String[tree.leafCount()];
    boolean capacities = capacities(built, layout.kinds(), mapping, first, last, capacity, use, capacityVariables,
        useVariables);
    List<PlatformGraph.Edge> messages = edges(store, layout.leafOfProducer(), false, built.grid().boundary(first),
        built.grid().boundary(last + 1));
    TreeMap<Long, PlatformGraph.Edge> pairs = new TreeMap<>();
    long leaves = tree.leafCount();
    for (PlatformGraph.Edge e : layout.links()) {
      pairs.put(e.a() * leaves + e.b(), e);
    }
    for (PlatformGraph.Edge e : messages) {
      pairs.merge(e.a() * leaves + e.b(), e, (x, y) -> new PlatformGraph.Edge(x.a(), x.b(), x.topology(), y.messages(),
          y.volume()));
    }
    java.util.Set<String> fillByLargest = new java.util.TreeSet<>();
    for (String kind : layout.kinds()) {
      if (!mapping.fillIsUseOfSize(kind)) {
        fillByLargest.add(kind);
      }
    }
    return new PlatformGraph(tree, layout.kinds(), capacity, use, capacities, List.copyOf(pairs.values()),
        List.of(capacityVariables), List.of(useVariables), fillByLargest);
  }

  /**
   * Capacity and use per leaf over the slices, time-integrated, and the variables each was read
   * from ("" where none): the variables the mapping names for the leaf's kind, else any capacity
   * and any use; false (metric totals, no variables named) without capacity or mapped variables.
   */
  private static boolean capacities(BuiltModel built, List<String> kinds, NodeMapping mapping, int first, int last,
      double[] capacity, double[] use, String[] capacityVariables, String[] useVariables) {
    MicroscopicModel model = built.model();
    List<String> types = model.types();
    boolean any = !mapping.isDefault() || types.stream().anyMatch(Utilization.CAPACITIES::contains);
    double width = built.grid().width();
    java.util.Arrays.fill(capacityVariables, "");
    java.util.Arrays.fill(useVariables, "");
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      String kind = kinds.get(model.tree().leafNode(leaf));
      String size = mapping.size().get(kind);
      String fill = mapping.fill().get(kind);
      for (int t = first; t <= last; t++) {
        for (int u = 0; u < types.size(); u++) {
          double v = model.value(leaf, t, u);
          String type = types.get(u);
          if (!any) {
            capacity[leaf] += v;
            use[leaf] += v;
            continue;
          }
          // A variable's mean over the slice × its width: the integral. One variable may be both.
          if (size != null ? type.equals(size) : Utilization.CAPACITIES.contains(type)) {
            capacity[leaf] += v * width;
            capacityVariables[leaf] = size != null ? size : v != 0 ? type : capacityVariables[leaf];
          }
          if (fill != null ? type.equals(fill) : Utilization.USES.contains(type)) {
            use[leaf] += v * width;
            useVariables[leaf] = fill != null ? fill : v != 0 ? type : useVariables[leaf];
          }
        }
      }
    }
    return any;
  }

  /**
   * Between leaves, each pair once: the platform links ({@code platform}, every one in the trace)
   * or the messages starting in [from, to) (only the chunks of the window are read).
   */
  private static List<PlatformGraph.Edge> edges(TraceStore store, int[] leafOfProducer, boolean platform, double from,
      double to) {
    Map<Integer, Boolean> topologyType = new HashMap<>();
    for (StoreMetadata.EventType t : store.metadata().types()) {
      topologyType.put(t.id(), TOPOLOGY_TYPE.matcher(t.name()).matches());
    }
    TreeMap<Long, double[]> pairs = new TreeMap<>();
    long leaves = leafOfProducer.length + 1L;
    store.scanLinks(from, to, (LinkColumns c) -> {
      for (int i = 0; i < c.size(); i++) {
        boolean topology = topologyType.getOrDefault(c.type()[i], false);
        if (topology != platform || !platform && !(c.start()[i] >= from && c.start()[i] < to)) {
          continue;
        }
        int a = leafOfProducer[c.from()[i]];
        int b = leafOfProducer[c.to()[i]];
        if (a < 0 || b < 0 || a == b) {
          continue;
        }
        double[] sums = pairs.computeIfAbsent(Math.min(a, b) * leaves + Math.max(a, b), k -> new double[3]);
        sums[topology ? 0 : 1]++;
        if (!topology && !Double.isNaN(c.volume()[i])) {
          sums[2] += c.volume()[i];
        }
      }
    });
    List<PlatformGraph.Edge> edges = new ArrayList<>();
    pairs.forEach((key, sums) -> edges.add(new PlatformGraph.Edge((int) (key / leaves), (int) (key % leaves),
        (int) sums[0], (long) sums[1], sums[2])));
    return edges;
  }

  /** The model leaf holding a store producer: its own, its synthetic self leaf, or its nearest ancestor's; -1 if none. */
  private static int leafOf(ProducerTree tree, Map<String, Integer> modelNode, List<StoreMetadata.Producer> producers,
      String[] storePaths, int producer) {
    for (int p = producer; p >= 0; p = producers.get(p).parent()) {
      Integer node = modelNode.get(storePaths[p]);
      if (node == null) {
        continue;
      }
      if (tree.isLeaf(node)) {
        return tree.firstLeaf(node);
      }
      Integer self = modelNode.get(join(storePaths[p], producers.get(p).name() + ModelTree.SELF));
      return self != null ? tree.firstLeaf(self) : -1;
    }
    return -1;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "/" + name;
  }
}
