package org.ocelotl.scan;

import org.ocelotl.model.Metric;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.store.TraceStore;

class ModelCacheTest {
  @TempDir Path tmp;
  TraceStore store;
  SliceGrid whole;

  @BeforeEach
  void writeStore() throws IOException {
    store = SyntheticStore.write(tmp.resolve("store"), 7, 24, 3, 4, 30_000, 1000);
    whole = new SliceGrid(store.metadata().start(), store.metadata().end(), 1);
  }

  private static double[] rescan(TraceStore store, ModelRequest request) {
    return ModelBuilder.build(store, request).model().values();
  }

  private List<Path> cacheFiles() throws IOException {
    Path dir = store.directory().resolve(ModelCache.DIRECTORY);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".model")).sorted().toList();
    }
  }

  @Test
  void aHitOnTheSameGridIsBitIdenticalToARescan() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    for (Metric metric : org.ocelotl.model.BuiltInMetric.values()) {
      if (metric.category() == org.ocelotl.model.EventCategory.LINK || metric == Metric.UTILIZATION) {
        continue; // the synthetic trace has no links, nor a capacity with its use
      }
      ModelRequest request = ModelRequest.of(metric, 200).withWindow(100.5, 900.25);
      BuiltModel first = cache.build(store, request);
      long scans = cache.scans();
      BuiltModel second = cache.build(store, request.withExact(true));
      assertEquals(scans, cache.scans(), metric + ": served from the cache");
      assertTrue(first.exact() && second.exact(), metric.toString());
      assertArrayEquals(rescan(store, request), second.model().values(), metric + ": bit-identical");
      if (metric.category() == org.ocelotl.model.EventCategory.STATE) {
        assertEquals(List.of("0 0 0", "1 0 0", "2 0 0", "3 0 0"), second.typeColours());
      }
    }
  }

  @Test
  void alignedCoarserAndSubWindowRebuildsAreExact() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    double t0 = store.metadata().start();
    double t1 = store.metadata().end();
    SliceGrid fine = new SliceGrid(t0, t1, 1000);
    for (Metric metric : List.of(Metric.STATE_DURATION, Metric.STATE_AVERAGE, Metric.EVENT_COUNT, Metric.VARIABLE_MEAN)) {
      cache.build(store, ModelRequest.of(metric, 1000));
      long scans = cache.scans();
      for (ModelRequest request : List.of(ModelRequest.of(metric, 100), ModelRequest.of(metric, 8),
          ModelRequest.of(metric, 50).withWindow(fine.boundary(200), fine.boundary(600)))) {
        assertTrue(Rebinning.of(fine, ModelPlan.of(store, request).grid()).exact(), "the test's grids align");
        BuiltModel rebuilt = cache.build(store, request);
        assertEquals(scans, cache.scans(), metric + " " + request + ": rebuilt, not scanned");
        assertTrue(rebuilt.exact(), metric + " " + request);
        double[] expected = rescan(store, request);
        double[] actual = rebuilt.model().values();
        if (metric == Metric.EVENT_COUNT) {
          assertArrayEquals(expected, actual, "counts are exact sums: bit-identical");
        } else {
          // Same real sums, cut at the same instants, added in another order: equal up to the
          // rounding of times (an ulp of the trace's end per added piece).
          double width = rebuilt.grid().width();
          for (int c = 0; c < expected.length; c++) {
            assertEquals(expected[c], actual[c], 1e-12 * (Math.abs(expected[c]) + width),
                metric + " " + request + " cell " + c);
          }
        }
      }
    }
  }

  @Test
  void approximateRebuildsAreFlaggedAndWithinTheSplitError() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    SliceGrid fine = new SliceGrid(store.metadata().start(), store.metadata().end(), 1000);
    for (Metric metric : List.of(Metric.STATE_DURATION, Metric.EVENT_COUNT)) {
      BuiltModel fineModel = cache.build(store, ModelRequest.of(metric, 1000));
      long scans = cache.scans();
      ModelRequest request = ModelRequest.of(metric, 30).withWindow(fine.boundary(10) + 0.3, fine.boundary(990) - 0.1);
      BuiltModel approximate = cache.build(store, request);
      assertEquals(scans, cache.scans(), "rebuilt, not scanned");
      assertFalse(approximate.exact(), "straddled slices make it approximate");
      // A target cell can be wrong by at most the content of the fine slices it splits.
      SliceGrid target = approximate.grid();
      double[] expected = rescan(store, request);
      double[] fineValues = fineModel.model().values();
      int types = approximate.model().typeCount();
      for (int leaf = 0; leaf < approximate.model().leaves(); leaf++) {
        for (int k = 0; k < target.slices(); k++) {
          for (int u = 0; u < types; u++) {
            double bound = 0;
            for (double edge : new double[] {target.boundary(k), target.boundary(k + 1)}) {
              int j = fine.sliceOf(edge);
              if (fine.boundary(j) != edge) {
                bound += fineValues[(leaf * 1000 + j) * types + u];
              }
            }
            int c = (leaf * target.slices() + k) * types + u;
            assertEquals(expected[c], approximate.model().values()[c], bound + 1e-9 * expected[c],
                metric + " leaf " + leaf + " slice " + k + " type " + u);
          }
        }
      }
      BuiltModel exact = cache.build(store, request.withExact(true));
      assertEquals(scans + 1, cache.scans(), "exact demanded: scanned");
      assertTrue(exact.exact());
      assertArrayEquals(expected, exact.model().values());
    }
  }

  @Test
  void modelsServedFromTheCacheShareNoArrays() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    ModelRequest request = ModelRequest.of(Metric.STATE_DURATION, 40);
    double[] scanned = cache.build(store, request).model().values().clone();
    cache.build(store, request.withSlices(20)); // reads the file into memory
    double[] first = cache.build(store, request).model().values();
    java.util.Arrays.fill(first, 7.0); // a careless caller
    assertArrayEquals(scanned, cache.build(store, request).model().values());
    assertEquals(1, cache.scans());
  }

  @Test
  void anApproximationNeedsTenCachedSlicesPerSlice() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 100));
    double w = (store.metadata().end() - store.metadata().start()) / 100;
    assertFalse(cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 9).withWindow(0.5 * w, 91 * w)).exact());
    assertEquals(1, cache.scans(), "10.05 cached slices per slice: rebuilt approximately");
    assertTrue(cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 10).withWindow(0.5 * w, 91 * w)).exact());
    assertEquals(2, cache.scans(), "fewer: scanned");
    assertTrue(cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 50)).exact());
    assertEquals(2, cache.scans(), "aligned: exact whatever the ratio");
  }

  @Test
  void aCoarserCachedModelIsNeverUsedForAFinerGrid() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 10));
    BuiltModel finer = cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 100));
    assertEquals(2, cache.scans());
    assertTrue(finer.exact());
  }

  @Test
  void everyFilterIsAnsweredFromTheOneFineFile() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    ModelRequest all = ModelRequest.of(Metric.STATE_DURATION, 50);
    cache.build(store, all);
    cache.build(store, all.withTypes(List.of("STATE"))); // the group: every type
    assertEquals(1, cache.scans());
    BuiltModel one = cache.build(store, all.withTypes(List.of("state-2")));
    assertEquals(1, cache.scans());
    assertEquals(1, cacheFiles().size());
    assertEquals(List.of("state-2"), one.model().types());
    assertArrayEquals(rescan(store, all.withTypes(List.of("state-2"))), one.model().values());
  }

  /** A finest model larger than the cache's limit is not kept: the filtered one is, alone. */
  @Test
  void aFilteredModelIsScannedAloneWhenTheFineOneWouldNotFit() throws IOException {
    ModelRequest one = ModelRequest.of(Metric.STATE_DURATION, 50).withTypes(List.of("state-2"));
    long fineBytes = (long) rescan(store, ModelRequest.of(Metric.STATE_DURATION, 50)).length * Double.BYTES;
    ModelCache cache = new ModelCache(fineBytes - 1);
    BuiltModel first = cache.build(store, one);
    BuiltModel second = cache.build(store, one);
    assertEquals(1, cache.scans());
    assertEquals(1, cacheFiles().size());
    assertArrayEquals(rescan(store, one), first.model().values());
    assertArrayEquals(rescan(store, one), second.model().values());
  }

  @Test
  void theLeastRecentlyUsedModelsAreEvictedAtTheLimit() throws IOException, InterruptedException {
    ModelRequest a = ModelRequest.of(Metric.STATE_DURATION, 100);
    ModelCache probe = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    probe.build(store, a);
    long size = Files.size(cacheFiles().get(0));
    Files.delete(cacheFiles().get(0));
    // Room for two files of this size (the three requests below make files of equal size).
    ModelCache cache = new ModelCache(2 * size + size / 2);
    ModelRequest b = a.withWindow(10, 500);
    ModelRequest c = a.withWindow(20, 600);
    cache.build(store, a);
    Thread.sleep(20);
    cache.build(store, b);
    Thread.sleep(20);
    cache.build(store, a.withExact(true)); // a hit: a is now more recent than b
    assertEquals(2, cache.scans());
    Thread.sleep(20);
    cache.build(store, c);
    assertEquals(2, cacheFiles().size(), "the limit holds two files");
    cache.build(store, a.withExact(true));
    assertEquals(3, cache.scans(), "a stayed");
    cache.build(store, b.withExact(true));
    assertEquals(4, cache.scans(), "b was evicted");
    long total = 0;
    for (Path file : cacheFiles()) {
      total += Files.size(file);
    }
    assertTrue(total <= cache.limitBytes(), total + " bytes over the limit " + cache.limitBytes());
  }

  @Test
  void aModelLargerThanTheLimitIsNotCached() throws IOException {
    ModelCache cache = new ModelCache(1000);
    cache.build(store, ModelRequest.of(Metric.STATE_DURATION, 100));
    assertEquals(List.of(), cacheFiles());
  }

  @Test
  void cacheFilesOfAnotherImportOrDamagedOnesAreDroppedAndRescanned() throws IOException {
    ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
    ModelRequest request = ModelRequest.of(Metric.STATE_DURATION, 100);
    cache.build(store, request);
    // The same records imported from a changed file: another source identity.
    TraceStore reimported = SyntheticStore.write(tmp.resolve("again"), 7, 24, 3, 4, 30_000, 1000);
    assertFalse(ModelCache.identity(store.metadata().source()) == ModelCache.identity(reimported.metadata().source()));
    Path copied = reimported.directory().resolve(ModelCache.DIRECTORY);
    Files.createDirectories(copied);
    Path stale = copied.resolve(cacheFiles().get(0).getFileName());
    Files.copy(cacheFiles().get(0), stale);
    cache.build(reimported, request);
    assertEquals(2, cache.scans(), "a file of another import is not used");
    // Damage: cut the file short; the cache drops it and scans again.
    Path file = cacheFiles().get(0);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 8));
    BuiltModel again = cache.build(store, request.withExact(true));
    assertEquals(3, cache.scans());
    assertArrayEquals(rescan(store, request), again.model().values());
    assertEquals(1, cacheFiles().size(), "rewritten whole");
    assertEquals(bytes.length, Files.size(cacheFiles().get(0)));
  }

  @Test
  void theLimitComesFromTheEnvironmentInMiB() {
    assertEquals(ModelCache.DEFAULT_LIMIT_BYTES, ModelCache.limitFrom(Map.of()));
    assertEquals(3L << 20, ModelCache.limitFrom(Map.of(ModelCache.LIMIT_ENV, "3")));
    IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> ModelCache.limitFrom(Map.of(ModelCache.LIMIT_ENV, "lots")));
    assertEquals("OCELOTL_MODEL_CACHE_MB must be a whole number of MiB ≥ 0, found 'lots'", bad.getMessage());
  }
}
