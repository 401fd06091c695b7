package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * One contract for every source of a model, on a real trace (SimGrid's smpi_small_grouped: a
 * hierarchy, states, variables, links) and a table of requests over every metric it can serve,
 * windows, N and filters:
 * <ul>
 *   <li>a fresh scan ({@link ModelBuilder#build});
 *   <li>an exact hit of the model cache, read back from its file by another cache: bit for bit
 *       the fresh scan, marked exact, no scan;
 *   <li>an approximate rebuild from a cached finer model whose slices straddle the new ones:
 *       marked approximate, and equal to an independent proportional split of the finer model
 *       written here (to 1e-12 of the largest value: the summation order differs). The state
 *       average is left out of this comparison: it splits counts of states, not values.
 * </ul>
 */
class ModelSourceContractTest {
  @TempDir static Path dir;
  static TraceStore store;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(dir.resolve("ws")).store(SharedTraces.file("paje/simgrid/smpi_small_grouped.trace"),
        ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  static Stream<Arguments> requests() {
    ProducerSelection rennes = new ProducerSelection(List.of("rennes"), List.of(), 0);
    ProducerSelection hosts = new ProducerSelection(List.of(), List.of("nancy"), 3);
    return Stream.of(
        Arguments.of(new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN, 20, ProducerSelection.ALL, List.of(), true)),
        Arguments.of(new ModelRequest(Metric.STATE_DURATION, 0.1, 0.45, 13, rennes, List.of(), true)),
        Arguments.of(new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN, 7, hosts, List.of("PMPI_Waitall", "computing"), true)),
        Arguments.of(new ModelRequest(Metric.STATE_AVERAGE, Double.NaN, Double.NaN, 11, ProducerSelection.ALL, List.of(), true)),
        Arguments.of(new ModelRequest(Metric.VARIABLE_MEAN, Double.NaN, Double.NaN, 9, ProducerSelection.ALL, List.of("speed_used"), true)),
        Arguments.of(new ModelRequest(Metric.LINK_COUNT, 0.05, 0.6, 10, ProducerSelection.ALL, List.of(), true)));
  }

  @ParameterizedTest
  @MethodSource("requests")
  void everySourceGivesTheContractsModel(ModelRequest request) throws IOException {
    Path storeCopy = copyOfStore(request);
    TraceStore own = TraceStore.open(storeCopy);
    BuiltModel fresh = ModelBuilder.build(own, request);
    assertTrue(fresh.exact());

    new ModelCache(64 << 20).build(own, request); // scanned and written
    ModelCache another = new ModelCache(64 << 20);
    BuiltModel hit = another.build(own, request);
    assertEquals(0, another.scans(), "an exact hit reads the file, no scan");
    assertTrue(hit.exact());
    assertArrayEquals(fresh.model().values(), hit.model().values(), "exact hit = fresh scan, bit for bit");

    if (request.metric() == Metric.STATE_AVERAGE) {
      return;
    }
    int fineSlices = request.slices() * 10 + 3; // no new boundary falls on an old one
    ModelRequest fineRequest = request.withSlices(fineSlices);
    own = TraceStore.open(copyOfStore(request)); // a cache that holds the fine model only
    ModelCache cache = new ModelCache(64 << 20);
    BuiltModel fine = cache.build(own, fineRequest);
    BuiltModel rebuilt = cache.build(own, request.withExact(false));
    assertEquals(1, cache.scans(), "the coarse model is rebuilt from the fine one, not scanned");
    assertFalse(rebuilt.exact(), "a proportional split is approximate and says so");
    double[] expected = proportionalSplit(fine, request.slices());
    double[] actual = rebuilt.model().values();
    double largest = 0;
    for (double v : expected) {
      largest = Math.max(largest, Math.abs(v));
    }
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], 1e-12 * largest, request + " cell " + i);
    }
  }

  /**
   * Each fine slice's content shared among the coarse slices it overlaps, in proportion to the
   * overlap; a mean (variables) is spread as value × time and divided by the coarse width again.
   */
  static double[] proportionalSplit(BuiltModel fine, int slices) {
    MicroscopicModel m = fine.model();
    SliceGrid f = fine.grid();
    SliceGrid c = new SliceGrid(f.start(), f.end(), slices);
    boolean mean = fine.metric() == Metric.VARIABLE_MEAN;
    double[] out = new double[m.leaves() * slices * m.typeCount()];
    for (int leaf = 0; leaf < m.leaves(); leaf++) {
      for (int t = 0; t < m.slices(); t++) {
        double a = f.boundary(t);
        double b = f.boundary(t + 1);
        for (int k = 0; k < slices; k++) {
          double overlap = Math.min(b, c.boundary(k + 1)) - Math.max(a, c.boundary(k));
          if (overlap <= 0) {
            continue;
          }
          for (int u = 0; u < m.typeCount(); u++) {
            double v = m.value(leaf, t, u);
            double share = mean ? v * overlap / (c.boundary(k + 1) - c.boundary(k)) : v * overlap / (b - a);
            out[(leaf * slices + k) * m.typeCount() + u] += share;
          }
        }
      }
    }
    return out;
  }

  private static int copies;

  /** Each request on its own copy of the store: one model cache directory each. */
  private static Path copyOfStore(ModelRequest request) throws IOException {
    Path copy = dir.resolve("copy-" + copies++);
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(store.directory())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    return copy;
  }
}
