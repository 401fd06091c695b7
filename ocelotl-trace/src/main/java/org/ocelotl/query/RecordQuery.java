package org.ocelotl.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.regex.Pattern;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;

/**
 * The records of a selection — a window × producers × types × kinds, further narrowed by a
 * regular expression and a duration range — read from the store, never the whole trace into
 * memory: only the chunks whose time bounds meet the window are read, and only the page asked for
 * is kept (a bounded heap of {@code offset + limit} records in the requested order), so memory
 * grows with the page, not with the trace.
 *
 * <p>A record belongs to the window [from, to) when it overlaps it: a state, variable step or link
 * with start &lt; to and end &gt; from (or starting at from, for an instant one), an event with
 * from ≤ time &lt; to. A window that reaches the trace's end is closed there: the instant records
 * at the very end (a zero-length state, a last variable change) belong to it, so that the whole
 * trace's window holds every record. Records keep their own times (they are not clipped).
 */
public final class RecordQuery {
  private RecordQuery() {}

  /** The columns a page can be sorted by. */
  public enum Column {
    START, END, DURATION, PRODUCER, TYPE, KIND, VALUE;

    /** @throws IllegalArgumentException naming the columns */
    public static Column parse(String name) {
      for (Column c : values()) {
        if (c.name().equalsIgnoreCase(name)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown column '" + name + "'; expected one of start, end, duration, "
          + "producer, type, kind, value");
    }
  }

  /**
   * One selection.
   *
   * @param producers store producer ids to keep (with their subtrees already resolved); null: all
   * @param types     store type ids to keep; null: all
   * @param kinds     the categories of records
   * @param match     kept when it finds the type's or the producer's name (or a variable's value); null: all
   * @param descending sort from the largest first (durations: the longest first)
   */
  public record Selection(double from, double to, Set<Integer> producers, Set<Integer> types,
      Set<EventCategory> kinds, Pattern match, double minDuration, double maxDuration, Column sort,
      boolean descending, int offset, int limit) {
    public Selection {
      if (!(to > from)) {
        throw new IllegalArgumentException("the window needs from < to, got [" + from + ", " + to + ")");
      }
      if (offset < 0 || limit < 0) {
        throw new IllegalArgumentException("offset and limit must be ≥ 0, got " + offset + " and " + limit);
      }
      kinds = Set.copyOf(kinds);
    }
  }

  /**
   * One record: for a link, {@code producer} is its source, {@code to} its destination (else -1)
   * and {@code value} its volume (NaN where the trace does not say); a variable step's value.
   */
  public record Record(EventCategory kind, int producer, int type, double start, double end, int depth,
      double value, int to) {
    public double duration() {
      return end - start;
    }
  }

  /** A page of the records, and how many the selection holds in all. */
  public record Page(long total, List<Record> records) {}

  /**
   * The selection's page. The window's chunks are read in parallel, in as many contiguous runs as
   * there are processors, each run keeping its own page; the pages are merged at the end. The
   * order is total, so the page is the same whatever the split.
   *
   * @throws IllegalArgumentException when its regular expression takes too long ({@link BoundedMatch})
   */
  public static Page select(TraceStore store, Selection s) {
    StoreMetadata m = store.metadata();
    String[] producerNames = new String[m.producers().size()];
    m.producers().forEach(p -> producerNames[p.id()] = p.name());
    String[] typeNames = new String[m.types().size()];
    m.types().forEach(t -> typeNames[t.id()] = t.name());
    Comparator<Record> ascending = order(s.sort(), producerNames, typeNames);
    Comparator<Record> order = s.descending() ? ascending.reversed() : ascending;
    // Names are matched once, before the scan, so that the runs share the answers (a value, per record).
    boolean[] typeMatches = s.match() == null ? null : matches(s.match(), typeNames);
    boolean[] producerMatches = s.match() == null ? null : matches(s.match(), producerNames);
    List<Run> runs = new ArrayList<>();
    int processors = Runtime.getRuntime().availableProcessors();
    for (EventCategory kind : s.kinds()) {
      List<Chunk> chunks = store.chunks(kind, s.from(), scanEnd(store, s));
      int pieces = Math.min(processors, chunks.size());
      for (int k = 0; k < pieces; k++) {
        runs.add(new Run(kind, chunks.subList(chunks.size() * k / pieces, chunks.size() * (k + 1) / pieces)));
      }
    }
    List<PageOfRun> pages = runs.parallelStream().map(run -> {
      PageOfRun page = new PageOfRun(s, order, typeMatches, producerMatches);
      try {
        scan(store, run.kind(), run.chunks(), s, page);
      } catch (RuntimeException e) {
        page.failure = e; // rethrown below as itself: a parallel stream would wrap it, message and all
      }
      return page;
    }).toList();
    long total = 0;
    List<Record> kept = new ArrayList<>();
    for (PageOfRun page : pages) {
      if (page.failure != null) {
        throw page.failure;
      }
      total += page.total;
      kept.addAll(page.heap);
    }
    kept.sort(order);
    int keep = Math.min(kept.size(), s.offset() + s.limit());
    List<Record> records = s.offset() >= keep ? List.of() : kept.subList(s.offset(), keep);
    return new Page(total, List.copyOf(records));
  }

  /** Contiguous chunks of one kind, read by one task. */
  private record Run(EventCategory kind, List<Chunk> chunks) {}

  /** Whether each name holds the expression (one bounded matching for all of them). */
  private static boolean[] matches(Pattern pattern, String[] names) {
    BoundedMatch match = new BoundedMatch(pattern);
    boolean[] found = new boolean[names.length];
    for (int i = 0; i < names.length; i++) {
      found[i] = names[i] != null && match.find(names[i]);
    }
    return found;
  }

  /**
   * The best {@code offset + limit} records of one run and how many pass the filters. A record
   * is made only when it may enter the page: one whose sort key is already worse than the worst
   * kept is counted and dropped, so a page of the longest states of millions makes a few objects.
   */
  private static final class PageOfRun implements RecordSink {
    private final Selection s;
    private final Comparator<Record> order;
    private final boolean[] typeMatches;
    private final boolean[] producerMatches;
    /** Per run: a value's matching is not shared between threads. */
    private final BoundedMatch valueMatch;
    private final int keep;
    /** The worst kept record on top, evicted by any better one. */
    private final PriorityQueue<Record> heap;
    long total;
    RuntimeException failure;

    PageOfRun(Selection s, Comparator<Record> order, boolean[] typeMatches, boolean[] producerMatches) {
      this.s = s;
      this.order = order;
      this.typeMatches = typeMatches;
      this.producerMatches = producerMatches;
      this.valueMatch = s.match() == null ? null : new BoundedMatch(s.match());
      this.keep = s.offset() + s.limit();
      this.heap = new PriorityQueue<>(Math.max(1, Math.min(keep, 1 << 16)), order.reversed());
    }

    @Override
    public void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value,
        int to) {
      double duration = end - start;
      if (duration < s.minDuration() || duration > s.maxDuration()) {
        return;
      }
      if (typeMatches != null && !typeMatches[type] && !producerMatches[producer]
          && !(kind == EventCategory.VARIABLE && valueMatch.find(String.valueOf(value)))) {
        return;
      }
      total++;
      if (keep == 0 || heap.size() == keep && worseThanWorst(start, end, value)) {
        return;
      }
      Record r = new Record(kind, producer, type, start, end, depth, value, to);
      if (heap.size() < keep) {
        heap.add(r);
      } else if (order.compare(r, heap.peek()) < 0) {
        heap.poll();
        heap.add(r);
      }
    }

    /** Strictly worse than the worst kept by a numeric sort key alone (false when it cannot tell). */
    private boolean worseThanWorst(double start, double end, double value) {
      Record worst = heap.peek();
      int c = switch (s.sort()) {
        case START -> Double.compare(start, worst.start());
        case END -> Double.compare(end, worst.end());
        case DURATION -> Double.compare(end - start, worst.duration());
        case VALUE -> Double.compare(value, worst.value());
        default -> 0;
      };
      return s.descending() ? c < 0 : c > 0;
    }
  }

  /** A record's fields, without a record made for it. */
  public interface RecordSink {
    void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value, int to);
  }

  /**
   * A sink that reads the states of a chunk itself, in a loop of its own ({@link #states}), rather
   * than being handed them one by one: the scan's loop calls {@link #accept} through one call site
   * for every sink, so that in a process where several kinds of sink have used it (a server: the
   * statistics, the event table's pages, the Gantt chart's states) the compiler leaves that call
   * virtual and per record; a loop in the sink's own class is compiled for that sink alone. Its
   * other kinds still come through {@link #accept}.
   */
  public interface StateSink extends RecordSink {
    /**
     * The states of {@code c} (its first {@code c.size()} records, in order) that {@code keep}
     * keeps are, in that order, those {@link #accept} would have been given. {@code c} is lent for
     * the call only: the scan's columns are refilled, then kept for other scans.
     */
    void states(StateColumns c, StateFilter keep);
  }

  /** Which states of a chunk a selection keeps: those {@link #forEach} gives. */
  public static final class StateFilter {
    private final double from;
    private final double to;
    private final boolean[] producers;
    private final boolean[] types;

    StateFilter(double from, double to, boolean[] producers, boolean[] types) {
      this.from = from;
      this.to = to;
      this.producers = producers;
      this.types = types;
    }

    public boolean keeps(double start, double end, int producer, int type) {
      return overlaps(start, end, from, to) && kept(producers, producer) && kept(types, type);
    }
  }

  /** The chunks of one run of {@link #forEachInRuns}: 2^18 records at the store's default capacity. */
  public static final int RUN_CHUNKS = 4;

  /**
   * Every record {@link #forEach} gives, read in parallel: the window's chunks of each kind in runs
   * of {@value #RUN_CHUNKS}, each run given to a sink of its own. The sinks come back in chunk
   * order, and the runs do not depend on the number of processors, so that what the caller sums
   * run by run then across runs, in that order, is the same sum on every machine.
   */
  public static <T extends RecordSink> List<T> forEachInRuns(TraceStore store, Selection s,
      java.util.function.Supplier<T> sink) {
    return forEachInRuns(store, s, k -> sink.get());
  }

  /**
   * {@link #forEachInRuns(TraceStore, Selection, java.util.function.Supplier)} with the sink of the
   * k-th run made knowing k: runs are the same for the same store and selection, so that a second
   * scan's sink can write where the first scan's run k found its records would go.
   */
  public static <T extends RecordSink> List<T> forEachInRuns(TraceStore store, Selection s,
      java.util.function.IntFunction<T> sink) {
    List<Run> runs = new ArrayList<>();
    for (EventCategory kind : s.kinds().stream().sorted().toList()) {
      List<Chunk> chunks = store.chunks(kind, s.from(), scanEnd(store, s));
      for (int k = 0; k < chunks.size(); k += RUN_CHUNKS) {
        runs.add(new Run(kind, chunks.subList(k, Math.min(chunks.size(), k + RUN_CHUNKS))));
      }
    }
    List<T> sinks = new ArrayList<>();
    for (int k = 0; k < runs.size(); k++) {
      sinks.add(sink.apply(k));
    }
    RuntimeException[] failures = new RuntimeException[runs.size()];
    java.util.stream.IntStream.range(0, runs.size()).parallel().forEach(k -> {
      try {
        scan(store, runs.get(k).kind(), runs.get(k).chunks(), s, sinks.get(k));
      } catch (RuntimeException e) {
        failures[k] = e; // rethrown below as itself: a parallel stream would wrap it, message and all
      }
    });
    for (RuntimeException e : failures) {
      if (e != null) {
        throw e;
      }
    }
    return sinks;
  }

  /**
   * Every record of the window, producers, types and kinds of the selection, in chunk order (its
   * expression, durations, order and page are not applied): for consumers that keep what they
   * need, such as a Gantt chart's per-pixel marks.
   */
  public static void forEach(TraceStore store, Selection s, java.util.function.Consumer<Record> each) {
    for (EventCategory kind : s.kinds()) {
      scan(store, kind, store.chunks(kind, s.from(), scanEnd(store, s)), s,
          (k, producer, type, start, end, depth, value, to) -> each.accept(
              new Record(k, producer, type, start, end, depth, value, to)));
    }
  }

  /** The window's end as read: a window that reaches the trace's end is closed there. */
  static double scanEnd(TraceStore store, Selection s) {
    return s.to() >= store.metadata().end() ? Double.POSITIVE_INFINITY : s.to();
  }

  static boolean overlaps(double start, double end, double from, double to) {
    return start < to && (end > from || end == start && start >= from);
  }

  private static boolean kept(boolean[] mask, int id) {
    return mask == null || mask[id];
  }

  /** A set of ids as a mask over [0, size), for a test per record without boxing; null stays null (all). */
  static boolean[] mask(Set<Integer> ids, int size) {
    if (ids == null) {
      return null;
    }
    boolean[] mask = new boolean[size];
    for (int id : ids) {
      if (id >= 0 && id < size) {
        mask[id] = true;
      }
    }
    return mask;
  }

  /**
   * Columns kept between scans, per kind, at most one per processor: a scan reads its chunks into
   * columns of the store's chunk capacity (2 MB of states at the default), and a window's
   * statistics read it in one scan per run, about 80 runs for 1 s at the seeds' scale; fresh
   * columns each time were 150 MB of new heap per answer, whose pages a server's heap took as
   * page faults (decision 073). A scan takes columns out of the pool and gives them back after,
   * so that no two scans share them; beyond the pool's bound they are left to the collector.
   */
  private static final List<java.util.concurrent.ArrayBlockingQueue<Columns>> SPARE = java.util.stream.Stream
      .generate(() -> new java.util.concurrent.ArrayBlockingQueue<Columns>(Runtime.getRuntime().availableProcessors()))
      .limit(EventCategory.values().length).toList();

  /** Columns of {@code kind} that hold any chunk of {@code store}: kept ones if large enough. */
  private static Columns taken(TraceStore store, EventCategory kind) {
    Columns kept = SPARE.get(kind.ordinal()).poll();
    return kept != null && kept.capacity() >= store.metadata().chunkCapacity() ? kept : store.columns(kind);
  }

  private static void scan(TraceStore store, EventCategory kind, List<Chunk> chunks, Selection s, RecordSink offer) {
    Columns columns = taken(store, kind);
    try {
      scan(store, kind, chunks, s, offer, columns);
    } finally {
      SPARE.get(kind.ordinal()).offer(columns); // dropped when the pool is full
    }
  }

  private static void scan(TraceStore store, EventCategory kind, List<Chunk> chunks, Selection s, RecordSink offer,
      Columns columns) {
    double from = s.from();
    double to = scanEnd(store, s);
    // Links are grouped by source only, and a selection keeps those arriving at it too.
    int[] runs = kind == EventCategory.LINK || s.producers() == null ? null
        : s.producers().stream().mapToInt(Integer::intValue).sorted().toArray();
    boolean[] producers = mask(s.producers(), store.metadata().producers().size());
    boolean[] types = mask(s.types(), store.metadata().types().size());
    switch (kind) {
      case STATE -> {
        StateColumns c = (StateColumns) columns;
        StateFilter keep = new StateFilter(from, to, producers, types);
        for (Chunk chunk : chunks) {
          if (offer instanceof StateSink own) {
            forEachRun(store, chunk, c, runs, () -> own.states(c, keep));
            continue;
          }
          forEachRun(store, chunk, c, runs, () -> {
            for (int i = 0; i < c.size(); i++) {
              if (keep.keeps(c.start()[i], c.end()[i], c.producer()[i], c.type()[i])) {
                offer.accept(kind, c.producer()[i], c.type()[i], c.start()[i], c.end()[i], c.depth()[i], Double.NaN, -1);
              }
            }
          });
        }
      }
      case EVENT -> {
        EventColumns c = (EventColumns) columns;
        for (Chunk chunk : chunks) {
          forEachRun(store, chunk, c, runs, () -> {
            for (int i = 0; i < c.size(); i++) {
              double t = c.time()[i];
              if (t >= from && t < to && kept(producers, c.producer()[i]) && kept(types, c.type()[i])) {
                offer.accept(kind, c.producer()[i], c.type()[i], t, t, 0, Double.NaN, -1);
              }
            }
          });
        }
      }
      case VARIABLE -> {
        VariableColumns c = (VariableColumns) columns;
        for (Chunk chunk : chunks) {
          forEachRun(store, chunk, c, runs, () -> {
            for (int i = 0; i < c.size(); i++) {
              if (overlaps(c.start()[i], c.end()[i], from, to) && kept(producers, c.producer()[i])
                  && kept(types, c.type()[i])) {
                offer.accept(kind, c.producer()[i], c.type()[i], c.start()[i], c.end()[i], 0, c.value()[i], -1);
              }
            }
          });
        }
      }
      case LINK -> {
        LinkColumns c = (LinkColumns) columns;
        for (Chunk chunk : chunks) {
          store.read(chunk, c);
          for (int i = 0; i < c.size(); i++) {
            if (overlaps(c.start()[i], c.end()[i], from, to)
                && (kept(producers, c.from()[i]) || kept(producers, c.to()[i])) && kept(types, c.type()[i])) {
              offer.accept(kind, c.from()[i], c.type()[i], c.start()[i], c.end()[i], 0, c.volume()[i], c.to()[i]);
            }
          }
        }
      }
      default -> throw new AssertionError(kind);
    }
  }

  /**
   * Fills {@code columns} with what {@code visit} must see of a chunk: the whole chunk, or, when
   * the selection holds few of the chunk's producers, each selected producer's run in turn (the
   * store's producer directory), so that a query on a few producers reads their records only.
   */
  private static void forEachRun(TraceStore store, Chunk chunk, Columns columns, int[] producers, Runnable visit) {
    if (producers == null || producers.length * RUN_READS_PER_CHUNK_READ > chunk.producers()) {
      store.read(chunk, columns);
      visit.run();
      return;
    }
    for (int producer : producers) {
      store.read(chunk, columns, producer);
      if (columns.size() > 0) {
        visit.run();
      }
    }
  }

  /** Reading runs beats reading the chunk while the selection holds under 1/4 of its producers. */
  private static final int RUN_READS_PER_CHUNK_READ = 4;

  private static Comparator<Record> order(Column column, String[] producers, String[] types) {
    Comparator<Record> primary = switch (column) {
      case START -> Comparator.comparingDouble(Record::start);
      case END -> Comparator.comparingDouble(Record::end);
      case DURATION -> Comparator.comparingDouble(Record::duration);
      case PRODUCER -> Comparator.comparing((Record r) -> producers[r.producer()]);
      case TYPE -> Comparator.comparing((Record r) -> types[r.type()]);
      case KIND -> Comparator.comparing(Record::kind);
      case VALUE -> Comparator.comparingDouble(Record::value); // NaN (no value) after every number
    };
    // A total order, so that a page is the same whatever the order the chunks were read in.
    return primary.thenComparingDouble(Record::start).thenComparingDouble(Record::end)
        .thenComparingInt(Record::producer).thenComparingInt(Record::type).thenComparingInt(Record::depth)
        .thenComparingInt(Record::to).thenComparing(Record::kind);
  }

  /**
   * The store ids of the producers named (a name, or a path below the root "site/host/rank" where
   * names repeat) and of their subtrees; null for an empty list (every producer).
   *
   * @throws IllegalArgumentException naming an unknown or ambiguous producer
   */
  public static Set<Integer> producersNamed(StoreMetadata m, List<String> names) {
    if (names.isEmpty()) {
      return null;
    }
    List<StoreMetadata.Producer> all = m.producers();
    String[] paths = new String[all.size()];
    List<List<Integer>> children = new ArrayList<>();
    all.forEach(p -> children.add(new ArrayList<>()));
    for (StoreMetadata.Producer p : all) {
      if (p.parent() >= 0) {
        children.get(p.parent()).add(p.id());
      }
    }
    for (StoreMetadata.Producer p : all) {
      paths[p.id()] = m.path(p.id());
    }
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (String name : names) {
      List<Integer> found = new ArrayList<>();
      for (StoreMetadata.Producer p : all) {
        if (p.parent() >= 0 && (paths[p.id()].equals(name) || !name.contains("/") && p.name().equals(name))) {
          found.add(p.id());
        }
      }
      if (found.isEmpty()) {
        throw new IllegalArgumentException("unknown producer '" + name + "'");
      }
      if (found.size() > 1) {
        throw new IllegalArgumentException("producer '" + name + "' is ambiguous (" + found.size()
            + " have that name): give its path, e.g. " + paths[found.get(0)]);
      }
      java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(found);
      while (!todo.isEmpty()) {
        int id = todo.pop();
        ids.add(id);
        todo.addAll(children.get(id));
      }
    }
    return ids;
  }

  /**
   * The store ids of the types named (a type's name, or its group: a Pajé state type); null for
   * an empty list.
   *
   * @throws IllegalArgumentException naming an unknown type
   */
  public static Set<Integer> typesNamed(StoreMetadata m, List<String> names) {
    if (names.isEmpty()) {
      return null;
    }
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (String name : names) {
      boolean any = false;
      for (StoreMetadata.EventType t : m.types()) {
        if (t.name().equals(name) || name.equals(t.group())) {
          ids.add(t.id());
          any = true;
        }
      }
      if (!any) {
        throw new IllegalArgumentException("unknown type '" + name + "'");
      }
    }
    return ids;
  }

  /**
   * The categories named (state, event, variable, link, in any case); {@code otherwise} for an
   * empty list.
   *
   * @throws IllegalArgumentException naming the unknown kind
   */
  public static Set<EventCategory> kindsNamed(List<String> names, Set<EventCategory> otherwise) {
    if (names.isEmpty()) {
      return otherwise;
    }
    Set<EventCategory> kinds = java.util.EnumSet.noneOf(EventCategory.class);
    for (String name : names) {
      try {
        kinds.add(EventCategory.valueOf(name.toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("kind: expected state, event, variable or link, got '" + name + "'");
      }
    }
    return kinds;
  }

  /** The kind of a record as people name it: state, event, variable, link. */
  public static String kindName(EventCategory kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }
}
