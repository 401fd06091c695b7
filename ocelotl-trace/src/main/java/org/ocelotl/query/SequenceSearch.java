package org.ocelotl.query;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * Pattern search (docs/analysis.md#sequences): where a sequence of state or event types occurs on
 * a producer. Each producer's <em>stream</em> is its own records that the event table would list
 * for the selection (window, types, kinds, expression, durations; states and events only), in
 * time order: by start, then depth (the outer state first), kind (a state before an event), then
 * the order the importer wrote them in, which the store keeps (simultaneous calls, such as a
 * simulator's zero-length states, stay in the trace's order). An <em>occurrence</em> is a run of consecutive records of one stream whose types are the
 * steps, in order, spanning at most {@code within} from the first step's start to the latest end
 * of its steps. Nothing may interleave: a record of the stream between two steps breaks the
 * occurrence (leave it out of the stream with the selection's types or expression to allow it).
 * Occurrences never share a record: the earliest is kept and the search resumes after its last
 * step — all occurrences have the same number of records, so this is also the leftmost-first
 * choice of a regular expression.
 *
 * <p>Cost: each producer's records of the window are read once, by its runs in the window's chunks
 * (the store's producer directory), producers in parallel. A producer's runs are sorted by start
 * but its chunks are cut in arrival order (a state arrives when it ends), so the stream is merged
 * from its runs, chunks taken by their least start: every record that starts before the next
 * chunk's least start is in its final place and is matched at once; memory holds the runs that
 * may still be overtaken, not the producer's records.
 */
public final class SequenceSearch {
  private SequenceSearch() {}

  /**
   * One search.
   *
   * @param stream the selection whose records form the streams (its kinds: states and events); its
   *               sort (start, end, duration or producer), direction, offset and limit page the occurrences
   * @param steps  per step, the type ids it accepts (a type, or a group's types)
   * @param within the longest span of an occurrence, in the trace's unit; infinity: no bound
   */
  public record Search(RecordQuery.Selection stream, List<Set<Integer>> steps, double within) {
    public Search {
      steps = List.copyOf(steps);
      if (steps.isEmpty()) {
        throw new IllegalArgumentException("a sequence needs at least one step");
      }
      if (!(within >= 0)) {
        throw new IllegalArgumentException("within: expected a duration ≥ 0, got " + within);
      }
      for (EventCategory kind : stream.kinds()) {
        if (kind != EventCategory.STATE && kind != EventCategory.EVENT) {
          throw new IllegalArgumentException("a sequence is searched among states and events, not "
              + RecordQuery.kindName(kind) + "s");
        }
      }
      if (!SORTS.contains(stream.sort())) {
        throw new IllegalArgumentException("sort: occurrences sort by start, end, duration or producer, not "
            + stream.sort().name().toLowerCase(java.util.Locale.ROOT));
      }
    }
  }

  private static final Set<RecordQuery.Column> SORTS = Set.of(RecordQuery.Column.START, RecordQuery.Column.END,
      RecordQuery.Column.DURATION, RecordQuery.Column.PRODUCER);

  /** One step of an occurrence: the record it matched. */
  public record Step(EventCategory kind, int type, double start, double end) {}

  /**
   * One occurrence: from its first step's start to the latest end of its steps.
   */
  public record Occurrence(int producer, double start, double end, List<Step> steps) {
    public double duration() {
      return end - start;
    }
  }

  /**
   * The occurrences: how many in all and on each producer (indexed by producer id), the earliest
   * start and the latest end of all (NaN when none; {@code lastIsInstant} when a step ending there
   * is an event or an instant state, which a window ending there would leave out), and the page.
   */
  public record Result(long total, long[] perProducer, double first, double last, boolean lastIsInstant,
      List<Occurrence> page) {}

  /** The occurrences of {@code search} on {@code store}. */
  public static Result find(TraceStore store, Search search) {
    RecordQuery.Selection s = search.stream();
    StoreMetadata m = store.metadata();
    String[] producerNames = new String[m.producers().size()];
    m.producers().forEach(p -> producerNames[p.id()] = p.name());
    String[] typeNames = new String[m.types().size()];
    m.types().forEach(t -> typeNames[t.id()] = t.name());
    Comparator<Occurrence> ascending = order(s.sort(), producerNames);
    Comparator<Occurrence> order = s.descending() ? ascending.reversed() : ascending;
    boolean[] typeMatches = s.match() == null ? null : matchesAll(s, typeNames);
    boolean[] producerMatches = s.match() == null ? null : matchesAll(s, producerNames);
    // Every chunk of the stream's kinds that meets the window, by least start: the merge order.
    List<Chunk> chunks = new ArrayList<>();
    double scanEnd = RecordQuery.scanEnd(store, s);
    for (EventCategory kind : s.kinds()) {
      chunks.addAll(store.chunks(kind, s.from(), scanEnd));
    }
    chunks.sort(Comparator.comparingDouble(Chunk::minTime));
    int[] producers = s.producers() == null ? java.util.stream.IntStream.range(0, producerNames.length).toArray()
        : s.producers().stream().mapToInt(Integer::intValue).sorted().toArray();
    // More groups than processors, so that a producer with many records does not leave a core idle.
    int groups = Math.max(1, Math.min(producers.length, 4 * Runtime.getRuntime().availableProcessors()));
    List<Found> found = java.util.stream.IntStream.range(0, groups).parallel().mapToObj(g -> {
      Found f = new Found(search, order, producerNames.length, typeMatches, producerMatches, store);
      try {
        for (int k = producers.length * g / groups; k < producers.length * (g + 1) / groups; k++) {
          f.producer(store, chunks, producers[k], scanEnd);
        }
      } catch (RuntimeException e) {
        f.failure = e; // rethrown below as itself: a parallel stream would wrap it
      }
      return f;
    }).toList();
    long total = 0;
    long[] perProducer = new long[producerNames.length];
    double first = Double.NaN;
    double last = Double.NaN;
    boolean lastIsInstant = false;
    List<Occurrence> kept = new ArrayList<>();
    for (Found f : found) {
      if (f.failure != null) {
        throw f.failure;
      }
      total += f.total;
      for (int p = 0; p < perProducer.length; p++) {
        perProducer[p] += f.perProducer[p];
      }
      if (f.total > 0) {
        first = Double.isNaN(first) ? f.first : Math.min(first, f.first);
        if (Double.isNaN(last) || f.last > last) {
          last = f.last;
          lastIsInstant = f.lastIsInstant;
        } else if (f.last == last) {
          lastIsInstant |= f.lastIsInstant;
        }
      }
      kept.addAll(f.heap);
    }
    kept.sort(order);
    int keep = Math.min(kept.size(), s.offset() + s.limit());
    List<Occurrence> page = s.offset() >= keep ? List.of() : kept.subList(s.offset(), keep);
    return new Result(total, perProducer, first, last, lastIsInstant, List.copyOf(page));
  }

  private static boolean[] matchesAll(RecordQuery.Selection s, String[] names) {
    BoundedMatch match = new BoundedMatch(s.match());
    boolean[] found = new boolean[names.length];
    for (int i = 0; i < names.length; i++) {
      found[i] = names[i] != null && match.find(names[i]);
    }
    return found;
  }

  /** The documented order of a page: the column, then start, producer, end, and the steps. */
  private static Comparator<Occurrence> order(RecordQuery.Column column, String[] producers) {
    Comparator<Occurrence> primary = switch (column) {
      case END -> Comparator.comparingDouble(Occurrence::end);
      case DURATION -> Comparator.comparingDouble(Occurrence::duration);
      case PRODUCER -> Comparator.comparing((Occurrence o) -> producers[o.producer()]);
      default -> Comparator.comparingDouble(Occurrence::start);
    };
    return primary.thenComparingDouble(Occurrence::start).thenComparingInt(Occurrence::producer)
        .thenComparingDouble(Occurrence::end).thenComparing(SequenceSearch::compareSteps);
  }

  /** Occurrences of one producer at the same start and end: by their steps (start, end, type), in order. */
  private static int compareSteps(Occurrence a, Occurrence b) {
    for (int i = 0; i < a.steps().size(); i++) {
      Step x = a.steps().get(i);
      Step y = b.steps().get(i);
      int c = Double.compare(x.start(), y.start());
      c = c != 0 ? c : Double.compare(x.end(), y.end());
      c = c != 0 ? c : Integer.compare(x.type(), y.type());
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /**
   * What one task finds on its producers: the counts, the span, and the best {@code offset +
   * limit} occurrences; and the reused buffers of its producers' streams.
   */
  private static final class Found {
    private final Search search;
    private final RecordQuery.Selection s;
    private final Comparator<Occurrence> order;
    private final boolean[] typeMatches;
    private final boolean[] producerMatches;
    /** step × type: whether the step accepts the type. */
    private final boolean[][] accepts;
    /** Whether a type is some step's: any other record breaks every occurrence around it. */
    private final boolean[] stepType;
    private final int keep;
    private final PriorityQueue<Occurrence> heap;
    private final StateColumns states;
    private final EventColumns events;
    private final boolean[] typeKept;
    final long[] perProducer;
    long total;
    double first = Double.NaN;
    double last = Double.NaN;
    boolean lastIsInstant;
    RuntimeException failure;

    /** The producer's runs not yet matched to the end, by their next record: the stream's merge. */
    private final PriorityQueue<Run> runs = new PriorityQueue<>(Run::compareNext);
    /** Runs matched to the end, their arrays reused. */
    private final ArrayDeque<Run> spare = new ArrayDeque<>();
    // The last records of the stream passed to the matcher, a ring of one slot per step.
    private final double[] ringStart;
    private final double[] ringEnd;
    private final int[] ringType;
    private final byte[] ringKind;
    private int ringNext;
    /** Records pushed since the last occurrence (or since a record that is no step's). */
    private int candidates;
    private int producer;

    Found(Search search, Comparator<Occurrence> order, int producers, boolean[] typeMatches,
        boolean[] producerMatches, TraceStore store) {
      this.search = search;
      this.s = search.stream();
      this.order = order;
      this.typeMatches = typeMatches;
      this.producerMatches = producerMatches;
      int types = store.metadata().types().size();
      int k = search.steps().size();
      this.accepts = new boolean[k][types];
      this.stepType = new boolean[types];
      for (int j = 0; j < k; j++) {
        for (int t : search.steps().get(j)) {
          if (t >= 0 && t < types) {
            accepts[j][t] = true;
            stepType[t] = true;
          }
        }
      }
      this.typeKept = RecordQuery.mask(s.types(), types);
      this.keep = s.offset() + s.limit();
      this.heap = new PriorityQueue<>(Math.max(1, Math.min(keep, 1 << 16)), order.reversed());
      this.perProducer = new long[producers];
      this.states = s.kinds().contains(EventCategory.STATE) ? store.stateColumns() : null;
      this.events = s.kinds().contains(EventCategory.EVENT) ? store.eventColumns() : null;
      this.ringStart = new double[k];
      this.ringEnd = new double[k];
      this.ringType = new int[k];
      this.ringKind = new byte[k];
    }

    /** Searches one producer's stream: its runs of the chunks, merged by least start. */
    void producer(TraceStore store, List<Chunk> chunks, int p, double scanEnd) {
      producer = p;
      candidates = 0;
      for (int c = 0; c < chunks.size(); c++) {
        Chunk chunk = chunks.get(c);
        Run run = spare.isEmpty() ? new Run() : spare.pop();
        run.clear();
        if (chunk.category() == EventCategory.STATE) {
          store.read(chunk, states, p);
          appendStates(run, scanEnd, (long) chunk.index() << 32);
        } else {
          store.read(chunk, events, p);
          appendEvents(run, scanEnd, (long) chunk.index() << 32);
        }
        if (run.size > 0) {
          run.sortTies();
          runs.add(run);
        } else {
          spare.push(run);
        }
        emitBefore(c + 1 < chunks.size() ? chunks.get(c + 1).minTime() : Double.POSITIVE_INFINITY);
      }
    }

    private boolean passes(int t, double duration) {
      return (typeKept == null || typeKept[t]) && duration >= s.minDuration() && duration <= s.maxDuration()
          && (typeMatches == null || typeMatches[t] || producerMatches[producer]);
    }

    private void appendStates(Run run, double scanEnd, long chunkSeq) {
      double[] st = states.start();
      double[] en = states.end();
      int[] ty = states.type();
      int[] de = states.depth();
      for (int i = 0; i < states.size(); i++) {
        if (RecordQuery.overlaps(st[i], en[i], s.from(), scanEnd) && passes(ty[i], en[i] - st[i])) {
          run.add(st[i], en[i], de[i], (byte) 0, ty[i], chunkSeq | i);
        }
      }
    }

    private void appendEvents(Run run, double scanEnd, long chunkSeq) {
      double[] ti = events.time();
      int[] ty = events.type();
      for (int i = 0; i < events.size(); i++) {
        if (ti[i] >= s.from() && ti[i] < scanEnd && passes(ty[i], 0)) {
          run.add(ti[i], ti[i], 0, (byte) 1, ty[i], chunkSeq | i);
        }
      }
    }

    /**
     * Matches the records starting before {@code watermark}, in the stream's order: no later chunk
     * can hold one that precedes them (each later chunk's records start at its least start or
     * after). A chunk whose least start is early because of one long state (a state arrives when
     * it ends) stays a run of its own meanwhile, its other records not copied again.
     */
    private void emitBefore(double watermark) {
      while (!runs.isEmpty() && runs.peek().start[runs.peek().next] < watermark) {
        Run run = runs.poll();
        Run second = runs.peek();
        // Emit from this run while it stays first: the usual case is one run at a time.
        do {
          int i = run.next++;
          push(run.start[i], run.end[i], run.kind[i], run.type[i]);
        } while (run.next < run.size && run.start[run.next] < watermark
            && (second == null || Run.compare(run, run.next, second, second.next) <= 0));
        if (run.next < run.size) {
          runs.add(run);
        } else {
          spare.push(run);
        }
      }
    }

    /** The next record of the stream: does it end an occurrence? */
    private void push(double start, double end, byte kind, int type) {
      if (!stepType[type]) {
        candidates = 0; // no occurrence can hold it
        return;
      }
      int k = ringStart.length;
      ringStart[ringNext] = start;
      ringEnd[ringNext] = end;
      ringType[ringNext] = type;
      ringKind[ringNext] = kind;
      ringNext = (ringNext + 1) % k;
      if (++candidates < k) {
        return;
      }
      // ringNext is now the oldest slot: step 0.
      double latest = Double.NEGATIVE_INFINITY;
      for (int j = 0; j < k; j++) {
        int slot = (ringNext + j) % k;
        if (!accepts[j][ringType[slot]]) {
          return;
        }
        latest = Math.max(latest, ringEnd[slot]);
      }
      double earliest = ringStart[ringNext];
      if (!(latest - earliest <= search.within())) {
        return;
      }
      candidates = 0;
      found(earliest, latest);
    }

    private void found(double earliest, double latest) {
      int k = ringStart.length;
      total++;
      perProducer[producer]++;
      first = Double.isNaN(first) ? earliest : Math.min(first, earliest);
      boolean instant = false;
      for (int j = 0; j < k; j++) {
        int slot = (ringNext + j) % k;
        instant |= ringEnd[slot] == latest && ringStart[slot] == ringEnd[slot];
      }
      if (Double.isNaN(last) || latest > last) {
        last = latest;
        lastIsInstant = instant;
      } else if (latest == last) {
        lastIsInstant |= instant;
      }
      if (keep == 0 || heap.size() == keep && worseThanWorst(earliest, latest)) {
        return; // counted; no object made for an occurrence that cannot enter the page
      }
      Step[] steps = new Step[k];
      for (int j = 0; j < k; j++) {
        int slot = (ringNext + j) % k;
        steps[j] = new Step(ringKind[slot] == 0 ? EventCategory.STATE : EventCategory.EVENT, ringType[slot],
            ringStart[slot], ringEnd[slot]);
      }
      Occurrence o = new Occurrence(producer, earliest, latest, List.of(steps));
      if (heap.size() < keep) {
        heap.add(o);
      } else if (order.compare(o, heap.peek()) < 0) {
        heap.poll();
        heap.add(o);
      }
    }

    /** Strictly worse than the worst kept by a numeric sort key alone (false when it cannot tell). */
    private boolean worseThanWorst(double earliest, double latest) {
      Occurrence worst = heap.peek();
      int c = switch (s.sort()) {
        case START -> Double.compare(earliest, worst.start());
        case END -> Double.compare(latest, worst.end());
        case DURATION -> Double.compare(latest - earliest, worst.duration());
        default -> 0;
      };
      return s.descending() ? c < 0 : c > 0;
    }
  }

  /**
   * One chunk's records of a producer's stream, in the stream's order, read from {@code next}:
   * parallel primitive arrays, reused from one chunk to another.
   */
  private static final class Run {
    double[] start = new double[64];
    double[] end = new double[64];
    int[] depth = new int[64];
    byte[] kind = new byte[64];
    int[] type = new int[64];
    /** The importer's order: chunk index, then position in the producer's run (kept stably by start). */
    long[] seq = new long[64];
    int size;
    int next;

    void clear() {
      size = 0;
      next = 0;
    }

    void add(double st, double en, int de, byte ki, int ty, long sq) {
      if (size == start.length) {
        int n = size * 2;
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        depth = Arrays.copyOf(depth, n);
        kind = Arrays.copyOf(kind, n);
        type = Arrays.copyOf(type, n);
        seq = Arrays.copyOf(seq, n);
      }
      start[size] = st;
      end[size] = en;
      depth[size] = de;
      kind[size] = ki;
      type[size] = ty;
      seq[size] = sq;
      size++;
    }

    /** The stream's order between record i of run a and record j of run b. */
    static int compare(Run a, int i, Run b, int j) {
      int c = Double.compare(a.start[i], b.start[j]);
      c = c != 0 ? c : Integer.compare(a.depth[i], b.depth[j]);
      c = c != 0 ? c : Byte.compare(a.kind[i], b.kind[j]);
      return c != 0 ? c : Long.compare(a.seq[i], b.seq[j]);
    }

    static int compareNext(Run a, Run b) {
      return compare(a, a.next, b, b.next);
    }

    /**
     * Sorts the run. It is sorted by start already, and in the importer's order among equal starts
     * (the store's order); only nested states starting together (the inner one arrives first,
     * when it ends) move, so insertion sort costs a pass plus the ties' moves.
     */
    void sortTies() {
      for (int i = 1; i < size; i++) {
        for (int j = i; j > 0 && compare(this, j - 1, this, j) > 0; j--) {
          swap(j - 1, j);
        }
      }
    }

    private void swap(int i, int j) {
      double a = start[i]; start[i] = start[j]; start[j] = a;
      a = end[i]; end[i] = end[j]; end[j] = a;
      int b = depth[i]; depth[i] = depth[j]; depth[j] = b;
      byte k = kind[i]; kind[i] = kind[j]; kind[j] = k;
      b = type[i]; type[i] = type[j]; type[j] = b;
      long q = seq[i]; seq[i] = seq[j]; seq[j] = q;
    }
  }
}
