package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The statistics read in parallel are the answer read on one thread, byte for byte, and the
 * answer they gave before each run logged its durations for a parallel placement (a5d2bef): 80
 * seeded requests (windows, groupings, top N, exclusive or inclusive times, type and kind
 * filters, buckets) on the bundled trace, imported with the store's chunks and with chunks of 997
 * records (over a hundred runs, windows that cut them anywhere).
 */
class StatisticsRunsTest {
  static final Path BUNDLED = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz")
      .normalize();
  /**
   * SHA-256 of the 160 answers' JSON, their trace objects emptied, one after the other. First
   * pinned as the statistics gave them at a5d2bef (each run's durations kept in growing arrays,
   * concatenated, then summed and selected); moved once, on purpose, when the sums became
   * compensated ({@link CompensatedSums}: the exact sums rounded once, so some last digits
   * changed), and pinned again from that code.
   */
  static final String BEFORE = "2347c1273df5ff50bb14aba3c6d95665c9e878f0fcddc01f837626eb91f77a77";

  @TempDir static Path dir;
  static List<TraceStore> stores = new ArrayList<>();

  @BeforeAll
  static void importBundled() throws IOException {
    for (int capacity : new int[] {org.ocelotl.store.StoreWriter.DEFAULT_CHUNK_CAPACITY, 997}) {
      stores.add(Workspace.open(dir.resolve("ws" + capacity), Formats.standard(), capacity)
          .store(BUNDLED, ImportOptions.DEFAULT, ImportProgress.NONE));
    }
    assertTrue(stores.get(1).chunks(EventCategory.STATE).size() > 100, "many runs: " + stores.get(1).chunks(EventCategory.STATE).size() + " chunks");
  }

  /** The seeded requests, as Statistics records. */
  static List<Statistics> requests(TraceStore store) {
    StoreMetadata m = store.metadata();
    SplittableRandom random = new SplittableRandom(20261129);
    String[] bys = {"type", "producer", "depth:1", "depth:2"};
    List<String> typeNames = m.types().stream().map(StoreMetadata.EventType::name).toList();
    List<Statistics> requests = new ArrayList<>();
    for (int k = 0; k < 80; k++) {
      double a = m.start() + random.nextDouble() * (m.end() - m.start());
      double b = random.nextInt(5) == 0 ? m.end() : a + random.nextDouble() * (m.end() - a) + 1e-9;
      if (random.nextInt(8) == 0) {
        a = m.start(); // the whole trace
        b = m.end();
      }
      String by = bys[random.nextInt(bys.length)];
      int top = by.equals("type") || random.nextBoolean() ? 0 : 1 + random.nextInt(5);
      List<String> types = random.nextInt(4) == 0
          ? List.of(typeNames.get(random.nextInt(typeNames.size())), typeNames.get(random.nextInt(typeNames.size())))
          : List.of();
      List<String> kinds = random.nextInt(4) == 0 ? List.of("state") : List.of();
      requests.add(new Statistics(store, a, b, List.of(), types.stream().distinct().toList(), kinds, by, top,
          1 + random.nextInt(100), random.nextInt(3) == 0));
    }
    return requests;
  }

  /** The answers' JSON, computed in a pool of {@code threads}: its parallel streams run on them. */
  static List<byte[]> answers(List<Statistics> requests, int threads) throws InterruptedException, ExecutionException {
    ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      return pool.submit(() -> requests.stream().map(r -> r.answer().json()).toList()).get();
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void parallelRunsGiveTheAnswerOfOneThreadAndTheAnswerBefore() throws Exception {
    MessageDigest digest = sha256();
    for (TraceStore store : stores) {
      List<Statistics> requests = requests(store);
      List<byte[]> one = answers(requests, 1);
      List<byte[]> four = answers(requests, 4);
      for (int k = 0; k < requests.size(); k++) {
        assertEquals(new String(one.get(k), java.nio.charset.StandardCharsets.UTF_8),
            new String(four.get(k), java.nio.charset.StandardCharsets.UTF_8),
            "request " + k + " (seed 20261129), chunks of " + store.metadata().chunkCapacity() + ": " + requests.get(k));
        // The trace object holds the trace's path and store name, which differ from one checkout to another.
        digest.update(new String(one.get(k), java.nio.charset.StandardCharsets.UTF_8)
            .replaceFirst("\"trace\":\\{[^{}]*\\}", "\"trace\":{}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    assertEquals(BEFORE, HexFormat.of().formatHex(digest.digest()));
  }

  /**
   * The durations' figures (least, median, p90, p99, most; the mean to 1e-12) of every row are
   * those of the window's states sorted, per type, per producer with a row of its own and for the
   * others: 60 seeded requests by type or by producer with a top N, on the store of 997-record
   * chunks, whose durations a second scan places run by run where the first scan counted them
   * (decision 073).
   */
  @Test
  void durationsAreTheWindowsStatesSortedPerRow() {
    TraceStore store = stores.get(1);
    StoreMetadata m = store.metadata();
    SplittableRandom random = new SplittableRandom(20261130);
    List<String> typeNames = m.types().stream().map(StoreMetadata.EventType::name).toList();
    for (int k = 0; k < 60; k++) {
      double a = m.start() + random.nextDouble() * (m.end() - m.start());
      double b = random.nextInt(5) == 0 ? m.end() : a + random.nextDouble() * (m.end() - a) + 1e-9;
      boolean byProducer = random.nextInt(4) > 0;
      int top = byProducer ? random.nextInt(6) : 0;
      List<String> types = random.nextInt(3) == 0 ? List.of(typeNames.get(random.nextInt(typeNames.size())))
          : List.of();
      String what = "request " + k + " (seed 20261130): [" + a + ", " + b + ") by " + (byProducer ? "producer" : "type")
          + " top " + top + " types " + types;
      Statistics.Result r = new Statistics(store, a, b, List.of(), types, List.of(), byProducer ? "producer" : "type",
          top, 10, random.nextBoolean()).answer();
      java.util.Set<Integer> kept = org.ocelotl.query.RecordQuery.typesNamed(m, types);
      java.util.Map<String, List<Double>> perType = new java.util.HashMap<>();
      java.util.Map<String, List<Double>> perCell = new java.util.HashMap<>();
      org.ocelotl.query.RecordQuery.forEach(store, new org.ocelotl.query.RecordQuery.Selection(a, b, null, kept,
          java.util.EnumSet.of(EventCategory.STATE), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
          org.ocelotl.query.RecordQuery.Column.START, false, 0, 0), s -> {
            String type = m.types().get(s.type()).name();
            perType.computeIfAbsent(type, t -> new ArrayList<>()).add(s.end() - s.start());
            perCell.computeIfAbsent(type + "\n" + m.path(s.producer()), t -> new ArrayList<>()).add(s.end() - s.start());
          });
      int rows = 0;
      for (Statistics.Row type : r.types()) {
        if (type.kind() != EventCategory.STATE) {
          continue;
        }
        assertFigures(perType.get(type.type()), type.durations(), what + ", type " + type.type());
        rows++;
        List<Double> others = new ArrayList<>();
        java.util.Set<String> shown = new java.util.HashSet<>();
        for (Statistics.Row g : type.groups()) {
          shown.add(g.producer());
        }
        perCell.forEach((cell, durations) -> {
          String[] typeAndPath = cell.split("\n", 2);
          if (typeAndPath[0].equals(type.type()) && !shown.contains(typeAndPath[1])) {
            others.addAll(durations);
          }
        });
        for (Statistics.Row g : type.groups()) {
          List<Double> expected = g.producer().equals(Statistics.OTHERS) ? others
              : perCell.get(type.type() + "\n" + g.producer());
          assertFigures(expected, g.durations(), what + ", type " + type.type() + ", group " + g.producer());
          rows++;
        }
      }
      assertEquals(perType.size() > 0, rows > 0, what + ": rows with durations");
    }
  }

  /** min, mean, median, p90, p99, max of {@code durations} by nearest rank, against {@code figures}. */
  private static void assertFigures(List<Double> durations, double[] figures, String what) {
    double[] sorted = durations.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    assertTrue(n > 0, what + ": no states");
    double mean = java.util.Arrays.stream(sorted).sum() / n;
    assertEquals(sorted[0], figures[0], what + ": min");
    assertEquals(mean, figures[1], Math.abs(mean) * 1e-12, what + ": mean");
    assertEquals(sorted[(50 * n + 99) / 100 - 1], figures[2], what + ": median");
    assertEquals(sorted[(90 * n + 99) / 100 - 1], figures[3], what + ": p90");
    assertEquals(sorted[(99 * n + 99) / 100 - 1], figures[4], what + ": p99");
    assertEquals(sorted[n - 1], figures[5], what + ": max");
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
