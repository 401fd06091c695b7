package org.ocelotl.scan;

import org.ocelotl.aggregation.HeapBudget;
import org.ocelotl.model.Metric;
import org.ocelotl.model.Utilization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * A {@link ModelRequest} resolved against one store: the window and its grid, the model's
 * producer tree and types, and where each store producer and type lands. Every bad parameter
 * is refused here, before any scan, with a message for the user.
 *
 * @param inclusive the state metrics' inclusive time rather than exclusive ({@link ModelRequest#inclusive})
 * @param key what identifies the model's rows and columns whatever the spelling of the
 *            filters: the metric (with its time kind for the state metrics) and a hash of the
 *            resolved tree and type mapping (the model cache's key)
 */
record ModelPlan(Metric metric, boolean inclusive, SliceGrid grid, ModelTree tree, int[] typeOf,
    List<String> typeNames, List<String> typeColours, String timeUnit, String key) {

  static ModelPlan of(TraceStore store, ModelRequest request) {
    return of(store.metadata(), request);
  }

  /** The plan on a store's metadata alone: what an engine that reads the records elsewhere (Spark) plans with. */
  static ModelPlan of(StoreMetadata m, ModelRequest request) {
    if (request.producers().depth() == ProducerSelection.AUTO_DEPTH) {
      throw new IllegalArgumentException("resolve an automatic depth (ModelBuilder.withDepthFor) before planning a model");
    }
    Metric metric = request.metric();
    EventCategory category = metric.category();
    if (m.count(category) == 0) {
      throw new IllegalArgumentException("the trace " + m.name() + " has no "
          + StoreMetadata.categoryName(category) + ": the " + metric.cliName() + " metric needs them");
    }
    if (!m.offers(metric)) {
      throw new IllegalArgumentException(metric == Metric.UTILIZATION
          ? "the trace " + m.name() + " has no capacity variable with its use (speed and speed_used, bandwidth and "
              + "bandwidth_used…): the " + metric.cliName() + " metric needs them"
          : "the trace " + m.name() + " gives no link a volume (a Pajé Size field, an OTF2 message length): the "
              + metric.cliName() + " metric needs them");
    }
    SliceGrid grid = grid(m, request);
    ModelTree tree = tree(m, category, request.producers());
    List<StoreMetadata.EventType> types = types(m, category, metric == Metric.UTILIZATION
        ? utilizationVariables(m, request.types()) : request.types());
    int[] typeOf = new int[m.types().size()];
    Arrays.fill(typeOf, -1);
    for (int u = 0; u < types.size(); u++) {
      typeOf[types.get(u).id()] = u;
    }
    checkSize(metric, tree.tree().leafCount(), grid.slices(), types.size());
    List<String> names = typeNames(types);
    List<String> colours = types.stream().map(StoreMetadata.EventType::color).toList();
    return new ModelPlan(metric, request.inclusive(), grid, tree, typeOf, names, colours, m.timeUnit(),
        key(metric, request, tree, typeOf, names));
  }

  /** A model too large for one array, or for this JVM's memory, is refused before it is allocated. */
  static void checkSize(Metric metric, int leaves, int slices, int types) {
    long cells = (long) leaves * slices * types;
    long bytes = cells * Double.BYTES * (ModelSums.arrayCount(metric) + (metric == Metric.STATE_DURATION ? 0 : 1));
    long available = Runtime.getRuntime().maxMemory();
    if (cells > Integer.MAX_VALUE - 8 || bytes > available) {
      throw new IllegalArgumentException(String.format(
          "a model of %,d producers × %,d slices × %,d types needs %,d MB, more than the %,d MB this JVM may use: "
              + "ask for fewer slices, a depth cut (--depth) or fewer types", leaves, slices, types, bytes >> 20,
          available >> 20));
    }
    HeapBudget.reserve(bytes, String.format("a model of %,d producers × %,d slices × %,d types", leaves, slices, types));
  }

  ModelLayout layout() {
    return new ModelLayout(tree.leafOf(), typeOf, tree.tree().leafCount(), typeNames.size(), grid);
  }

  int leaves() {
    return tree.tree().leafCount();
  }

  int types() {
    return typeNames.size();
  }

  /** The plan of the same model on another grid (a rebuild's target or source). */
  ModelPlan withGrid(SliceGrid other) {
    return new ModelPlan(metric, inclusive, other, tree, typeOf, typeNames, typeColours, timeUnit, key);
  }

  private static SliceGrid grid(StoreMetadata m, ModelRequest request) {
    double from = Double.isNaN(request.from()) ? m.start() : request.from();
    double to = Double.isNaN(request.to()) ? m.windowEnd() : request.to();
    m.checkWindow(from, to);
    return new SliceGrid(from, to, request.slices());
  }

  private static ModelTree tree(StoreMetadata m, EventCategory category, ProducerSelection selection) {
    List<StoreMetadata.Producer> producers = m.producers();
    int n = producers.size();
    String[] names = new String[n];
    int[] parents = new int[n];
    long[] own = new long[n];
    for (StoreMetadata.Producer p : producers) {
      names[p.id()] = p.name();
      parents[p.id()] = p.parent();
      own[p.id()] = p.count(category);
    }
    ModelTree tree = ModelTree.of(names, parents, own, selection);
    boolean any = false;
    for (int p = 0; p < n && !any; p++) {
      any = tree.leafOf()[p] >= 0 && own[p] > 0;
    }
    if (!any) {
      throw new IllegalArgumentException("no selected producer has "
          + StoreMetadata.categoryName(category) + " in the trace " + m.name());
    }
    return tree;
  }

  /** What a utilization model reads: each capacity and its use that the filter names (either one), or all. */
  private static List<String> utilizationVariables(StoreMetadata m, List<String> filter) {
    List<String> present = m.recordedVariables();
    List<String> kept = Utilization.variables(present, filter);
    if (kept.isEmpty()) {
      throw new IllegalArgumentException("the utilization metric needs a capacity and its use (" + pairs()
          + ")" + (filter.isEmpty() ? "" : " among the types kept (" + String.join(", ", filter) + ")")
          + "; the trace " + m.name() + " has " + (present.isEmpty() ? "no variables" : "the variables "
          + String.join(", ", present.stream().distinct().toList())));
    }
    return kept;
  }

  private static String pairs() {
    List<String> pairs = new java.util.ArrayList<>();
    for (int i = 0; i < Utilization.CAPACITIES.size(); i++) {
      pairs.add(Utilization.CAPACITIES.get(i) + " and " + Utilization.USES.get(i));
    }
    return String.join(", ", pairs);
  }

  /** The category's types with records, in store order, kept when a filter names them or their group. */
  private static List<StoreMetadata.EventType> types(StoreMetadata m, EventCategory category, List<String> filter) {
    List<StoreMetadata.EventType> candidates = m.types().stream()
        .filter(t -> t.category() == category && t.count() > 0).toList();
    if (filter.isEmpty()) {
      return candidates;
    }
    Set<StoreMetadata.EventType> kept = new LinkedHashSet<>();
    for (String wanted : filter) {
      List<StoreMetadata.EventType> matches = candidates.stream()
          .filter(t -> wanted.equals(t.name()) || wanted.equals(t.group()) || wanted.equals(t.group() + "/" + t.name()))
          .toList();
      if (matches.isEmpty()) {
        throw new IllegalArgumentException("unknown " + singular(category) + " type '" + wanted
            + "'; the trace's " + singular(category) + " types with records are: " + describe(candidates));
      }
      kept.addAll(matches);
    }
    return candidates.stream().filter(kept::contains).toList();
  }

  private static String singular(EventCategory category) {
    return switch (category) {
      case STATE -> "state";
      case EVENT -> "event";
      case VARIABLE -> "variable";
      case LINK -> "link";
    };
  }

  private static String describe(List<StoreMetadata.EventType> types) {
    Map<String, List<String>> byGroup = new java.util.LinkedHashMap<>();
    for (StoreMetadata.EventType t : types) {
      byGroup.computeIfAbsent(t.group() == null ? "" : t.group(), g -> new ArrayList<>()).add(t.name());
    }
    List<String> parts = new ArrayList<>();
    byGroup.forEach((group, names) -> parts.add(group.isEmpty() ? String.join(", ", names)
        : group + " (" + String.join(", ", names) + ")"));
    return String.join("; ", parts);
  }

  /** Type names, qualified as "group/name" where a name repeats in several groups. */
  private static List<String> typeNames(List<StoreMetadata.EventType> types) {
    Map<String, Integer> counts = new HashMap<>();
    for (StoreMetadata.EventType t : types) {
      counts.merge(t.name(), 1, Integer::sum);
    }
    return types.stream().map(t -> counts.get(t.name()) > 1 && t.group() != null ? t.group() + "/" + t.name() : t.name())
        .toList();
  }

  private static String key(Metric metric, ModelRequest request, ModelTree tree, int[] typeOf,
      List<String> typeNames) {
    StringBuilder text = new StringBuilder();
    ProducerTree t = tree.tree();
    for (int node = 0; node < t.size(); node++) {
      text.append(t.name(node)).append('\u0000').append(t.parent(node)).append('\u0000');
    }
    text.append(Arrays.toString(tree.leafOf())).append(Arrays.toString(typeOf)).append(typeNames);
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
      // A plug-in's version in the key: files its older code cached are never read as its own. A
      // built-in state metric's two times are two models: the name says which (file names and headers too).
      String name = metric instanceof PluginMetric plugin ? metric.cliName() + "-v" + plugin.version() : metric.cliName();
      String kind = ModelRequest.timed(metric) ? "-" + request.time() : "";
      return name + kind + "-" + HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
