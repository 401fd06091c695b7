package org.ocelotl.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.TraceSink;

/**
 * Writes random records through the sink and reads them back chunk by chunk: chunk k must hold
 * exactly the records that arrived k-th block of {@code capacity}, stably sorted by producer
 * (source for links), then by start; each producer's run read alone must be that run.
 */
class StoreRoundTripTest {
  static final int CAPACITY = 8;
  @TempDir Path tmp;

  /** One record as the columns hold it: doubles, then ints, in column order. */
  record Row(double[] doubles, int[] ints) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Row r && Arrays.equals(doubles, r.doubles) && Arrays.equals(ints, r.ints);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(doubles) * 31 + Arrays.hashCode(ints);
    }

    @Override
    public String toString() {
      return Arrays.toString(doubles) + Arrays.toString(ints);
    }
  }

  static List<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (EventCategory category : List.of(EventCategory.STATE, EventCategory.EVENT, EventCategory.LINK)) {
      for (int count : new int[] {0, 1, CAPACITY - 1, CAPACITY, CAPACITY + 1, 5 * CAPACITY + 3}) {
        cases.add(Arguments.of(category, count));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0} × {1}")
  @MethodSource("cases")
  void everyRecordComesBackInItsChunkSortedByProducerThenStart(EventCategory category, int count) throws IOException {
    long seed = 31L * count + category.ordinal();
    Random random = new Random(seed);
    List<Row> sent = new ArrayList<>();
    TraceStore store = StoreFixtures.write(tmp.resolve("s"), CAPACITY, sink -> {
      declare(sink);
      for (int i = 0; i < count; i++) {
        sent.add(send(sink, category, random));
      }
      sink.end(0, 100, "s");
    });

    List<Chunk> chunks = store.chunks(category);
    assertEquals((count + CAPACITY - 1) / CAPACITY, chunks.size(), "seed " + seed);
    assertEquals(count, store.metadata().count(category), "seed " + seed);
    Columns columns = columnsFor(store, category);
    int producerColumn = category == EventCategory.LINK ? 1 : 0;
    for (Chunk chunk : chunks) {
      List<Row> expected = new ArrayList<>(sent.subList(chunk.index() * CAPACITY,
          Math.min(count, (chunk.index() + 1) * CAPACITY)));
      expected.sort(Comparator.comparingInt((Row r) -> r.ints[producerColumn]).thenComparingDouble(r -> r.doubles[0]));
      store.read(chunk, columns);
      assertEquals(expected, rows(columns), "seed " + seed + " chunk " + chunk.index());
      assertEquals(expected.stream().map(r -> r.ints[producerColumn]).distinct().count(), chunk.producers());
      for (int producer = 0; producer <= 3; producer++) {
        int p = producer;
        store.read(chunk, columns, producer);
        assertEquals(expected.stream().filter(r -> r.ints[producerColumn] == p).toList(), rows(columns),
            "seed " + seed + " chunk " + chunk.index() + " producer " + producer);
      }
      assertEquals(expected.stream().mapToDouble(r -> r.doubles[0]).min().orElseThrow(), chunk.minTime(),
          "seed " + seed);
      int endColumn = category == EventCategory.EVENT ? 0 : 1;
      assertEquals(expected.stream().mapToDouble(r -> r.doubles[endColumn]).max().orElseThrow(), chunk.maxTime());
    }
    long typeTotal = store.types().stream().filter(t -> t.category() == category).mapToLong(t -> t.count()).sum();
    assertEquals(count, typeTotal, "seed " + seed);
  }

  static void declare(TraceSink sink) {
    sink.producer(0, "root", "ROOT", -1, 0);
    sink.producer(1, "p1", "P", 0, 0);
    sink.producer(2, "p2", "P", 0, 0);
    sink.eventType(0, "s0", EventCategory.STATE, "S", "1 0 0");
    sink.eventType(1, "s1", EventCategory.STATE, "S", null);
    sink.eventType(2, "e0", EventCategory.EVENT, null, null);
    sink.eventType(3, "l0", EventCategory.LINK, null, null);
    sink.eventType(4, "v0", EventCategory.VARIABLE, null, null);
  }

  // Times on a coarse grid so that ties occur and stability is exercised.
  static Row send(TraceSink sink, EventCategory category, Random random) {
    double start = random.nextInt(20) * 0.5;
    double end = start + random.nextInt(5) * 0.25;
    int producer = 1 + random.nextInt(2);
    int other = 1 + random.nextInt(2);
    switch (category) {
      case STATE -> {
        int type = random.nextInt(2);
        int depth = random.nextInt(3);
        int outer = depth == 0 ? -1 : random.nextInt(3) - 1;
        sink.state(producer, type, start, end, depth, outer);
        return new Row(new double[] {start, end}, new int[] {producer, type, depth, outer});
      }
      case EVENT -> {
        sink.event(producer, 2, start);
        return new Row(new double[] {start}, new int[] {producer, 2});
      }
      case LINK -> {
        double volume = random.nextBoolean() ? Double.NaN : random.nextInt(1000); // unknown, or bytes
        sink.link(3, producer, other, start, end, volume);
        return new Row(new double[] {start, end, volume}, new int[] {3, producer, other});
      }
      default -> throw new AssertionError(category);
    }
  }

  static Columns columnsFor(TraceStore store, EventCategory category) {
    return switch (category) {
      case STATE -> store.stateColumns();
      case EVENT -> store.eventColumns();
      case VARIABLE -> store.variableColumns();
      case LINK -> store.linkColumns();
    };
  }

  static List<Row> rows(Columns columns) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      double[] d = new double[columns.doubles.length];
      int[] n = new int[columns.ints.length];
      for (int c = 0; c < d.length; c++) {
        d[c] = columns.doubles[c][i];
      }
      for (int c = 0; c < n.length; c++) {
        n[c] = columns.ints[c][i];
      }
      rows.add(new Row(d, n));
    }
    return rows;
  }

  @ParameterizedTest(name = "capacity {0}")
  @MethodSource("capacities")
  void sortingIsExactAndStableForAnyKeys(int capacity) throws IOException {
    long seed = 977L * capacity;
    Random random = new Random(seed);
    int count = 3 * capacity + 1;
    double[] starts = new double[count];
    for (int i = 0; i < count; i++) {
      // Keys that differ only in their last bits, negative ones, zeros and duplicates.
      double base = random.nextInt(4) - 2;
      starts[i] = random.nextBoolean() ? base : Math.nextUp(base + random.nextInt(3) * Math.ulp(1.0));
    }
    TraceStore store = StoreFixtures.write(tmp.resolve("sort"), capacity, sink -> {
      declare(sink);
      for (int i = 0; i < count; i++) {
        sink.state(1, 0, starts[i], 10, i, -1); // depth holds the arrival index: checks stability
      }
      sink.end(-3, 10, "s");
    });
    StateColumns columns = store.stateColumns();
    for (Chunk chunk : store.chunks(EventCategory.STATE)) {
      store.read(chunk, columns);
      for (int i = 1; i < columns.size(); i++) {
        double a = columns.start()[i - 1];
        double b = columns.start()[i];
        assertTrue(a < b || a == b && columns.depth()[i - 1] < columns.depth()[i],
            "seed " + seed + " chunk " + chunk.index() + " at " + i);
      }
      for (int i = 0; i < columns.size(); i++) {
        assertEquals(starts[columns.depth()[i]], columns.start()[i], "seed " + seed);
      }
    }
  }

  static List<Integer> capacities() {
    return List.of(1, 2, 100, 1 << 12);
  }

  @org.junit.jupiter.api.Test
  void windowScansSkipChunksOutsideTheWindow() throws IOException {
    // Chunk k holds states [4k + i, 4k + i + 0.5) for i = 0..3: bounds [4k, 4k + 3.5].
    TraceStore store = StoreFixtures.write(tmp.resolve("w"), 4, sink -> {
      declare(sink);
      for (int i = 0; i < 20; i++) {
        sink.state(1, 0, i, i + 0.5, 0, -1);
      }
      sink.end(0, 20, "s");
    });
    assertEquals(List.of(1, 2), indexes(store.chunks(EventCategory.STATE, 5, 9)));
    assertEquals(List.of(1), indexes(store.chunks(EventCategory.STATE, 7.5, 8)), "bound 7.5 is inclusive");
    assertEquals(List.of(), indexes(store.chunks(EventCategory.STATE, 7.6, 8)));
    assertEquals(List.of(0, 1, 2, 3, 4), indexes(store.chunks(EventCategory.STATE, -1, 100)));
    List<Integer> visited = new ArrayList<>();
    List<Double> starts = new ArrayList<>();
    store.scanStates(5, 9, columns -> {
      visited.add(columns.chunk().index());
      for (int i = 0; i < columns.size(); i++) {
        starts.add(columns.start()[i]);
      }
    });
    assertEquals(List.of(1, 2), visited);
    assertEquals(List.of(4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0), starts);
    assertFalse(store.chunks(EventCategory.STATE).get(0).overlaps(3.5 + 1e-9, 4));
  }

  private static List<Integer> indexes(List<Chunk> chunks) {
    return chunks.stream().map(Chunk::index).toList();
  }

  @org.junit.jupiter.api.Test
  void variablesBecomeStepsEndingAtTheNextChangeTheDestructionOrTheTraceEnd() throws IOException {
    TraceStore store = StoreFixtures.write(tmp.resolve("v"), 4, sink -> {
      declare(sink);
      sink.variable(1, 4, 0, 1);
      sink.variable(2, 4, 4, 9);
      sink.variable(1, 4, 2, 3);
      sink.variable(1, 4, 2, 5); // same instant: a zero-length step, as the trace says
      sink.producerEnd(1, 7);
      sink.end(0, 10, "s");
    });
    List<String> steps = new ArrayList<>();
    store.scanVariables(0, 10, c -> {
      for (int i = 0; i < c.size(); i++) {
        steps.add(c.producer()[i] + ":" + c.type()[i] + "[" + c.start()[i] + "," + c.end()[i] + ")=" + c.value()[i]);
      }
    });
    assertEquals(List.of("1:4[0.0,2.0)=1.0", "1:4[2.0,2.0)=3.0", "1:4[2.0,7.0)=5.0", "2:4[4.0,10.0)=9.0"), steps);
    assertEquals(4, store.metadata().count(EventCategory.VARIABLE));
    assertEquals(4, store.types().get(4).count());
  }

  @org.junit.jupiter.api.Test
  void metadataComesBackAsWritten() throws IOException {
    TraceStore store = StoreFixtures.write(tmp.resolve("m"), 4, sink -> {
      declare(sink);
      sink.producerEnd(2, 9.5);
      sink.state(1, 1, 1, 2, 0, -1);
      sink.warning("3 lines skipped: unknown event id");
      sink.end(0.25, 10, "ns");
    });
    StoreMetadata m = store.metadata();
    assertEquals(StoreFixtures.SOURCE, m.source());
    assertEquals("t.trace", m.name());
    assertEquals(0.25, m.start());
    assertEquals(10.0, m.end());
    assertEquals("ns", m.timeUnit());
    assertArrayEquals(new long[] {1, 0, 0, 0}, m.counts());
    assertEquals(List.of("3 lines skipped: unknown event id"), m.warnings());
    assertProducer(new StoreMetadata.Producer(2, "p2", "P", 0, 0, 9.5, false, new long[4]), m.producers().get(2));
    assertProducer(new StoreMetadata.Producer(1, "p1", "P", 0, 0, Double.NaN, true, new long[] {1, 0, 0, 0}),
        m.producers().get(1));
    assertEquals(new StoreMetadata.EventType(0, "s0", EventCategory.STATE, "S", "1 0 0", 0), m.types().get(0));
    assertEquals(new StoreMetadata.EventType(1, "s1", EventCategory.STATE, "S", null, 1), m.types().get(1));
    assertEquals(4, m.chunkCapacity());
  }

  @org.junit.jupiter.api.Test
  void treeNumbersParentsFirstAndGivesEmittingInnerProducersASelfLeaf() throws IOException {
    // Producer 1 is a child of producer 2, declared first; producer 0 (root) emits an event.
    TraceStore store = StoreFixtures.write(tmp.resolve("t"), 4, sink -> {
      sink.producer(0, "root", "ROOT", -1, 0);
      sink.producer(2, "host", "HOST", 0, 0);
      sink.producer(1, "rank", "RANK", 2, 0);
      sink.producer(3, "other", "HOST", 0, 0);
      sink.eventType(0, "e", EventCategory.EVENT, null, null);
      sink.event(0, 0, 1);
      sink.event(1, 0, 1);
      sink.end(0, 1, "s");
    });
    var tree = store.tree();
    List<String> names = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      names.add(tree.name(node));
      parents.add(tree.parent(node));
    }
    assertEquals(List.of("root", "root (self)", "host", "other", "rank"), names);
    assertEquals(List.of(-1, 0, 0, 0, 2), parents);
    assertArrayEquals(new int[] {0, 4, 2, 3}, store.nodeOfProducer());
    assertArrayEquals(new int[] {1, 4, 2, 3}, store.leafOfProducer());
  }

  private static void assertProducer(StoreMetadata.Producer expected, StoreMetadata.Producer found) {
    assertEquals(expected.toString().replaceAll("counts=\\[J@\\w+", ""), found.toString().replaceAll("counts=\\[J@\\w+", ""));
    assertArrayEquals(expected.counts(), found.counts(), "own counts of " + found.name());
  }

  @org.junit.jupiter.api.Test
  void ownCountsPerCategoryCountLinksAtTheirStart() throws IOException {
    TraceStore store = StoreFixtures.write(tmp.resolve("c"), 2, sink -> {
      sink.producer(0, "root", "ROOT", -1, 0);
      sink.producer(1, "a", "P", 0, 0);
      sink.producer(2, "b", "P", 0, 0);
      sink.eventType(0, "s", EventCategory.STATE, null, null);
      sink.eventType(1, "e", EventCategory.EVENT, null, null);
      sink.eventType(2, "v", EventCategory.VARIABLE, null, null);
      sink.eventType(3, "l", EventCategory.LINK, null, null);
      sink.state(1, 0, 0, 1, 0, -1);
      sink.state(1, 0, 1, 2, 0, -1);
      sink.state(1, 0, 2, 3, 0, -1);
      sink.event(0, 1, 1);
      sink.variable(2, 2, 0, 5);
      sink.variable(2, 2, 1, 6);
      sink.link(3, 1, 2, 0, 1, 64);
      sink.end(0, 3, "s");
    });
    List<StoreMetadata.Producer> producers = store.metadata().producers();
    assertArrayEquals(new long[] {0, 1, 0, 0}, producers.get(0).counts());
    assertArrayEquals(new long[] {3, 0, 0, 1}, producers.get(1).counts());
    assertArrayEquals(new long[] {0, 0, 2, 0}, producers.get(2).counts());
    assertEquals(2, producers.get(2).count(EventCategory.VARIABLE));
    assertTrue(producers.get(2).emits(), "a link arrives at b and b has variables");
  }
}
