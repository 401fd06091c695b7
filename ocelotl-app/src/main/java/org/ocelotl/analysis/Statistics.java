package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.ocelotl.io.Csv;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.TimeScale;

/**
 * The statistics of a selection (window × producers × types × kinds, docs/analysis.md): per
 * type its total, share, record count and, for states, the distribution of durations; the same
 * per producer or per node of the producer tree; and the density of records over the window.
 * One JSON and one CSV form, shared by {@code ocelotl stats} and {@code GET /api/stats}.
 *
 * <p>Totals clip records to the window: the time a state or link spends inside it, the events
 * in it, the time-weighted mean of a variable over the time its steps cover inside it. A state's
 * time is its exclusive (self) time by default: the time inside it minus that of the states nested
 * in it on the same producer, so that nested states are counted once and the shares of states add
 * up to the time covered ({@code inclusive}: each state's whole time, nested ones counted again in
 * every state around them). Each state type's row also gives the least and the most time of one
 * producer (of the selected producers with states in the window; 0 for one that never ran it). Duration
 * quantiles are of the states' own, unclipped durations, exact (every duration is kept in a
 * primitive array, its ranks found by {@link Quantiles}), by nearest rank: the q-quantile of n
 * sorted durations is the ⌈q·n⌉-th.
 *
 * @param producers names or paths (with their subtrees); empty: all
 * @param types     type names or groups; empty: all
 * @param kinds     state, event, variable, link; empty: all
 * @param by        {@code type}, {@code producer} or {@code depth:K} (the ancestors K levels below the root)
 * @param top       per type, the largest {@code top} groups and one "(others)" row; 0: every group
 * @param buckets   the density's number of equal time buckets
 * @param inclusive states' inclusive times rather than their exclusive (self) times
 */
public record Statistics(TraceStore store, double from, double to, List<String> producers, List<String> types,
    List<String> kinds, String by, int top, int buckets, boolean inclusive) {
  public static final int DEFAULT_BUCKETS = 50;
  public static final int MAX_BUCKETS = 10_000;
  /** The name of the row that sums the groups beyond the top N. */
  public static final String OTHERS = "(others)";

  /** The statistics a request asks for (RequestSpec.STATS) on a window of {@code store}. */
  /** The states' time the statistics give: "exclusive" or "inclusive". */
  public String time() {
    return inclusive ? RequestSpec.INCLUSIVE : RequestSpec.EXCLUSIVE;
  }

  public static Statistics of(RequestValues v, TraceStore store, Requests.Window w) {
    return new Statistics(store, w.from(), w.to(), w.producers(), w.types(), v.list(RequestSpec.KIND),
        v.text(RequestSpec.BY), v.integer(RequestSpec.TOP), v.integer(RequestSpec.BUCKETS),
        v.text(RequestSpec.TIME).equalsIgnoreCase(RequestSpec.INCLUSIVE));
  }

  /** The statistics, checked: every refusal names the parameter. */
  public Result answer() {
    StoreMetadata m = store.metadata();
    double start = Double.isNaN(from) ? m.start() : from;
    double end = Double.isNaN(to) ? m.windowEnd() : to;
    if (!(end > start)) {
      throw new IllegalArgumentException("the window needs from < to, got from = " + start + ", to = " + end);
    }
    m.checkWindow(start, end); // outside the trace: refused as a model refuses it (overview)
    if (buckets < 1 || buckets > MAX_BUCKETS) {
      throw new IllegalArgumentException("buckets must be 1 to " + MAX_BUCKETS + ", got " + buckets);
    }
    int depth = groupDepth(by);
    if (top < 0 || top > 0 && depth < 0) {
      throw new IllegalArgumentException(top < 0 ? "top must be ≥ 0 (0: every group), got " + top
          : "top: only with by producer or depth:K, where rows are groups");
    }
    Set<EventCategory> categories = RecordQuery.kindsNamed(kinds, EnumSet.allOf(EventCategory.class));
    Set<Integer> kept = RecordQuery.typesNamed(m, types);
    boolean nesting = !inclusive && categories.contains(EventCategory.STATE);
    Groups rows = groups(m, RecordQuery.producersNamed(m, producers), depth);
    // Exclusive times need the states around the kept ones, of any type: the type filter is then the tally's.
    RecordQuery.Selection selection = new RecordQuery.Selection(start, end, null, nesting ? null : kept,
        categories, null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0);
    List<Tally> runs = RecordQuery.forEachInRuns(store, selection,
        () -> new Tally(m, rows, depth >= 0, start, end, buckets, kept, nesting));
    Tally tally = Tally.merged(runs);
    if (tally.nestedSeen) {
      // Only now are the states kept for the subtraction: a trace without nesting (most) pays one pass, no sort.
      RecordQuery.forEach(store, new RecordQuery.Selection(start, end, null, null, EnumSet.of(EventCategory.STATE), null,
          Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0), tally::keepState);
      tally.subtractNested();
    }
    tally.stateTotals();
    // After the subtraction: the totals rank the groups, and only the top N's durations are kept apart.
    tally.placeDurations(runs, top);
    if (categories.contains(EventCategory.STATE)) {
      // The durations read again, straight into their arrays: the same runs, states first (kinds in order).
      RecordQuery.Selection states = new RecordQuery.Selection(start, end, null, selection.types(),
          EnumSet.of(EventCategory.STATE), null, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
          RecordQuery.Column.START, false, 0, 0);
      RecordQuery.forEachInRuns(store, states, k -> tally.placing(k));
    }
    return new Result(this, TraceSummary.of(store), start, end, depth >= 0, tally.rows(top), tally.records,
        tally.density);
  }

  /** -1 for {@code type}, 0 for {@code producer} (every producer its own group), K for {@code depth:K}. */
  private static int groupDepth(String by) {
    if (by.equals("type")) {
      return -1;
    }
    if (by.equals("producer")) {
      return 0;
    }
    if (by.startsWith("depth:")) {
      try {
        int k = Integer.parseInt(by.substring("depth:".length()));
        if (k >= 1) {
          return k;
        }
      } catch (NumberFormatException e) {
        // refused below, with the other spellings
      }
    }
    throw new IllegalArgumentException("by: expected type, producer or depth:K (K ≥ 1), got '" + by + "'");
  }

  /**
   * The rows' producers: per store producer, the index of the row its records go to, or -1 when
   * it is not selected; and per row, its producer: the root for {@code type}, each producer for
   * {@code producer}, the ancestor at depth K (or a shallower producer itself) for {@code depth:K}.
   */
  private record Groups(int[] of, int[] producer) {}

  private static Groups groups(StoreMetadata m, Set<Integer> selected, int depth) {
    int n = m.producers().size();
    int[] levels = new int[n];
    Arrays.fill(levels, -1);
    int[] indexOf = new int[n];
    Arrays.fill(indexOf, -1);
    int[] of = new int[n];
    int[] producer = new int[n];
    int count = 0;
    for (int p = 0; p < n; p++) {
      if (selected != null && !selected.contains(p)) {
        of[p] = -1;
        continue;
      }
      int group = depth < 0 ? root(m, p) : depth == 0 ? p : ancestorAt(m, p, depth, levels);
      if (indexOf[group] < 0) {
        indexOf[group] = count;
        producer[count++] = group;
      }
      of[p] = indexOf[group];
    }
    return new Groups(of, Arrays.copyOf(producer, count));
  }

  private static int root(StoreMetadata m, int p) {
    while (m.producers().get(p).parent() >= 0) {
      p = m.producers().get(p).parent();
    }
    return p;
  }

  private static int level(StoreMetadata m, int p, int[] levels) {
    if (levels[p] < 0) {
      int parent = m.producers().get(p).parent();
      levels[p] = parent < 0 ? 0 : level(m, parent, levels) + 1;
    }
    return levels[p];
  }

  private static int ancestorAt(StoreMetadata m, int p, int depth, int[] levels) {
    while (level(m, p, levels) > depth) {
      p = m.producers().get(p).parent();
    }
    return p;
  }

  /**
   * The figures of one type, or of one group of producers for one type.
   *
   * @param producer  the group's producer path ({@link #OTHERS} for the rest); null for a whole type
   * @param total     time inside the window (states, links), events in it, or the variable's
   *                  time-weighted mean (NaN when its steps cover no time in the window)
   * @param share     of the total of the type's kind (of the type's total, for a group); NaN for variables
   * @param merged    groups summed in this row: 1 for a group, more for {@link #OTHERS} and a type
   * @param durations min, mean, median, p90, p99, max of the states' durations; null for other kinds
   * @param groups    a type's rows per group, by total descending (empty unless grouped, and for a group)
   * @param producerMin a state type's least time on one producer (NaN for other kinds and for groups)
   * @param producerMax its most
   */
  public record Row(String type, EventCategory kind, String producer, double total, double share, long records,
      int merged, double[] durations, List<Row> groups, double producerMin, double producerMax) {}

  /** The answer, with what it needs to be written. */
  public record Result(Statistics request, TraceSummary trace, double from, double to, boolean grouped,
      List<Row> types, long records, long[] density) {
    public byte[] json() {
      ObjectNode json = JsonForm.object();
      json.set("trace", JsonForm.trace(trace));
      json.put("from", from);
      json.put("to", to);
      json.put("unit", trace.unit());
      // For the density's time axis: since the trace's start, in a unit that suits the window.
      JsonForm.timeScale(json, TimeScale.of(trace.unit(), trace.origin(), to - from));
      json.put("by", request.by());
      json.put("time", request.time());
      json.put("top", request.top());
      json.put("records", records);
      ArrayNode rows = json.putArray("types");
      for (Row type : types) {
        ObjectNode row = figures(rows.addObject().put("type", type.type())
            .put("kind", RecordQuery.kindName(type.kind())), type);
        if (grouped) {
          ArrayNode groups = row.putArray("groups");
          for (Row g : type.groups()) {
            figures(groups.addObject().put("producer", g.producer()), g).put("merged", g.merged());
          }
        }
      }
      ObjectNode d = json.putObject("density");
      d.put("buckets", density.length);
      d.put("width", (to - from) / density.length);
      ArrayNode counts = d.putArray("counts");
      for (long c : density) {
        counts.add(c);
      }
      return JsonForm.bytes(json);
    }

    private static ObjectNode figures(ObjectNode o, Row r) {
      number(o, "total", r.total());
      number(o, "share", r.share());
      o.put("records", r.records());
      if (!Double.isNaN(r.producerMin())) {
        o.putObject("perProducer").put("min", r.producerMin()).put("max", r.producerMax());
      }
      if (r.durations() != null) {
        ObjectNode d = o.putObject("durations");
        String[] names = {"min", "mean", "median", "p90", "p99", "max"};
        for (int k = 0; k < names.length; k++) {
          d.put(names[k], r.durations()[k]);
        }
      }
      return o;
    }

    private static void number(ObjectNode o, String name, double value) {
      if (Double.isNaN(value)) {
        o.putNull(name);
      } else {
        o.put(name, value);
      }
    }

    /** One row per type, or per group of each type when grouped; the density is in the JSON only. */
    public byte[] csv() {
      StringBuilder csv = new StringBuilder("type,kind," + (grouped ? "producer," : "")
          + "total,share,records,min,mean,median,p90,p99,max,producer_min,producer_max\n");
      for (Row type : types) {
        for (Row r : grouped ? type.groups() : List.of(type)) {
          csv.append(Csv.field(type.type())).append(',').append(RecordQuery.kindName(type.kind()));
          if (grouped) {
            csv.append(',').append(Csv.field(r.producer()));
          }
          csv.append(',').append(field(r.total())).append(',').append(field(r.share())).append(',').append(r.records());
          for (int k = 0; k < 6; k++) {
            csv.append(',').append(r.durations() == null ? "" : String.valueOf(r.durations()[k]));
          }
          csv.append(',').append(field(r.producerMin())).append(',').append(field(r.producerMax()));
          csv.append('\n');
        }
      }
      return csv.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String field(double value) {
      return Double.isNaN(value) ? "" : String.valueOf(value);
    }
  }

  /** Sums per (group, type) cell in primitive arrays, filled record by record. */
  private static final class Tally implements RecordQuery.StateSink {
    final StoreMetadata m;
    final Groups groups;
    /** Whether rows per group are asked for: without them, durations are kept per type only. */
    final boolean grouped;
    final double from;
    final double to;
    final int typeCount;
    /**
     * Per cell (group × types + type): clipped time, event count, or Σ value × clipped time;
     * compensated, so that the records' order does not show in the sums.
     */
    final CompensatedSums total;
    /** Per cell: the clipped time a variable's steps cover (the weight of its mean). */
    final CompensatedSums covered;
    final long[] cellRecords;
    /**
     * Made by {@link #placeDurations} and filled by the {@link Placing} of each run, their states'
     * durations in scan order: per type, unless grouped; when grouped, per cell with a row of its
     * own and, per type, of its groups beyond the top N.
     */
    double[][] typeDurations;
    double[][] cellDurations;
    double[][] othersDurations;
    /** Per type, its cells in the order of its group rows ({@link #rankGroups}); per cell, whether it has a row. */
    int[][] ranked;
    boolean[] ownRow;
    /** Per run (of {@link RecordQuery#forEachInRuns}), where its durations go in each cell's, type's and others' array. */
    int[][] cellAt;
    int[][] typeAt;
    int[][] othersAt;
    final long[] density;
    long records;
    /** The types asked for, or null for all; the others' states are read only as what nests the kept ones. */
    final Set<Integer> kept;
    /** Whether states are kept (start, end, type, depth, producer) to subtract the nested ones' time after the scan. */
    final boolean nesting;
    final Nesting states;
    /** Whether a state of the window is nested (exclusive times then need a second pass). */
    boolean nestedSeen;
    /**
     * Per (producer × types + state type): the time on that producer alone, for the min and max
     * across producers, and the sum of its group's total for that type ({@link #stateTotals}).
     */
    final CompensatedSums perProducer;
    /** Per producer: whether it has states in the window. */
    final boolean[] withStates;

    Tally(StoreMetadata m, Groups groups, boolean grouped, double from, double to, int buckets, Set<Integer> kept,
        boolean nesting) {
      this.m = m;
      this.groups = groups;
      this.grouped = grouped;
      this.from = from;
      this.to = to;
      this.typeCount = m.types().size();
      int cells = groups.producer().length * typeCount;
      total = new CompensatedSums(cells);
      covered = new CompensatedSums(cells);
      cellRecords = new long[cells];
      density = new long[buckets];
      this.kept = kept;
      this.nesting = nesting;
      this.states = nesting ? new Nesting() : null;
      perProducer = new CompensatedSums(m.producers().size() * typeCount);
      withStates = new boolean[m.producers().size()];
    }

    /** Every state of a chunk the selection keeps, in this loop of the tally's own (see {@link RecordQuery.StateSink}). */
    @Override
    public void states(StateColumns c, RecordQuery.StateFilter keep) {
      double[] start = c.start();
      double[] end = c.end();
      int[] producer = c.producer();
      int[] type = c.type();
      int[] depth = c.depth();
      for (int i = 0, n = c.size(); i < n; i++) {
        if (keep.keeps(start[i], end[i], producer[i], type[i])) {
          state(producer[i], type[i], start[i], end[i], depth[i]);
        }
      }
    }

    @Override
    public void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value,
        int destination) {
      if (kind == EventCategory.STATE) {
        state(producer, type, start, end, depth);
        return;
      }
      // A link belongs to its source producer, as the store's per-producer counts say.
      int group = groups.of()[producer];
      if (group < 0 || kept != null && !kept.contains(type)) {
        return;
      }
      int cell = counted(group, type, start);
      other(kind, cell, Math.min(end, to) - Math.max(start, from), value);
    }

    private void state(int producer, int type, double start, double end, int depth) {
      int group = groups.of()[producer];
      if (group < 0) {
        return;
      }
      withStates[producer] = true;
      nestedSeen |= nesting && depth > 0;
      if (kept != null && !kept.contains(type)) {
        return;
      }
      counted(group, type, start);
      // The cell's total is its producers' (stateTotals): one compensated sum per state, not two.
      perProducer.add(producer * typeCount + type, Math.min(end, to) - Math.max(start, from));
    }

    /** A record of a group and a type counted, in its cell and in the density: its cell. */
    private int counted(int group, int type, double start) {
      int cell = group * typeCount + type;
      records++;
      cellRecords[cell]++;
      if (start >= from) {
        // (start − from)·B/(to − from) < B since start < to; the min guards its rounding.
        density[Math.min(density.length - 1, (int) ((start - from) * density.length / (to - from)))]++;
      }
      return cell;
    }

    /** The kinds other than states: links' and variables' clipped times, events' counts. */
    private void other(EventCategory kind, int cell, double clipped, double value) {
      switch (kind) {
        case LINK -> total.add(cell, clipped);
        case EVENT -> total.add(cell, 1);
        case VARIABLE -> {
          total.add(cell, value * clipped);
          covered.add(cell, clipped);
        }
        default -> throw new AssertionError(kind);
      }
    }

    /**
     * The runs' tallies as one, added in run order (chunk order): the first holds the sums, each
     * cell's and type's durations are the runs' in that order.
     */
    static Tally merged(List<Tally> runs) {
      Tally all = runs.get(0); // a window always meets one chunk at least
      for (Tally t : runs.subList(1, runs.size())) {
        all.total.addAll(t.total);
        all.covered.addAll(t.covered);
        all.perProducer.addAll(t.perProducer);
        for (int k = 0; k < all.cellRecords.length; k++) {
          all.cellRecords[k] += t.cellRecords[k];
        }
        for (int k = 0; k < all.density.length; k++) {
          all.density[k] += t.density[k];
        }
        for (int p = 0; p < all.withStates.length; p++) {
          all.withStates[p] |= t.withStates[p];
        }
        all.records += t.records;
        all.nestedSeen |= t.nestedSeen;
      }
      return all;
    }

    /**
     * The arrays of the states' durations and each run's place in them, for a second scan to fill
     * ({@link #placing}): per type or, when grouped, per group with a row of its own (the top N)
     * and per type for its others, each duration at the place the concatenation of the runs' in
     * run order gives it: a run's place in an array is what the runs before it hold of that array,
     * so the runs are placed in parallel. Each duration is written once: a grouped type's figures
     * are those of its groups' and others' arrays taken as one, and the groups beyond the top N,
     * whose own figures are not shown, get no array. The first scan logged no durations: a log per
     * run (3 MB, 80 runs for 1 s at the seeds' scale) was most of an answer's fresh heap, which a
     * server pays in page faults (decision 073); reading the states again costs less.
     */
    void placeDurations(List<Tally> runs, int top) {
      int cells = cellRecords.length;
      ranked = rankGroups();
      ownRow = new boolean[cells];
      for (int[] order : ranked) {
        for (int k = 0; k < order.length && (top == 0 || k < top); k++) {
          ownRow[order[k]] = true;
        }
      }
      int[][] runCounts = countsPerRun(runs);
      int[] cellSize = new int[cells];
      int[] typeSize = new int[typeCount];
      int[] othersSize = new int[typeCount];
      cellAt = new int[runs.size()][];
      typeAt = new int[runs.size()][];
      othersAt = new int[runs.size()][];
      for (int r = 0; r < runs.size(); r++) {
        cellAt[r] = cellSize.clone();
        typeAt[r] = typeSize.clone();
        othersAt[r] = othersSize.clone();
        for (int c = 0; c < cells; c++) {
          cellSize[c] += runCounts[r][c];
          typeSize[c % typeCount] += runCounts[r][c];
          if (!ownRow[c]) {
            othersSize[c % typeCount] += runCounts[r][c];
          }
        }
      }
      typeDurations = new double[typeCount][];
      othersDurations = new double[typeCount][];
      for (int t = 0; t < typeCount; t++) {
        typeDurations[t] = grouped || typeSize[t] == 0 ? null : new double[typeSize[t]];
        othersDurations[t] = grouped && othersSize[t] > 0 ? new double[othersSize[t]] : null;
      }
      cellDurations = new double[cells][];
      if (grouped) {
        for (int c = 0; c < cells; c++) {
          cellDurations[c] = ownRow[c] && cellSize[c] > 0 ? new double[cellSize[c]] : null;
        }
      }
    }

    /** The sink of the second scan's run {@code run}: its states' durations into the arrays. */
    Placing placing(int run) {
      return new Placing(this, cellAt[run], typeAt[run], othersAt[run]);
    }

    /**
     * Per type, its cells with records in the order of its group rows: by total (a variable's
     * mean) descending, then by the group's path.
     */
    private int[][] rankGroups() {
      int[][] order = new int[typeCount][];
      if (!grouped) {
        java.util.Arrays.fill(order, new int[0]);
        return order;
      }
      for (StoreMetadata.EventType t : m.types()) {
        List<Integer> cells = new ArrayList<>();
        for (int g = 0; g < groups.producer().length; g++) {
          if (cellRecords[g * typeCount + t.id()] > 0) {
            cells.add(g * typeCount + t.id());
          }
        }
        String[] paths = new String[cells.size()];
        double[] values = new double[cells.size()];
        for (int k = 0; k < paths.length; k++) {
          paths[k] = m.path(groups.producer()[cells.get(k) / typeCount]);
          values[k] = groupValue(t, cells.get(k));
        }
        Integer[] ks = new Integer[paths.length];
        for (int k = 0; k < ks.length; k++) {
          ks[k] = k;
        }
        Arrays.sort(ks, Comparator.comparing((Integer k) -> values[k], Comparator.reverseOrder())
            .thenComparing(k -> paths[k]));
        order[t.id()] = Arrays.stream(ks).mapToInt(k -> cells.get(k)).toArray();
      }
      return order;
    }

    /** A group's total for a type, or a variable's time-weighted mean. */
    private double groupValue(StoreMetadata.EventType t, int cell) {
      return t.category() == EventCategory.VARIABLE ? total.get(cell) / covered.get(cell) : total.get(cell);
    }

    /**
     * Per run and cell, the durations the run will place: a state cell's records, as the runs
     * counted them. The first run's counts are the sums {@link #merged} left in
     * it, less the other runs' (exact: counts).
     */
    private int[][] countsPerRun(List<Tally> runs) {
      int cells = cellRecords.length;
      boolean[] stateCell = new boolean[cells];
      for (StoreMetadata.EventType t : m.types()) {
        for (int g = 0; g < groups.producer().length; g++) {
          stateCell[g * typeCount + t.id()] = t.category() == EventCategory.STATE;
        }
      }
      int[][] counts = new int[runs.size()][cells];
      for (int c = 0; c < cells; c++) {
        if (!stateCell[c]) {
          continue;
        }
        long rest = cellRecords[c];
        for (int r = 1; r < runs.size(); r++) {
          counts[r][c] = (int) runs.get(r).cellRecords[c];
          rest -= runs.get(r).cellRecords[c];
        }
        counts[0][c] = (int) rest;
      }
      return counts;
    }

    /** A state of the window, kept for {@link #subtractNested} if its producer is counted. */
    void keepState(RecordQuery.Record r) {
      if (groups.of()[r.producer()] >= 0) {
        states.add(r);
      }
    }

    /**
     * Takes from each state's total the time of the states nested in it (exclusive times). Per
     * producer, in order of start (the outer first on equal starts: lower depth), a state at depth
     * d > 0 lies in the last state seen at depth d − 1: the store gives states of one producer and
     * one depth that never overlap, and a state's depth is that of the stack it was pushed on. The
     * time subtracted is that of the nested state inside the outer one and inside the window —
     * all of it for properly nested states; a state that outlives the one below it (formats of
     * complete intervals, docs/formats.md) gives back only what they share.
     */
    void subtractNested() {
      Integer[] order = states.order();
      int[] openType = new int[8];
      double[] openStart = new double[8];
      double[] openEnd = new double[8];
      int previous = -1;
      for (int i : order) {
        int producer = states.producer.get(i);
        int depth = states.depth.get(i);
        double s = states.start.get(i);
        double e = states.end.get(i);
        int type = states.type.get(i);
        boolean sameProducer = producer == previous;
        previous = producer;
        if (depth > 0 && sameProducer && depth - 1 < openType.length && openType[depth - 1] >= 0) {
          int outer = openType[depth - 1];
          double shared = Math.min(Math.min(e, openEnd[depth - 1]), to) - Math.max(Math.max(s, openStart[depth - 1]), from);
          if (shared > 0 && (kept == null || kept.contains(outer))) {
            perProducer.add(producer * typeCount + outer, -shared);
          }
        }
        if (!sameProducer) {
          java.util.Arrays.fill(openType, -1);
        }
        if (depth >= openType.length) {
          int n = Math.max(depth + 1, openType.length * 2);
          int old = openType.length;
          openType = Arrays.copyOf(openType, n);
          Arrays.fill(openType, old, n, -1);
          openStart = Arrays.copyOf(openStart, n);
          openEnd = Arrays.copyOf(openEnd, n);
        }
        openType[depth] = type;
        openStart[depth] = s;
        openEnd[depth] = e;
      }
    }

    /**
     * Each state cell's total, as the compensated sum of its producers': the same sum, the exact
     * one rounded once, as adding the states' times to the cell directly.
     */
    void stateTotals() {
      for (StoreMetadata.EventType t : m.types()) {
        if (t.category() != EventCategory.STATE) {
          continue;
        }
        for (int p = 0; p < groups.of().length; p++) {
          if (groups.of()[p] >= 0) {
            total.add(groups.of()[p] * typeCount + t.id(), perProducer, p * typeCount + t.id());
          }
        }
      }
    }

    /** The least and most time of a state type on one producer with states in the window. */
    private double[] acrossProducers(int type) {
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (int p = 0; p < withStates.length; p++) {
        if (withStates[p]) {
          double v = perProducer.get(p * typeCount + type);
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
      return new double[] {min, max};
    }

    /** Types with records: by kind, then total descending; each with its groups, top N and the others. */
    List<Row> rows(int top) {
      // Each row's figures at once, in parallel: they only read the arrays. A grouped type's and
      // its others' row's together, in the same passes over the others' array (their last part).
      double[][] typeFigures = new double[typeCount][];
      double[][] cellFigures = new double[cellDurations.length][];
      double[][] othersFigures = new double[typeCount][];
      java.util.stream.IntStream.range(0, typeCount + cellDurations.length).parallel().forEach(k -> {
        if (k < typeCount && grouped) {
          double[][] parts = groupsOf(k);
          double[][] both = distributions(parts, othersDurations[k] == null ? parts.length : parts.length - 1);
          typeFigures[k] = both[0];
          othersFigures[k] = both[1];
        } else if (k < typeCount) {
          typeFigures[k] = distribution(present(typeDurations[k]));
        } else {
          cellFigures[k - typeCount] = distribution(present(cellDurations[k - typeCount]));
        }
      });
      double[] kindTotals = new double[EventCategory.values().length];
      List<Row> rows = new ArrayList<>();
      for (StoreMetadata.EventType t : m.types()) {
        long count = 0;
        double sum = 0;
        double weight = 0;
        int merged = 0;
        for (int g = 0; g < groups.producer().length; g++) {
          int cell = g * typeCount + t.id();
          if (cellRecords[cell] > 0) {
            count += cellRecords[cell];
            sum += total.get(cell);
            weight += covered.get(cell);
            merged++;
          }
        }
        if (count == 0) {
          continue;
        }
        double typeTotal = t.category() == EventCategory.VARIABLE ? sum / weight : sum;
        kindTotals[t.category().ordinal()] += typeTotal;
        double[] across = t.category() == EventCategory.STATE ? acrossProducers(t.id())
            : new double[] {Double.NaN, Double.NaN};
        rows.add(new Row(t.name(), t.category(), null, typeTotal, Double.NaN, count, merged,
            typeFigures[t.id()], grouped ? groupRows(t, typeTotal, top, cellFigures, othersFigures[t.id()]) : List.of(),
            across[0], across[1]));
      }
      List<Row> shared = new ArrayList<>();
      for (Row r : rows) {
        double kindTotal = kindTotals[r.kind().ordinal()];
        shared.add(new Row(r.type(), r.kind(), null, r.total(), share(r.kind(), r.total(), kindTotal), r.records(),
            r.merged(), r.durations(), r.groups(), r.producerMin(), r.producerMax()));
      }
      shared.sort(Comparator.comparing(Row::kind).thenComparing(Row::total, Comparator.reverseOrder())
          .thenComparing(Row::type));
      return shared;
    }

    /** A type's top N groups' rows, in {@link #rankGroups}' order, then the others' row. */
    private List<Row> groupRows(StoreMetadata.EventType t, double typeTotal, int top, double[][] cellFigures,
        double[] othersFigures) {
      int[] order = ranked[t.id()];
      int shown = top == 0 ? order.length : Math.min(top, order.length);
      List<Row> rows = new ArrayList<>();
      for (int cell : Arrays.copyOf(order, shown)) {
        double value = groupValue(t, cell);
        rows.add(new Row(t.name(), t.category(), m.path(groups.producer()[cell / typeCount]), value,
            share(t.category(), value, typeTotal), cellRecords[cell], 1, cellFigures[cell], List.of(),
            Double.NaN, Double.NaN));
      }
      if (shown < order.length) {
        rows.add(others(t, typeTotal, Arrays.copyOfRange(order, shown, order.length), othersFigures));
      }
      return rows;
    }

    /** The groups beyond the top N summed into one row; their durations' figures are their pool's. */
    private Row others(StoreMetadata.EventType t, double typeTotal, int[] rest, double[] pooledFigures) {
      long count = 0;
      double sum = 0;
      double weight = 0;
      for (int cell : rest) {
        count += cellRecords[cell];
        sum += total.get(cell);
        weight += covered.get(cell);
      }
      double value = t.category() == EventCategory.VARIABLE ? sum / weight : sum;
      return new Row(t.name(), t.category(), OTHERS, value, share(t.category(), value, typeTotal), count, rest.length,
          pooledFigures, List.of(), Double.NaN, Double.NaN);
    }

    private static double share(EventCategory kind, double value, double whole) {
      return kind == EventCategory.VARIABLE ? Double.NaN : whole > 0 ? value / whole : 0;
    }

    /** A grouped type's durations: its top groups' arrays and its others' array. */
    private double[][] groupsOf(int type) {
      List<double[]> parts = new ArrayList<>();
      for (int cell : ranked[type]) {
        if (cellDurations[cell] != null) {
          parts.add(cellDurations[cell]);
        }
      }
      if (othersDurations[type] != null) {
        parts.add(othersDurations[type]);
      }
      return parts.toArray(double[][]::new);
    }

    /** An array as the parts of {@link #distribution}: none when null. */
    private static double[][] present(double[] durations) {
      return durations == null ? new double[0][] : new double[][] {durations};
    }

    /** min, mean, median, p90, p99, max of the durations of {@code parts} taken as one, or null without any. */
    private static double[] distribution(double[][] parts) {
      return distributions(parts, parts.length)[0];
    }

    /**
     * {@link #distribution} of {@code parts} and of
     * {@code parts[tail..]} taken as one, each null without any. The mean's sum is compensated,
     * as the totals are; the least, the most and the quantiles are ranks ({@link Quantiles}), not
     * sorted for.
     */
    private static double[][] distributions(double[][] parts, int tail) {
      int n = 0;
      int tailN = 0;
      for (int p = 0; p < parts.length; p++) {
        n += parts[p].length;
        tailN += p >= tail ? parts[p].length : 0;
      }
      if (n == 0) {
        return new double[2][];
      }
      double[][] r = Quantiles.ranks(parts, tail, figureRanks(n), tailN == 0 ? new int[0] : figureRanks(tailN));
      double[] sums = CompensatedSums.of(parts, tail);
      return new double[][] {figures(r[0], sums[0] / n),
          tailN == 0 ? null : figures(r[1], sums[1] / tailN)};
    }

    /** The ranks of the least, the median, p90, p99 and the most of n values. */
    private static int[] figureRanks(int n) {
      return new int[] {0, nearestRank(n, 50), nearestRank(n, 90), nearestRank(n, 99), n - 1};
    }

    /** min, mean, median, p90, p99, max from the ranks of {@link #figureRanks} and the mean. */
    private static double[] figures(double[] ranks, double mean) {
      return new double[] {ranks[0], mean, ranks[1], ranks[2], ranks[3], ranks[4]};
    }

    /** The index of the ⌈q·n⌉-th of n values, q = percent/100, in integers: 0.29·100 in doubles is 28.999…. */
    private static int nearestRank(int n, int percent) {
      long rank = ((long) percent * n + 99) / 100;
      return (int) rank - 1; // ≥ 0: percent·n ≥ 1
    }
  }

  /**
   * One run's states' durations written into the tally's arrays, from the places given (which it
   * moves on): the states the tally counted in the same run, in the same order (its tests).
   */
  private static final class Placing implements RecordQuery.StateSink {
    final int[] groupOf;
    final boolean grouped;
    final int typeCount;
    /** Per type, whether its states are counted (the tally's {@code kept} as a mask); null: all. */
    final boolean[] kept;
    final boolean[] own;
    final double[][] types;
    final double[][] cells;
    final double[][] others;
    final int[] cellAt;
    final int[] typeAt;
    final int[] othersAt;

    Placing(Tally all, int[] cellAt, int[] typeAt, int[] othersAt) {
      groupOf = all.groups.of();
      grouped = all.grouped;
      typeCount = all.typeCount;
      if (all.kept == null) {
        kept = null;
      } else {
        kept = new boolean[typeCount];
        for (int t : all.kept) {
          if (t >= 0 && t < typeCount) {
            kept[t] = true;
          }
        }
      }
      own = all.ownRow;
      types = all.typeDurations;
      cells = all.cellDurations;
      others = all.othersDurations;
      this.cellAt = cellAt;
      this.typeAt = typeAt;
      this.othersAt = othersAt;
    }

    @Override
    public void states(StateColumns c, RecordQuery.StateFilter keep) {
      double[] start = c.start();
      double[] end = c.end();
      int[] producer = c.producer();
      int[] type = c.type();
      for (int i = 0, n = c.size(); i < n; i++) {
        if (keep.keeps(start[i], end[i], producer[i], type[i])) {
          place(producer[i], type[i], end[i] - start[i]);
        }
      }
    }

    @Override
    public void accept(EventCategory kind, int producer, int type, double start, double end, int depth, double value,
        int destination) {
      if (kind == EventCategory.STATE) {
        place(producer, type, end - start);
      }
    }

    /** As {@link Tally#state} counts: its group's, if counted and of a type kept. */
    private void place(int producer, int type, double duration) {
      int group = groupOf[producer];
      if (group < 0 || kept != null && !kept[type]) {
        return;
      }
      int cell = group * typeCount + type;
      if (!grouped) {
        types[type][typeAt[type]++] = duration;
      } else if (own[cell]) {
        cells[cell][cellAt[cell]++] = duration;
      } else {
        others[type][othersAt[type]++] = duration;
      }
    }
  }

  /** The states read, as columns, for {@link Tally#subtractNested}. */
  private static final class Nesting {
    final org.ocelotl.primitive.IntColumn producer = new org.ocelotl.primitive.IntColumn();
    final org.ocelotl.primitive.IntColumn type = new org.ocelotl.primitive.IntColumn();
    final org.ocelotl.primitive.IntColumn depth = new org.ocelotl.primitive.IntColumn();
    final org.ocelotl.primitive.DoubleColumn start = new org.ocelotl.primitive.DoubleColumn();
    final org.ocelotl.primitive.DoubleColumn end = new org.ocelotl.primitive.DoubleColumn();

    void add(RecordQuery.Record r) {
      producer.add(r.producer());
      type.add(r.type());
      depth.add(r.depth());
      start.add(r.start());
      end.add(r.end());
    }

    /** The states by producer, start, then depth (the query gives them chunk by chunk). */
    Integer[] order() {
      Integer[] order = new Integer[start.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingInt((Integer i) -> producer.get(i))
          .thenComparingDouble(i -> start.get(i)).thenComparingInt(i -> depth.get(i)));
      return order;
    }
  }
}
