package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.Metrics;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * What a trace holds, as {@code ocelotl info --json} and {@code GET /api/traces/ID} both answer it
 * (docs/cli.md holds the contract): one description, serialised by Jackson in the order of its
 * components.
 *
 * @param id            the store's directory name: what a web client names the trace by
 * @param producerKinds producers per kind (container type), by kind name
 * @param metrics       the metrics this trace can show: no menu entry that can only fail
 */
public record TraceDescription(String id, String name, String path, String format, long size, double start,
    double origin, double end, String unit, long states, long events, long variables, long links, long producers, long leaves,
    long depth, List<KindCount> producerKinds, List<String> metrics, List<TypeRow> types, List<String> warnings) {

  public record KindCount(String kind, long count) {}

  /** An event type; {@code group} is the format's type holding it (a Pajé state type) or null. */
  public record TypeRow(long id, String name, String category, long count, String group, String color) {}

  /** A producer, with the path the filters use (names from below the root joined by '/'). */
  public record ProducerRow(long id, String name, String path, long parent, long depth, String kind) {}

  public static TraceDescription of(TraceStore store) {
    StoreMetadata m = store.metadata();
    Map<String, Long> kinds = new TreeMap<>();
    for (StoreMetadata.Producer p : m.producers()) {
      kinds.merge(p.kind() == null ? "" : p.kind(), 1L, Long::sum);
    }
    List<KindCount> kindCounts = new ArrayList<>();
    kinds.forEach((kind, count) -> kindCounts.add(new KindCount(kind, count)));
    List<String> metrics = new ArrayList<>();
    for (Metric metric : Metrics.all()) {
      if (m.offers(metric)) {
        metrics.add(metric.cliName());
      }
    }
    return new TraceDescription(TraceSummary.id(store), m.name(), m.source().path(), m.source().format(),
        SourceFile.readingSize(m.source()), m.start(), m.origin(), m.end(), m.timeUnit(), m.count(EventCategory.STATE), m.count(EventCategory.EVENT),
        m.count(EventCategory.VARIABLE), m.count(EventCategory.LINK), m.producers().size(), store.tree().leafCount(),
        store.tree().height(), kindCounts, metrics, types(m), m.warnings());
  }

  public static List<TypeRow> types(StoreMetadata m) {
    return m.types().stream().map(t -> new TypeRow(t.id(), t.name(), t.category().name().toLowerCase(Locale.ROOT),
        t.count(), t.group(), t.color())).toList();
  }

  /** The producers in depth-first order, parents first, children in the order they were created. */
  public static List<ProducerRow> producers(StoreMetadata m) {
    List<StoreMetadata.Producer> all = m.producers();
    List<List<Integer>> children = new ArrayList<>();
    all.forEach(p -> children.add(new ArrayList<>()));
    int root = -1;
    for (StoreMetadata.Producer p : all) {
      if (p.parent() < 0) {
        root = p.id();
      } else {
        children.get(p.parent()).add(p.id());
      }
    }
    List<ProducerRow> rows = new ArrayList<>();
    int[] depths = new int[all.size()];
    ArrayList<Integer> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      int id = stack.remove(stack.size() - 1);
      StoreMetadata.Producer p = all.get(id);
      if (p.parent() >= 0) {
        depths[id] = depths[p.parent()] + 1;
      }
      rows.add(new ProducerRow(id, p.name(), m.path(id), p.parent(), depths[id], p.kind()));
      List<Integer> kids = children.get(id);
      for (int k = kids.size() - 1; k >= 0; k--) {
        stack.add(kids.get(k));
      }
    }
    return rows;
  }
}
