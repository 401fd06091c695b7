package org.ocelotl.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.format.paje.PajeReader;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The records behind a window equal pj_dump's (the reference beside the SimGrid trace), for
 * several windows including records that cross their edges; pages equal a brute-force sort.
 */
class RecordQueryTest {
  @TempDir static Path dir;
  static TraceStore store;
  static List<String[]> reference;

  @BeforeAll
  static void importTrace() throws IOException {
    store = Workspace.open(dir.resolve("ws")).store(SharedTraces.file("paje/simgrid/smpi_small_flat.trace"),
        ImportOptions.DEFAULT, ImportProgress.NONE);
    reference = new ArrayList<>();
    for (String line : Files.readAllLines(SharedTraces.file("paje/simgrid/smpi_small_flat.pjdump.csv"))) {
      reference.add(line.split(",\\s*"));
    }
  }

  static RecordQuery.Selection all(double from, double to, EventCategory kind) {
    return new RecordQuery.Selection(from, to, null, null, EnumSet.of(kind), null, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 1_000_000);
  }

  @ParameterizedTest
  @CsvSource({"0, 0.7", "0.1, 0.2", "0.25, 0.2500001", "0.3333, 0.5"})
  void statesAndLinksOfAWindowAreThoseOfPjDump(double from, double to) {
    Map<String, Long> expectedStates = new TreeMap<>();
    Map<String, Long> expectedLinks = new TreeMap<>();
    for (String[] f : reference) {
      if (f[0].equals("State") || f[0].equals("Link")) {
        double start = Double.parseDouble(f[3]);
        double end = Double.parseDouble(f[4]);
        // pj_dump prints 6 decimals; the store keeps the trace's own: compare at pj_dump's precision
        if (start < to && (end > from || end == start && start >= from)) {
          String key = f[0].equals("State") ? f[1] + " " + f[7] + " " + f[3] + " " + f[4]
              : f[7] + "→" + f[8] + " " + f[3] + " " + f[4];
          (f[0].equals("State") ? expectedStates : expectedLinks).merge(key, 1L, Long::sum);
        }
      }
    }
    StoreMetadata m = store.metadata();
    Map<String, Long> states = new TreeMap<>();
    RecordQuery.Page page = RecordQuery.select(store, all(from, to, EventCategory.STATE));
    for (RecordQuery.Record r : page.records()) {
      states.merge(m.producers().get(r.producer()).name() + " " + m.types().get(r.type()).name() + " "
          + six(r.start()) + " " + six(r.end()), 1L, Long::sum);
    }
    assertEquals(expectedStates, states, "states in [" + from + ", " + to + ")");
    assertEquals(page.records().size(), page.total());
    Map<String, Long> links = new TreeMap<>();
    for (RecordQuery.Record r : RecordQuery.select(store, all(from, to, EventCategory.LINK)).records()) {
      links.merge(m.producers().get(r.producer()).name() + "→" + m.producers().get(r.to()).name() + " "
          + six(r.start()) + " " + six(r.end()), 1L, Long::sum);
    }
    assertEquals(expectedLinks, links, "links in [" + from + ", " + to + ")");
  }

  /**
   * A few producers of many: the store reads their runs of each chunk only (its producer
   * directory); the records must still be pj_dump's records of those producers, for states and
   * variable steps (pj_dump lists a variable's steps as Variable lines: container, type, start, end).
   */
  @ParameterizedTest
  @CsvSource({"0, 0.7, rank-3", "0.1, 0.2, rank-0;rank-7", "0.3333, 0.5, nancy-c2-4", "0, 0.7, rank-15;nancy-c1-1"})
  void aFewProducersGetExactlyTheirRecords(double from, double to, String names) {
    List<String> producers = List.of(names.split(";"));
    Map<String, Long> expected = new TreeMap<>();
    for (String[] f : reference) {
      if ((f[0].equals("State") || f[0].equals("Variable")) && producers.contains(f[1])) {
        double start = Double.parseDouble(f[3]);
        double end = Double.parseDouble(f[4]);
        if (start < to && (end > from || end == start && start >= from)) {
          String name = f[0].equals("State") ? f[7] : f[2];
          expected.merge(f[1] + " " + name + " " + f[3] + " " + f[4], 1L, Long::sum);
        }
      }
    }
    StoreMetadata m = store.metadata();
    RecordQuery.Selection s = new RecordQuery.Selection(from, to, RecordQuery.producersNamed(m, producers), null,
        EnumSet.of(EventCategory.STATE, EventCategory.VARIABLE), null, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 1_000_000);
    Map<String, Long> got = new TreeMap<>();
    for (RecordQuery.Record r : RecordQuery.select(store, s).records()) {
      got.merge(m.producers().get(r.producer()).name() + " " + m.types().get(r.type()).name() + " "
          + six(r.start()) + " " + six(r.end()), 1L, Long::sum);
    }
    assertEquals(true, got.size() > 0, "the selection holds records");
    assertEquals(expected, got, names + " in [" + from + ", " + to + ")");
  }

  private static String six(double t) {
    return String.format(Locale.ROOT, "%.6f", t);
  }

  /** A page is the slice of the brute-force sorted list: every order, every offset. */
  @Test
  void pagesAreSlicesOfTheSortedSelection() {
    for (RecordQuery.Column column : RecordQuery.Column.values()) {
      for (boolean descending : new boolean[] {false, true}) {
        RecordQuery.Selection whole = new RecordQuery.Selection(0.05, 0.4, null, null,
            EnumSet.of(EventCategory.STATE, EventCategory.LINK), null, Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY, column, descending, 0, 1_000_000);
        List<RecordQuery.Record> all = RecordQuery.select(store, whole).records();
        for (int offset : new int[] {0, 7, 100, all.size() - 3}) {
          RecordQuery.Selection page = new RecordQuery.Selection(0.05, 0.4, null, null,
              EnumSet.of(EventCategory.STATE, EventCategory.LINK), null, Double.NEGATIVE_INFINITY,
              Double.POSITIVE_INFINITY, column, descending, offset, 25);
          RecordQuery.Page got = RecordQuery.select(store, page);
          assertEquals(all.subList(offset, Math.min(all.size(), offset + 25)), got.records(), column + " " + descending
              + " offset " + offset);
          assertEquals(all.size(), got.total());
        }
      }
    }
  }

  @Test
  void filtersByProducerTypeDurationAndExpression() {
    StoreMetadata m = store.metadata();
    RecordQuery.Selection s = new RecordQuery.Selection(0, 1, RecordQuery.producersNamed(m, List.of("rank-3")),
        RecordQuery.typesNamed(m, List.of("PMPI_Waitall")), EnumSet.of(EventCategory.STATE),
        java.util.regex.Pattern.compile("Wait"), 0.001, Double.POSITIVE_INFINITY, RecordQuery.Column.DURATION, true,
        0, 1000);
    List<RecordQuery.Record> found = RecordQuery.select(store, s).records();
    assertEquals(true, found.size() > 3, "some of rank-3's waits last a millisecond or more: " + found.size());
    for (int k = 1; k < found.size(); k++) {
      assertEquals(true, found.get(k - 1).duration() >= found.get(k).duration(), "longest first");
    }
    for (RecordQuery.Record r : found) {
      assertEquals("rank-3", m.producers().get(r.producer()).name());
      assertEquals("PMPI_Waitall", m.types().get(r.type()).name());
      assertEquals(true, r.duration() >= 0.001);
    }
    assertEquals("unknown producer 'nope'",
        assertThrows(IllegalArgumentException.class, () -> RecordQuery.producersNamed(m, List.of("nope"))).getMessage());
    assertEquals("unknown type 'nope'",
        assertThrows(IllegalArgumentException.class, () -> RecordQuery.typesNamed(m, List.of("nope"))).getMessage());
  }

  /**
   * The page read in parallel runs of chunks equals the brute-force page over every record read
   * one by one: a store of the same trace cut into chunks of 37 records (about a hundred per
   * kind), 300 seeded selections of random windows, kinds, sorts, directions, offsets, limits,
   * duration ranges and expressions (a type's name, a producer's, a variable's value).
   */
  @Test
  void pagesOfParallelRunsEqualTheBruteForcePage() throws IOException {
    TraceStore small = smallChunks("small-chunks");
    StoreMetadata m = small.metadata();
    assertEquals(true, small.chunks(EventCategory.STATE).size() > 50, "many chunks");
    List<RecordQuery.Record> every = new ArrayList<>();
    RecordQuery.forEach(small, new RecordQuery.Selection(m.start(), m.end(), null, null,
        EnumSet.allOf(EventCategory.class), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        RecordQuery.Column.START, false, 0, 0), every::add);
    SplittableRandom random = new SplittableRandom(20261128);
    String[] expressions = {null, "Wait", "rank-1", "^1", "Send|Recv"};
    for (int run = 0; run < 300; run++) {
      double a = m.start() + random.nextDouble() * (m.end() - m.start());
      double b = random.nextInt(4) == 0 ? m.end() : a + random.nextDouble() * (m.end() - a) + 1e-9;
      EnumSet<EventCategory> kinds = EnumSet.noneOf(EventCategory.class);
      for (EventCategory k : EventCategory.values()) {
        if (random.nextBoolean()) {
          kinds.add(k);
        }
      }
      RecordQuery.Column column = RecordQuery.Column.values()[random.nextInt(RecordQuery.Column.values().length)];
      boolean descending = random.nextBoolean();
      double minDuration = random.nextInt(3) == 0 ? 0.001 : Double.NEGATIVE_INFINITY;
      double maxDuration = random.nextInt(3) == 0 ? 0.01 : Double.POSITIVE_INFINITY;
      String expression = expressions[random.nextInt(expressions.length)];
      Pattern match = expression == null ? null : Pattern.compile(expression);
      int offset = random.nextInt(3) == 0 ? 0 : random.nextInt(200);
      int limit = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(150);
      RecordQuery.Selection s = new RecordQuery.Selection(a, b, null, null, kinds, match, minDuration, maxDuration,
          column, descending, offset, limit);
      List<RecordQuery.Record> expected = new ArrayList<>();
      boolean reachesEnd = b >= m.end();
      for (RecordQuery.Record r : every) {
        boolean inWindow = r.kind() == EventCategory.EVENT ? r.start() >= a && (r.start() < b || reachesEnd)
            : (r.start() < b || reachesEnd) && (r.end() > a || r.end() == r.start() && r.start() >= a);
        if (inWindow && kinds.contains(r.kind()) && r.duration() >= minDuration && r.duration() <= maxDuration
            && (match == null || match.matcher(m.types().get(r.type()).name()).find()
                || match.matcher(m.producers().get(r.producer()).name()).find()
                || r.kind() == EventCategory.VARIABLE && match.matcher(String.valueOf(r.value())).find())) {
          expected.add(r);
        }
      }
      expected.sort(documentedOrder(column, descending, m));
      RecordQuery.Page got = RecordQuery.select(small, s);
      String what = "selection " + run + ": " + s;
      assertEquals(expected.size(), got.total(), what);
      assertEquals(expected.subList(Math.min(offset, expected.size()), Math.min(expected.size(), offset + limit)),
          got.records(), what);
    }
  }

  /**
   * A {@link RecordQuery.StateSink} reads each chunk's states in its own loop through the
   * selection's {@link RecordQuery.StateFilter}: run by run, it must keep exactly the states, in
   * the same order, that a sink given them one by one keeps, and those must be the brute force's
   * (the states of the window, producers and types asked for), whether the chunks are read whole
   * or, for a few producers, producer by producer; its other kinds still come one by one.
   */
  @Test
  void aStateSinkKeepsTheStatesARecordSinkIsGiven() throws IOException {
    TraceStore small = smallChunks("small-chunks-state-sink");
    StoreMetadata m = small.metadata();
    List<RecordQuery.Record> every = new ArrayList<>();
    RecordQuery.forEach(small, new RecordQuery.Selection(m.start(), m.end(), null, null,
        EnumSet.allOf(EventCategory.class), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        RecordQuery.Column.START, false, 0, 0), every::add);
    SplittableRandom random = new SplittableRandom(20261129);
    int batches = 0;
    for (int run = 0; run < 200; run++) {
      double a = m.start() + random.nextDouble() * (m.end() - m.start());
      double b = random.nextInt(4) == 0 ? m.end() : a + random.nextDouble() * (m.end() - a) + 1e-9;
      java.util.Set<Integer> producers = null;
      if (random.nextBoolean()) {
        producers = new java.util.HashSet<>();
        // one producer (read producer by producer) to most of them (chunks read whole)
        int count = random.nextBoolean() ? 1 : 1 + random.nextInt(m.producers().size());
        while (producers.size() < count) {
          producers.add(random.nextInt(m.producers().size()));
        }
      }
      java.util.Set<Integer> types = random.nextBoolean() ? null
          : new java.util.HashSet<>(List.of(random.nextInt(m.types().size()), random.nextInt(m.types().size())));
      EnumSet<EventCategory> kinds = random.nextBoolean() ? EnumSet.of(EventCategory.STATE)
          : EnumSet.of(EventCategory.STATE, EventCategory.VARIABLE, EventCategory.LINK);
      RecordQuery.Selection s = new RecordQuery.Selection(a, b, producers, types, kinds, null,
          Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0);
      List<OneByOne> given = RecordQuery.forEachInRuns(small, s, OneByOne::new);
      List<InItsLoop> read = RecordQuery.forEachInRuns(small, s, InItsLoop::new);
      List<RecordQuery.Record> expected = new ArrayList<>();
      List<RecordQuery.Record> got = new ArrayList<>();
      for (int k = 0; k < given.size(); k++) {
        expected.addAll(given.get(k).records);
        got.addAll(read.get(k).records);
        batches += read.get(k).batches;
      }
      String what = "selection " + run + ": " + s;
      assertEquals(expected, got, what);
      boolean reachesEnd = b >= m.end();
      List<RecordQuery.Record> brute = new ArrayList<>();
      for (RecordQuery.Record r : every) {
        boolean inWindow = r.kind() == EventCategory.EVENT ? r.start() >= a && (r.start() < b || reachesEnd)
            : (r.start() < b || reachesEnd) && (r.end() > a || r.end() == r.start() && r.start() >= a);
        boolean ofProducers = producers == null || producers.contains(r.producer())
            || r.kind() == EventCategory.LINK && producers.contains(r.to());
        if (inWindow && kinds.contains(r.kind()) && ofProducers && (types == null || types.contains(r.type()))) {
          brute.add(r);
        }
      }
      java.util.Comparator<RecordQuery.Record> order = documentedOrder(RecordQuery.Column.START, false, m);
      brute.sort(order);
      got.sort(order);
      assertEquals(brute, got, what);
    }
    assertEquals(true, batches > 1000, "the states came in batches: " + batches);
  }

  /** The records a sink is given one by one. */
  private static final class OneByOne implements RecordQuery.RecordSink {
    final List<RecordQuery.Record> records = new ArrayList<>();

    @Override
    public void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value,
        int to) {
      records.add(new RecordQuery.Record(kind, producer, type, start, end, depth, value, to));
    }
  }

  /** The states a sink keeps in its own loop, and its other records given one by one. */
  private static final class InItsLoop implements RecordQuery.StateSink {
    final List<RecordQuery.Record> records = new ArrayList<>();
    int batches;

    @Override
    public void states(org.ocelotl.store.StateColumns c, RecordQuery.StateFilter keep) {
      batches++;
      for (int i = 0; i < c.size(); i++) {
        if (keep.keeps(c.start()[i], c.end()[i], c.producer()[i], c.type()[i])) {
          records.add(new RecordQuery.Record(EventCategory.STATE, c.producer()[i], c.type()[i], c.start()[i],
              c.end()[i], c.depth()[i], Double.NaN, -1));
        }
      }
    }

    @Override
    public void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value,
        int to) {
      assertEquals(true, kind != EventCategory.STATE, "states come in batches");
      records.add(new RecordQuery.Record(kind, producer, type, start, end, depth, value, to));
    }
  }

  /** The order RecordQuery documents: the column, then start, end, producer, type, depth, destination, kind. */
  private static java.util.Comparator<RecordQuery.Record> documentedOrder(RecordQuery.Column column,
      boolean descending, StoreMetadata m) {
    java.util.Comparator<RecordQuery.Record> primary = switch (column) {
      case START -> java.util.Comparator.comparingDouble(RecordQuery.Record::start);
      case END -> java.util.Comparator.comparingDouble(RecordQuery.Record::end);
      case DURATION -> java.util.Comparator.comparingDouble(RecordQuery.Record::duration);
      case PRODUCER -> java.util.Comparator.comparing((RecordQuery.Record r) -> m.producers().get(r.producer()).name());
      case TYPE -> java.util.Comparator.comparing((RecordQuery.Record r) -> m.types().get(r.type()).name());
      case KIND -> java.util.Comparator.comparing(RecordQuery.Record::kind);
      case VALUE -> java.util.Comparator.comparingDouble(RecordQuery.Record::value);
    };
    java.util.Comparator<RecordQuery.Record> order = primary.thenComparingDouble(RecordQuery.Record::start)
        .thenComparingDouble(RecordQuery.Record::end).thenComparingInt(RecordQuery.Record::producer)
        .thenComparingInt(RecordQuery.Record::type).thenComparingInt(RecordQuery.Record::depth)
        .thenComparingInt(RecordQuery.Record::to).thenComparing(RecordQuery.Record::kind);
    return descending ? order.reversed() : order;
  }

  /**
   * An expression that backtracks for years on a long name — each of the twelve groups picks one
   * of the name's hundred a's — is stopped once its matching passes its bound (about a second),
   * with a message; without the bound the selection would hold its thread for years, and this
   * test would fail on its 60 s timeout.
   */
  @Test
  void anExpressionThatBacktracksForYearsIsStoppedWithAMessage() throws IOException {
    Path trace = Files.writeString(dir.resolve("long-name.json"), "{\"traceEvents\": [{\"name\": \""
        + "a".repeat(100) + "b\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5, \"pid\": 1, \"tid\": 1}]}");
    TraceStore longName = Workspace.open(dir.resolve("ws-long-name")).store(trace, ImportOptions.DEFAULT,
        ImportProgress.NONE);
    RecordQuery.Selection s = new RecordQuery.Selection(0, 1, null, null, EnumSet.of(EventCategory.STATE),
        java.util.regex.Pattern.compile("(.*a){12}$"), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        RecordQuery.Column.START, false, 0, 10);
    IllegalArgumentException refused = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(IllegalArgumentException.class, () -> RecordQuery.select(longName, s)));
    assertEquals("match: the regular expression took more than 1 s on the trace's names and values: it backtracks "
        + "(a repetition inside a repetition, such as (.*a){12}, can take years on a long name); write it without "
        + "nested repetitions", refused.getMessage());
  }

  /** The small flat SimGrid trace in a store of its own under {@code name}, cut into chunks of 37 records (about a hundred per kind). */
  private static TraceStore smallChunks(String name) throws IOException {
    Path dir = Files.createDirectory(RecordQueryTest.dir.resolve(name));
    StoreWriter writer = new StoreWriter(dir, 37);
    new PajeReader().read(SharedTraces.file("paje/simgrid/smpi_small_flat.trace"), writer, ReadOptions.STRICT);
    writer.finish(new StoreMetadata.Source("smpi_small_flat.trace", 1, 2, "f", "paje"));
    return TraceStore.open(dir);
  }
}
