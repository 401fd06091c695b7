package org.ocelotl.scan;

import org.ocelotl.aggregation.Work;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.format.paje.PajeReader;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Models built from imported real traces against independent references: pj_dump's state
 * totals (N = 1, whole trace), and cell by cell the definitions of SPEC.md §3 computed from
 * the trace as the Pajé reader parses it ({@link ReferenceModel}), for every metric the
 * trace has data for, windows that cut records, producer and type filters, and N up to 1000.
 */
class ModelBuilderReferenceTest {
  @TempDir static Path home;
  static Workspace workspace;
  private static final Map<String, TraceStore> STORES = new HashMap<>();
  // Only the last parsed trace is kept: cases come trace by trace, and keeping every parsed
  // trace as objects filled the test JVM's heap.
  private static String parsedName;
  private static MemoryTrace parsedTrace;

  @BeforeAll
  static void openWorkspace() throws IOException {
    workspace = Workspace.open(home);
  }

  static synchronized TraceStore store(String trace) throws IOException {
    TraceStore store = STORES.get(trace);
    if (store == null) {
      store = workspace.store(SharedTraces.file(trace), ImportOptions.DEFAULT, ImportProgress.NONE);
      STORES.put(trace, store);
    }
    return store;
  }

  static synchronized MemoryTrace parsed(String trace) throws IOException {
    if (!trace.equals(parsedName)) {
      parsedTrace = null;
      MemoryTrace memory = new MemoryTrace();
      new PajeReader().read(SharedTraces.file(trace), memory, ReadOptions.STRICT);
      parsedName = trace;
      parsedTrace = memory;
    }
    return parsedTrace;
  }

  // ---- N = 1, whole trace: state totals per (producer, state type) against pj_dump ----

  static Stream<String> dumpedTraces() throws IOException {
    Path paje = SharedTraces.dir().resolve("paje");
    try (Stream<Path> files = Files.walk(paje)) {
      return files.filter(f -> f.toString().endsWith(".trace"))
          .filter(f -> Files.exists(dump(f)))
          .filter(f -> !f.getFileName().toString().equals("native_paje.trace")) // pj_dump fails on it
          .map(f -> SharedTraces.dir().relativize(f).toString())
          .sorted().toList().stream();
    }
  }

  static Path dump(Path trace) {
    String name = trace.getFileName().toString();
    return name.startsWith("smpi") || name.startsWith("s4u")
        ? trace.resolveSibling(name.replace(".trace", ".pjdump.csv"))
        : trace.resolveSibling(name + ".dump");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dumpedTraces")
  void stateTotalsEqualPjDump(String trace) throws IOException {
    TraceStore store = store(trace);
    Map<String, double[]> expected = dumpTotals(dump(SharedTraces.file(trace)));
    if (store.metadata().count(EventCategory.STATE) == 0) {
      assertTrue(expected.isEmpty(), "pj_dump has states the store has not");
      return;
    }
    // pj_dump's totals are each state's whole time: inclusive.
    ModelRequest inclusive = ModelRequest.of(Metric.STATE_DURATION, 1).withInclusive(true);
    ModelPlan plan = ModelPlan.of(store, inclusive);
    BuiltModel built = ModelBuilder.build(store, inclusive);
    MicroscopicModel model = built.model();
    assertTrue(built.exact());
    // (producer name, group, value) → total; producers of one name are summed on both sides.
    Map<String, Double> actual = new HashMap<>();
    List<StoreMetadata.Producer> producers = store.metadata().producers();
    List<StoreMetadata.EventType> types = store.types();
    int[] leafOf = plan.tree().leafOf();
    for (StoreMetadata.Producer p : producers) {
      for (StoreMetadata.EventType t : types) {
        int u = plan.typeOf()[t.id()];
        if (leafOf[p.id()] >= 0 && u >= 0 && p.count(EventCategory.STATE) > 0) {
          actual.merge(p.name() + "|" + t.group() + "|" + t.name(), model.value(leafOf[p.id()], 0, u), Double::sum);
        }
      }
    }
    boolean rounded = dumpRoundsTimes(parsed(trace));
    for (Map.Entry<String, double[]> e : expected.entrySet()) {
      double want = e.getValue()[0];
      double states = e.getValue()[1];
      double got = actual.getOrDefault(e.getKey(), 0.0);
      // pj_dump prints dates with %f: exact for traces with microsecond dates, else 1e-6 per date.
      double tolerance = 1e-9 * Math.abs(want) + (rounded ? 1e-6 * states : 0);
      assertEquals(want, got, tolerance, trace + ": total of " + e.getKey());
    }
    for (Map.Entry<String, Double> e : actual.entrySet()) {
      if (!expected.containsKey(e.getKey())) {
        assertEquals(0, e.getValue(), trace + ": " + e.getKey() + " is not in pj_dump's output");
      }
    }
  }

  /** (container, type, value) → {Σ (end − start), number of states}, from the dump's State lines. */
  private static Map<String, double[]> dumpTotals(Path dump) throws IOException {
    Map<String, double[]> totals = new HashMap<>();
    for (String line : Files.readAllLines(dump)) {
      if (!line.startsWith("State,")) {
        continue;
      }
      String[] f = line.split(",\\s*", -1);
      // State, container, type, start, end, duration, imbrication, value
      String value = String.join(",", java.util.Arrays.copyOfRange(f, 7, f.length)).trim();
      double[] total = totals.computeIfAbsent(f[1].trim() + "|" + f[2].trim() + "|" + value, k -> new double[2]);
      total[0] += Double.parseDouble(f[4]) - Double.parseDouble(f[3]);
      total[1] += 1;
    }
    return totals;
  }

  private static boolean dumpRoundsTimes(MemoryTrace trace) {
    for (MemoryTrace.State s : trace.states) {
      if (Math.abs(Math.rint(s.start() * 1e6) / 1e6 - s.start()) > 1e-12
          || Math.abs(Math.rint(s.end() * 1e6) / 1e6 - s.end()) > 1e-12) {
        return true;
      }
    }
    return false;
  }

  // ---- N > 1: every cell against the definitions ----

  private static final String[] TRACES = {
      "paje/simgrid/smpi_small_grouped.trace", "paje/simgrid/smpi_small_flat.trace", "paje/simgrid/s4u_mw_small.trace",
      "paje/pajeng/states.trace", "paje/pajeng/gattaca.trace", "paje/pajeng/events.trace",
      "paje/pajeng/variables.trace", "paje/pajeng/links.trace", "paje/pajeng/g5k.trace",
      "paje/pajeng/simu-mardi.trace"};

  static Stream<Arguments> tracesAndMetrics() throws IOException {
    List<Arguments> cases = new ArrayList<>();
    for (String trace : TRACES) {
      StoreMetadata m = store(trace).metadata();
      for (Metric metric : org.ocelotl.model.BuiltInMetric.values()) {
        // The reference defines the record metrics; utilization, a ratio of two variables' means, is
        // held to exact values by UtilizationTest (ocelotl-app).
        if (m.offers(metric) && metric != Metric.UTILIZATION) {
          cases.add(Arguments.of(trace, metric));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("tracesAndMetrics")
  void everyCellEqualsTheDefinition(String trace, Metric metric) throws IOException {
    TraceStore store = store(trace);
    MemoryTrace memory = parsed(trace);
    StoreMetadata m = store.metadata();
    double t0 = m.start();
    double span = m.end() - m.start();
    // SPEC.md §3's definitions count a nested state at its own type only: inclusive time. Exclusive
    // time is held to a brute force by ExclusiveTimeTest, and to the statistics by ExclusiveModelTest.
    ModelRequest whole = ModelRequest.of(metric, 1).withInclusive(true);
    List<ModelRequest> requests = new ArrayList<>();
    for (int n : new int[] {1, 7, 100, 1000}) {
      requests.add(whole.withSlices(n));
    }
    // Windows that cut records, one ending past the trace.
    requests.add(whole.withSlices(13).withWindow(t0 + 0.137 * span, t0 + 0.71 * span));
    requests.add(whole.withSlices(50).withWindow(t0 + 0.5 * span, t0 + 1.3 * span));
    requests.add(whole.withSlices(3).withWindow(t0 + 0.4 * span, t0 + 0.4001 * span));
    requests.addAll(filtered(store, whole.withSlices(20).withWindow(t0 + 0.05 * span, t0 + 0.95 * span)));
    int checked = 0;
    for (ModelRequest request : requests) {
      ModelPlan plan = ModelPlan.of(store, request);
      double[] expected = ReferenceModel.cells(memory, plan);
      for (int threads : new int[] {1, 2, 5}) {
        BuiltModel built = model(store, plan, threads);
        assertCells(trace + " " + request + " threads " + threads, plan, expected, built.model().values());
      }
      checked += expected.length;
    }
    assertTrue(checked > 0);
  }

  private static BuiltModel model(TraceStore store, ModelPlan plan, int threads) {
    return ModelBuilder.model(plan, ModelBuilder.scan(store, plan, threads, Work.NONE), true);
  }

  /** Producer and type filters built from what the trace holds: a subtree, an exclusion, a depth cut, a type, a group. */
  private static List<ModelRequest> filtered(TraceStore store, ModelRequest base) {
    StoreMetadata m = store.metadata();
    EventCategory category = base.metric().category();
    List<ModelRequest> requests = new ArrayList<>();
    ModelPlan all = ModelPlan.of(store, base);
    List<StoreMetadata.Producer> emitting = m.producers().stream()
        .filter(p -> p.count(category) > 0 && all.tree().leafOf()[p.id()] >= 0).toList();
    String leafName = all.tree().tree().name(all.tree().tree().leafNode(all.leaves() - 1));
    if (all.leaves() > 1) {
      requests.add(base.withProducers(new ProducerSelection(List.of(), List.of(leafName), 0)));
    }
    StoreMetadata.Producer some = emitting.get(emitting.size() / 2);
    if (some.parent() > 0) {
      StoreMetadata.Producer parent = m.producers().get(some.parent());
      String name = m.producers().stream().filter(p -> p.name().equals(parent.name())).count() == 1 ? parent.name() : null;
      if (name != null) {
        requests.add(base.withProducers(new ProducerSelection(List.of(name), List.of(), 0)));
      }
    }
    if (all.tree().tree().height() > 1) {
      requests.add(base.withProducers(new ProducerSelection(List.of(), List.of(), 1)));
    }
    List<StoreMetadata.EventType> types = m.types().stream().filter(t -> t.category() == category && t.count() > 0).toList();
    requests.add(base.withTypes(List.of(types.get(types.size() - 1).name())));
    if (types.get(0).group() != null) {
      requests.add(base.withTypes(List.of(types.get(0).group())));
    }
    return requests;
  }

  static void assertCells(String what, ModelPlan plan, double[] expected, double[] actual) {
    assertEquals(expected.length, actual.length, what + ": cells");
    SliceGrid grid = plan.grid();
    int n = grid.slices();
    int types = plan.types();
    for (int c = 0; c < expected.length; c++) {
      double tolerance = plan.metric() == Metric.EVENT_COUNT || plan.metric() == Metric.LINK_COUNT ? 0
          : 1e-9 * Math.abs(expected[c]) + 1e-12 * grid.width();
      if (Math.abs(expected[c] - actual[c]) > tolerance) {
        int u = c % types;
        int k = c / types % n;
        int leaf = c / types / n;
        fail(what + ": producer " + plan.tree().tree().name(plan.tree().tree().leafNode(leaf)) + ", slice " + k
            + " [" + grid.boundary(k) + ", " + grid.boundary(k + 1) + "), type " + plan.typeNames().get(u)
            + ": expected " + expected[c] + ", found " + actual[c]);
      }
    }
    assertFalse(expected.length == 0, what);
  }
}
