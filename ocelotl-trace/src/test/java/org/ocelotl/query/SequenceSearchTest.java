package org.ocelotl.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * Every occurrence found, none extra: seeded random small stores (nested states and events on
 * integer times, so that records start together; sent in a shuffled order and cut into chunks of
 * 3 to 9 records, so that a producer's stream is merged across many chunks out of order), and on
 * each, random searches compared with a brute force over the generated records: each producer's
 * stream sorted by the documented order, every run of consecutive records checked, the earliest
 * kept and the search resumed after it.
 */
class SequenceSearchTest {
  @TempDir Path dir;

  /** A generated record: kind 0 state, 1 event. */
  record Rec(int producer, int kind, int type, double start, double end, int depth) {}

  /** A record and its place in the order the writer received it (the importer's order, which the store keeps). */
  record Fed(Rec rec, int order) {}

  static final String[] TYPES = {"A", "B", "C", "E", "F"};
  static final int PRODUCERS = 5; // the root (0) and four below it

  @Test
  void everyOccurrenceAndNoOtherOnRandomStores() throws IOException {
    long seed = 20261128L;
    SplittableRandom random = new SplittableRandom(seed);
    long occurrences = 0;
    for (int store = 0; store < 30; store++) {
      List<Fed> records = new ArrayList<>();
      TraceStore s = randomStore(dir.resolve("s" + store), random, records);
      StoreMetadata m = s.metadata();
      for (int run = 0; run < 40; run++) {
        String what = "seed " + seed + ", store " + store + ", search " + run;
        occurrences += check(s, m, records, random, what);
      }
    }
    assertEquals(true, occurrences > 1000, "the searches find occurrences: " + occurrences);
  }

  private static TraceStore randomStore(Path dir, SplittableRandom random, List<Fed> fed) throws IOException {
    List<Rec> records = new ArrayList<>();
    Files.createDirectories(dir);
    StoreWriter writer = new StoreWriter(dir, 3 + random.nextInt(7));
    writer.producer(0, "root", "root", -1, 0);
    for (int p = 1; p < PRODUCERS; p++) {
      writer.producer(p, "p" + p, "rank", 0, 0);
    }
    for (int t = 0; t < TYPES.length; t++) {
      writer.eventType(t, TYPES[t], t < 3 ? EventCategory.STATE : EventCategory.EVENT, null, null);
    }
    for (int p = 1; p < PRODUCERS; p++) {
      int time = 0;
      int n = random.nextInt(40);
      for (int i = 0; i < n; i++) {
        int type = random.nextInt(TYPES.length);
        if (type >= 3) {
          records.add(new Rec(p, 1, type, time, time, 0));
        } else {
          int length = random.nextInt(4); // zero-length states too
          records.add(new Rec(p, 0, type, time, time + length, 0));
          if (length > 0 && random.nextInt(3) == 0) { // a nested state, sometimes starting with its parent
            int inner = time + random.nextInt(length);
            records.add(new Rec(p, 0, random.nextInt(3), inner, inner + random.nextInt(time + length - inner + 1), 1));
          }
          time += random.nextInt(2) == 0 ? length : 0;
        }
        time += random.nextInt(3);
      }
    }
    List<Rec> shuffled = new ArrayList<>(records);
    java.util.Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
    for (Rec r : shuffled) {
      fed.add(new Fed(r, fed.size()));
      if (r.kind() == 0) {
        writer.state(r.producer(), r.type(), r.start(), r.end(), r.depth(), -1);
      } else {
        writer.event(r.producer(), r.type(), r.start());
      }
    }
    double end = records.stream().mapToDouble(Rec::end).max().orElse(0) + 1;
    writer.end(0, end, "s");
    writer.finish(new StoreMetadata.Source("random", 1, 2, "f", "test"));
    return TraceStore.open(dir);
  }

  private static long check(TraceStore s, StoreMetadata m, List<Fed> records, SplittableRandom random, String what) {
    double end = m.end();
    double from = random.nextInt(3) == 0 ? 0 : random.nextInt((int) end);
    double to = random.nextInt(3) == 0 ? end : from + 1 + random.nextInt((int) (end - from));
    Set<Integer> producers = random.nextInt(3) == 0 ? null : new HashSet<>(List.of(1 + random.nextInt(PRODUCERS - 1),
        1 + random.nextInt(PRODUCERS - 1)));
    Set<Integer> types = random.nextInt(3) == 0 ? Set.of(0, 1, 3) : null;
    EnumSet<EventCategory> kinds = switch (random.nextInt(3)) {
      case 0 -> EnumSet.of(EventCategory.STATE);
      case 1 -> EnumSet.of(EventCategory.EVENT);
      default -> EnumSet.of(EventCategory.STATE, EventCategory.EVENT);
    };
    Pattern match = random.nextInt(5) == 0 ? Pattern.compile("A|E|p2") : null;
    double minDuration = random.nextInt(5) == 0 ? 1 : Double.NEGATIVE_INFINITY;
    int k = 1 + random.nextInt(3);
    List<Set<Integer>> steps = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      steps.add(random.nextInt(6) == 0 ? Set.of(0, 1) : Set.of(random.nextInt(TYPES.length)));
    }
    double within = random.nextInt(2) == 0 ? Double.POSITIVE_INFINITY : random.nextInt(6);
    RecordQuery.Column column = List.of(RecordQuery.Column.START, RecordQuery.Column.END, RecordQuery.Column.DURATION,
        RecordQuery.Column.PRODUCER).get(random.nextInt(4));
    boolean descending = random.nextBoolean();
    int offset = random.nextInt(3) == 0 ? random.nextInt(10) : 0;
    int limit = random.nextInt(4) == 0 ? 3 : 1000;
    RecordQuery.Selection stream = new RecordQuery.Selection(from, to, producers, types, kinds, match, minDuration,
        Double.POSITIVE_INFINITY, column, descending, offset, limit);
    SequenceSearch.Result got = SequenceSearch.find(s, new SequenceSearch.Search(stream, steps, within));

    // The brute force.
    boolean reachesEnd = to >= m.end();
    List<SequenceSearch.Occurrence> expected = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int producer = p;
      List<Fed> stream2 = new ArrayList<>();
      for (Fed f : records) {
        Rec r = f.rec();
        boolean inWindow = r.kind() == 1 ? r.start() >= from && (r.start() < to || reachesEnd)
            : (r.start() < to || reachesEnd) && (r.end() > from || r.end() == r.start() && r.start() >= from);
        EventCategory kind = r.kind() == 0 ? EventCategory.STATE : EventCategory.EVENT;
        if (r.producer() == producer && (producers == null || producers.contains(producer)) && inWindow
            && kinds.contains(kind) && (types == null || types.contains(r.type()))
            && r.end() - r.start() >= minDuration
            && (match == null || match.matcher(TYPES[r.type()]).find() || match.matcher("p" + producer).find())) {
          stream2.add(f);
        }
      }
      stream2.sort(Comparator.comparingDouble((Fed f) -> f.rec().start()).thenComparingInt(f -> f.rec().depth())
          .thenComparingInt(f -> f.rec().kind()).thenComparingInt(Fed::order));
      List<Rec> stream1 = stream2.stream().map(Fed::rec).toList();
      int i = 0;
      while (i + k <= stream1.size()) {
        boolean ok = true;
        double latest = Double.NEGATIVE_INFINITY;
        List<SequenceSearch.Step> found = new ArrayList<>();
        for (int j = 0; j < k; j++) {
          Rec r = stream1.get(i + j);
          ok &= steps.get(j).contains(r.type());
          latest = Math.max(latest, r.end());
          found.add(new SequenceSearch.Step(r.kind() == 0 ? EventCategory.STATE : EventCategory.EVENT, r.type(),
              r.start(), r.end()));
        }
        if (ok && latest - stream1.get(i).start() <= within) {
          expected.add(new SequenceSearch.Occurrence(producer, stream1.get(i).start(), latest, found));
          i += k;
        } else {
          i++;
        }
      }
    }
    assertEquals(expected.size(), got.total(), what);
    long[] perProducer = new long[PRODUCERS];
    expected.forEach(o -> perProducer[o.producer()]++);
    assertArrayEquals(perProducer, got.perProducer(), what);
    assertEquals(expected.stream().mapToDouble(SequenceSearch.Occurrence::start).min().orElse(Double.NaN), got.first(),
        what);
    assertEquals(expected.stream().mapToDouble(SequenceSearch.Occurrence::end).max().orElse(Double.NaN), got.last(),
        what);
    Comparator<SequenceSearch.Occurrence> primary = switch (column) {
      case END -> Comparator.comparingDouble(SequenceSearch.Occurrence::end);
      case DURATION -> Comparator.comparingDouble(SequenceSearch.Occurrence::duration);
      case PRODUCER -> Comparator.comparing((SequenceSearch.Occurrence o) -> "p" + o.producer());
      default -> Comparator.comparingDouble(SequenceSearch.Occurrence::start);
    };
    Comparator<SequenceSearch.Occurrence> order = primary.thenComparingDouble(SequenceSearch.Occurrence::start)
        .thenComparingInt(SequenceSearch.Occurrence::producer).thenComparingDouble(SequenceSearch.Occurrence::end)
        .thenComparing(o -> o.steps().toString());
    expected.sort(descending ? order.reversed() : order);
    List<SequenceSearch.Occurrence> page = expected.subList(Math.min(offset, expected.size()),
        Math.min(expected.size(), offset + limit));
    assertEquals(page, got.page(), what);
    return expected.size();
  }

  @Test
  void refusesWhatASequenceCannotSearch() throws IOException {
    TraceStore s = randomStore(dir.resolve("one"), new SplittableRandom(1), new ArrayList<Fed>());
    RecordQuery.Selection variables = new RecordQuery.Selection(0, 1, null, null, EnumSet.of(EventCategory.VARIABLE),
        null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 10);
    assertEquals("a sequence is searched among states and events, not variables", assertThrows(
        IllegalArgumentException.class, () -> new SequenceSearch.Search(variables, List.of(Set.of(0)), 1)).getMessage());
    RecordQuery.Selection byType = new RecordQuery.Selection(0, 1, null, null, EnumSet.of(EventCategory.STATE),
        null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.TYPE, false, 0, 10);
    assertEquals("sort: occurrences sort by start, end, duration or producer, not type", assertThrows(
        IllegalArgumentException.class, () -> new SequenceSearch.Search(byType, List.of(Set.of(0)), 1)).getMessage());
    assertEquals(0, SequenceSearch.find(s, new SequenceSearch.Search(new RecordQuery.Selection(0, 1, new HashSet<>(),
        null, EnumSet.of(EventCategory.STATE), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        RecordQuery.Column.START, false, 0, 10), List.of(Set.of(0)), 1)).total(), "no producer, no occurrence");
  }
}
