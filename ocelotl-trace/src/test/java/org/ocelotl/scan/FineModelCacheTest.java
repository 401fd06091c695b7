package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.model.Metric;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Issue 18: one fine cache file per (metric, window, N) answers every producer and type filter
 * without touching the trace, and what it answers equals a fresh scan with that filter, cell for
 * cell, on real traces.
 */
class FineModelCacheTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"smpi_perturbed.trace.gz", "topology.trace", "smpi_sizes.trace"})
  void filteredModelsFromTheFineCacheEqualAFreshScan(String name) throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(Path.of("..", "examples", name),
        ImportOptions.DEFAULT, ImportProgress.NONE);
    StoreMetadata m = store.metadata();
    int checked = 0;
    for (Metric metric : org.ocelotl.model.BuiltInMetric.values()) {
      if (m.count(metric.category()) == 0 || !m.offers(metric)) {
        continue;
      }
      ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
      ModelRequest whole = ModelRequest.of(metric, 40);
      cache.build(store, whole);
      assertEquals(1, cache.scans(), metric + ": the fine model is scanned once");
      for (ModelRequest filtered : filters(store, whole)) {
        BuiltModel cached = cache.build(store, filtered);
        assertEquals(1, cache.scans(), metric + " " + filtered + ": answered from the fine cache");
        BuiltModel fresh = ModelBuilder.build(store, filtered);
        assertEquals(names(fresh.model().tree()), names(cached.model().tree()), metric + " " + filtered);
        assertEquals(fresh.model().types(), cached.model().types(), metric + " " + filtered);
        assertEquals(fresh.typeColours(), cached.typeColours(), metric + " " + filtered);
        assertTrue(cached.exact());
        double[] expected = fresh.model().values();
        double[] actual = cached.model().values();
        if (filtered.producers().depth() == 0) {
          // Every row is one producer's, as in the scan: the same sums, bit for bit.
          assertArrayEquals(expected, actual, metric + " " + filtered);
        } else {
          // A depth cut adds producers' sums: the scan adds records in store order, the cache
          // adds the producers' totals, so they agree up to the rounding of the additions.
          for (int c = 0; c < expected.length; c++) {
            assertEquals(expected[c], actual[c], 1e-12 * Math.abs(expected[c]), metric + " " + filtered + " cell " + c);
          }
        }
        checked++;
      }
      try (Stream<Path> files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
        assertEquals(1, files.filter(f -> f.getFileName().toString().startsWith(metric.cliName() + "-")).count(),
            metric + ": one cache file for every filter");
      }
    }
    assertTrue(checked >= 8, checked + " filtered models checked");
  }

  /** A filtered request scans the fine model (not itself) first; later filters hit it. */
  @ParameterizedTest
  @ValueSource(strings = {"smpi_perturbed.trace.gz"})
  void aFilteredRequestFirstStillLeavesTheFineModelCached(String name) throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(Path.of("..", "examples", name),
        ImportOptions.DEFAULT, ImportProgress.NONE);
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    List<ModelRequest> filters = filters(store, ModelRequest.of(Metric.STATE_DURATION, 25));
    for (ModelRequest filtered : filters) {
      assertArrayEquals(ModelBuilder.build(store, filtered).model().values(), cache.build(store, filtered).model().values(),
          1e-9, filtered.toString());
    }
    assertEquals(1, cache.scans());
    ModelRequest whole = ModelRequest.of(Metric.STATE_DURATION, 25);
    assertArrayEquals(ModelBuilder.build(store, whole).model().values(), cache.build(store, whole).model().values());
    assertEquals(1, cache.scans());
  }

  /** Type subsets, the first subtree included or excluded, depth cuts. */
  private static List<ModelRequest> filters(TraceStore store, ModelRequest whole) {
    StoreMetadata m = store.metadata();
    List<String> types = m.types().stream()
        .filter(t -> t.category() == whole.metric().category() && t.count() > 0).map(StoreMetadata.EventType::name)
        .distinct().toList();
    ProducerTree tree = ModelBuilder.build(store, whole).model().tree();
    String first = tree.name(tree.child(0, 0));
    List<ModelRequest> filters = new ArrayList<>();
    filters.add(whole.withTypes(List.of(types.get(0))));
    if (types.size() > 2) {
      filters.add(whole.withTypes(types.subList(1, types.size())));
    }
    filters.add(whole.withProducers(new ProducerSelection(List.of(first), List.of(), 0)));
    if (tree.childCount(0) > 1) {
      filters.add(whole.withProducers(new ProducerSelection(List.of(), List.of(first), 0)));
    }
    for (int depth = 1; depth < tree.height(); depth++) {
      filters.add(whole.withProducers(new ProducerSelection(List.of(), List.of(), depth)));
    }
    filters.add(whole.withProducers(new ProducerSelection(List.of(first), List.of(), 1)).withTypes(List.of(types.get(0))));
    return filters;
  }

  private static List<String> names(ProducerTree tree) {
    List<String> names = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      names.add(tree.name(node) + "<" + tree.parent(node));
    }
    return names;
  }
}
