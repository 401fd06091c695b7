package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.ChildJvm;

/**
 * {@code kill -9} at 100 seeded random instants of a process that imports the bundled trace
 * again and again and builds cached models of it (issue 14): after every kill, whatever store
 * and cache files are visible open right and hold exactly what a clean import holds, and the
 * next process carries on.
 */
class CrashConsistencyTest {
  private static final Path TRACE = Path.of("..", "examples", "smpi_perturbed.trace.gz").toAbsolutePath().normalize();
  private static final int KILLS = 100;
  /** Small chunks: many files written per import, so many places for a kill to land. */
  private static final int CHUNK_CAPACITY = 4096;
  private static final List<ModelRequest> MODELS = List.of(
      ModelRequest.of(Metric.STATE_DURATION, 30), ModelRequest.of(Metric.STATE_DURATION, 300),
      ModelRequest.of(Metric.STATE_AVERAGE, 100), ModelRequest.of(Metric.LINK_COUNT, 77),
      ModelRequest.of(Metric.STATE_DURATION, 50).withWindow(2, 7));

  @TempDir Path tmp;

  /**
   * The process that is killed: builds every model through the cache (when there is a store), then
   * imports the trace again, for ever; it says which it is doing on its standard output. Each
   * child asks for grids its predecessors have not cached (its number shifts the slice counts), so
   * that its model phase scans and writes cache files rather than reading them, which the kills
   * aimed at that phase then interrupt.
   */
  public static final class Child {
    public static void main(String[] args) throws IOException {
      Workspace workspace = Workspace.open(Path.of(args[0]), Formats.standard(), CHUNK_CAPACITY);
      Path trace = Path.of(args[1]);
      int child = Integer.parseInt(args[2]);
      System.out.println("READY");
      for (int round = 0; ; round++) {
        TraceStore store = workspace.current(trace).orElse(null);
        if (store != null) {
          System.out.println("models");
          ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
          for (ModelRequest request : MODELS) {
            cache.build(store, request.withSlices(request.slices() + (3 * child + round) % 60));
          }
        }
        System.out.println("import");
        workspace.importTrace(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
      }
    }
  }

  @Test
  void killedImportsAndCacheWritesNeverLeaveAStoreOrModelThatOpensWrong() throws Exception {
    Workspace clean = Workspace.open(tmp.resolve("clean"), Formats.standard(), CHUNK_CAPACITY);
    TraceStore reference = clean.importTrace(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE);
    Path directory = tmp.resolve("ws");
    Workspace workspace = Workspace.open(directory, Formats.standard(), CHUNK_CAPACITY);
    SplittableRandom random = new SplittableRandom(14);
    Map<ModelRequest, double[]> expected = new java.util.HashMap<>();
    Map<String, Integer> phases = new TreeMap<>();
    int storesSeen = 0;
    int cacheFilesSeen = 0;
    // Kills alternate between the two phases: each waits for its phase to begin, then a random part
    // of that phase's length as measured here, so that both get kills whatever the machine's speed.
    Map<String, Long> lengths = phaseLengths(directory);
    for (int kill = 0; kill < KILLS; kill++) {
      String aimed = kill % 2 == 0 ? "models" : "import";
      String phase = runAndKill(directory, kill, aimed, random.nextLong(Math.max(1, lengths.get(aimed))));
      phases.merge(phase, 1, Integer::sum);
      for (TraceStore store : storesOn(directory)) {
        storesSeen++;
        assertSameRecords(reference, store, "kill " + kill + " (" + phase + ")");
        Path models = store.directory().resolve(ModelCache.DIRECTORY);
        cacheFilesSeen += Files.isDirectory(models) ? filesIn(models, ".model") : 0;
        // Exact requests are served from a file on the very grid or scanned: bit-identical either way.
        ModelCache cache = new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES);
        for (ModelRequest request : MODELS) {
          for (int more = 0; more < 3; more++) {
            ModelRequest asked = request.withSlices(request.slices() + more).withExact(true);
            assertArrayEquals(expected.computeIfAbsent(asked, r -> ModelBuilder.build(reference, r).model().values()),
                cache.build(store, asked).model().values(), "kill " + kill + " (" + phase + "): " + asked);
          }
        }
      }
    }
    System.out.printf("crash test: phases of %s ms; %d kills by phase %s; %d stores and %d cache files found after "
        + "them, all whole%n", lengths, KILLS, phases, storesSeen, cacheFilesSeen);
    // The kills must have landed in both phases for the test to mean anything.
    assertTrue(phases.getOrDefault("import", 0) >= 20 && phases.getOrDefault("models", 0) >= 20, phases.toString());
    // Temporaries of killed processes do not pile up: the next cache write and the next import
    // remove them.
    TraceStore last = workspace.store(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE);
    assertSameRecords(reference, last, "the store after the last kill");
    new ModelCache(ModelCache.DEFAULT_LIMIT_BYTES).build(last, MODELS.get(0).withSlices(1000));
    assertEquals(List.of(), names(last.directory().resolve(ModelCache.DIRECTORY)).stream()
        .filter(n -> !n.endsWith(".model")).toList());
    TraceStore again = workspace.importTrace(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE);
    assertEquals(List.of(again.directory().getFileName().toString()), names(directory.resolve(Workspace.TRACES)));
  }

  private static Process start(Path workspace, int number) throws IOException {
    return new ProcessBuilder(ChildJvm.command("-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp",
        System.getProperty("java.class.path"), Child.class.getName(), workspace.toString(), TRACE.toString(),
        Integer.toString(number)))
        .redirectErrorStream(true).start();
  }

  /** How long an undisturbed child's first whole "import" and "models" phases last, in ms. */
  private static Map<String, Long> phaseLengths(Path workspace) throws Exception {
    Process child = start(workspace, KILLS);
    Map<String, Long> lengths = new java.util.HashMap<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String previous = null;
        long since = 0;
        for (String line; (line = out.readLine()) != null; ) {
          long now = System.nanoTime();
          synchronized (lengths) {
            if (previous != null && !previous.equals("READY")) {
              lengths.putIfAbsent(previous, TimeUnit.NANOSECONDS.toMillis(now - since));
              lengths.notifyAll();
            }
          }
          previous = line;
          since = now;
        }
      } catch (IOException closedByTheKill) {
        // the pipe ends with the process
      }
    });
    reader.start();
    try {
      synchronized (lengths) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (lengths.size() < 2 && child.isAlive() && System.nanoTime() < until) {
          lengths.wait(100);
        }
        assertEquals(java.util.Set.of("import", "models"), lengths.keySet(), "the phases of an undisturbed child");
        return new java.util.HashMap<>(lengths);
      }
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      reader.join(10_000);
    }
  }

  /** Starts a child, kills it {@code delay} ms after it announces {@code target}; the phase it was in. */
  private static String runAndKill(Path workspace, int number, String target, long delay) throws Exception {
    Process child = start(workspace, number);
    AtomicReference<String> last = new AtomicReference<>("start");
    StringBuffer output = new StringBuffer();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          output.append(line).append('\n');
          synchronized (last) {
            last.set(line);
            last.notifyAll();
          }
        }
      } catch (IOException closedByTheKill) {
        // the pipe ends with the process
      }
    });
    reader.start();
    try {
      synchronized (last) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!last.get().equals(target) && child.isAlive() && System.nanoTime() < until) {
          last.wait(100);
        }
      }
      assertTrue(last.get().equals(target), "the child should have begun its " + target + " phase:\n" + output);
      Thread.sleep(delay);
      String phase = last.get();
      assertTrue(child.isAlive(), "the child died by itself:\n" + output);
      return phase;
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
      reader.join(10_000);
    }
  }

  /** Every store directory of the workspace, temporaries left out: each must open. */
  private static List<TraceStore> storesOn(Path workspace) throws IOException {
    List<TraceStore> stores = new ArrayList<>();
    for (String name : names(workspace.resolve(Workspace.TRACES))) {
      if (!name.matches(".*\\.(tmp|old)-\\d+-\\d+$")) {
        stores.add(TraceStore.open(workspace.resolve(Workspace.TRACES).resolve(name)));
      }
    }
    return stores;
  }

  private static void assertSameRecords(TraceStore expected, TraceStore actual, String when) {
    for (EventCategory category : EventCategory.values()) {
      assertEquals(expected.metadata().count(category), actual.metadata().count(category), when + ": " + category);
    }
    for (Metric metric : List.of(Metric.STATE_DURATION, Metric.EVENT_COUNT, Metric.LINK_COUNT, Metric.VARIABLE_MEAN)) {
      if (expected.metadata().offers(metric)) {
        ModelRequest request = ModelRequest.of(metric, 64);
        assertArrayEquals(ModelBuilder.build(expected, request).model().values(),
            ModelBuilder.build(actual, request).model().values(), when + ": every record read back, " + metric);
      }
    }
  }

  private static List<String> names(Path directory) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static int filesIn(Path directory, String suffix) throws IOException {
    return (int) names(directory).stream().filter(n -> n.endsWith(suffix)).count();
  }
}
