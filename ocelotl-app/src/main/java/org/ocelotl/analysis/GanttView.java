package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelLayout;
import org.ocelotl.scan.ModelTree;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.AxisNode;
import org.ocelotl.view.Gantt;
import org.ocelotl.view.GanttGeometry;
import org.ocelotl.view.LegendEntry;
import org.ocelotl.view.OverviewGeometry;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.TimeWindow;

/**
 * The Gantt chart of a selection (window × producers × types × kinds), one geometry for every
 * renderer: the JSON form here, SVG/PNG by {@code export.GanttPicture}. Records are streamed
 * from the store into {@link GanttGeometry}: memory follows the pixels, not the records.
 *
 * @param producers producers kept with their subtrees (names or paths); empty: all
 * @param types     type names or groups; empty: all
 * @param kinds     state, event, variable, link; empty: states, events and links
 */
public record GanttView(TraceStore store, double from, double to, List<String> producers, List<String> types,
    List<String> kinds, int width, int height) {

  /**
   * The states of the rows of several producers read from the store's {@link GanttSummary} instead
   * of the records: its level, its buckets over the trace and their width in the trace's unit.
   */
  public record FromSummary(int level, long buckets, double bucketWidth, String unit) {
    /**
     * What the caption says instead of the records' SUMMARISED: where the sums come from and where
     * they are not the records' (a bucket across a pixel edge is cut by overlap).
     */
    public String caption() {
      return "SUMMARISED from the Gantt summary (" + buckets + " buckets of " + String.format(Locale.ROOT, "%.3g", bucketWidth)
          + " " + unit + "; sums exact at bucket edges, else shared by overlap): dominant type, share = opacity";
    }
  }

  /**
   * The chart and what its caption says.
   *
   * @param fromSummary null: every state's sums from the records
   */
  public record Result(GanttView request, TraceSummary trace, Gantt gantt, long records, TimeScale timeScale,
      FromSummary fromSummary) {
    /** Streamed: a chart holds tens of thousands of shapes. */
    public byte[] json() {
      Gantt g = gantt;
      return JsonForm.streamed(json -> {
        json.writeStartObject();
        json.writeObjectField("trace", JsonForm.trace(trace));
        json.writeNumberField("start", g.window().start());
        json.writeNumberField("end", g.window().end());
        json.writeStringField("unit", g.window().unit());
        json.writeObjectFieldStart("timeScale");
        json.writeNumberField("origin", timeScale.origin());
        json.writeNumberField("factor", timeScale.factor());
        json.writeStringField("unit", timeScale.unit());
        json.writeEndObject();
        json.writeNumberField("records", records);
        json.writeBooleanField("summarised", g.summarised());
        if (fromSummary != null) {
          json.writeObjectFieldStart("fromSummary");
          json.writeNumberField("level", fromSummary.level());
          json.writeNumberField("buckets", fromSummary.buckets());
          json.writeNumberField("bucketWidth", fromSummary.bucketWidth());
          json.writeStringField("unit", fromSummary.unit());
          json.writeStringField("caption", fromSummary.caption());
          json.writeEndObject();
        }
        json.writeArrayFieldStart("legend");
        for (LegendEntry e : g.legend()) {
          json.writeStartObject();
          json.writeNumberField("type", e.type());
          json.writeStringField("name", e.name());
          json.writeStringField("colour", e.colour());
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("producers");
        for (AxisNode a : g.producers()) {
          json.writeStartObject();
          json.writeNumberField("node", a.node());
          json.writeStringField("name", a.name());
          json.writeNumberField("depth", a.depth());
          json.writeNumberField("y0", a.y0());
          json.writeNumberField("y1", a.y1());
          json.writeNumberField("leaves", a.leaves());
          json.writeBooleanField("row", a.row());
          json.writeBooleanField("collapsed", a.collapsed());
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("shapes");
        for (Gantt.Shape s : g.shapes()) {
          json.writeStartObject();
          json.writeStringField("kind", s.kind().name().toLowerCase(Locale.ROOT));
          json.writeNumberField("x0", s.x0());
          json.writeNumberField("y0", s.y0());
          json.writeNumberField("x1", s.x1());
          json.writeNumberField("y1", s.y1());
          json.writeStringField("colour", s.colour());
          json.writeNumberField("opacity", s.opacity());
          json.writeNumberField("type", s.type());
          json.writeNumberField("depth", s.depth());
          json.writeNumberField("records", s.records());
          json.writeStringField("producer", s.producer());
          if (!Double.isNaN(s.start())) {
            json.writeNumberField("start", s.start());
            json.writeNumberField("end", s.end());
          }
          if (s.to() != null) {
            json.writeStringField("to", s.to());
          }
          if (!Double.isNaN(s.value())) {
            json.writeNumberField("value", s.value());
          }
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
      });
    }
  }

  /** @throws IllegalArgumentException naming the parameter that is wrong */
  public Result answer() {
    return answer(true, SummaryUse.WHEN_CHEAPER);
  }

  /** When the states of rows of several producers come from the store's {@link GanttSummary}. */
  enum SummaryUse {
    NEVER,
    /**
     * When it has a level no coarser than a pixel column and fewer cells to read than the window
     * has states (the store's count as if spread evenly over the trace): below that the records
     * cost no more, and they are exact.
     */
    WHEN_CHEAPER,
    /** Whenever it has a level no coarser than a pixel column (GanttSummaryTest's small traces). */
    WHEN_FINE_ENOUGH
  }

  /** With {@code kernel} false, every state record by record: GanttViewTest holds both charts equal. */
  Result answer(boolean kernel) {
    return answer(kernel, SummaryUse.NEVER);
  }

  /**
   * The states of rows of several producers from the store's {@link GanttSummary} as {@code summary}
   * says: GanttSummaryTest holds that chart equal to the kernel's at windows whose pixel edges are
   * bucket edges.
   */
  Result answer(boolean kernel, SummaryUse summary) {
    StoreMetadata m = store.metadata();
    double start = Double.isNaN(from) ? m.start() : from;
    double end = Double.isNaN(to) ? m.windowEnd() : to;
    if (!(end > start)) {
      throw new IllegalArgumentException("the window needs from < to, got from = " + start + ", to = " + end);
    }
    if (width < 10 || height < 10 || width > 16_384 || height > 16_384) {
      throw new IllegalArgumentException("the chart's size must be 10 to 16384 pixels a side, got " + width + "×" + height);
    }
    Set<EventCategory> categories = RecordQuery.kindsNamed(kinds,
        EnumSet.of(EventCategory.STATE, EventCategory.EVENT, EventCategory.LINK));
    // Rows: the producers with records of these kinds, in the overview's tree order.
    int n = m.producers().size();
    String[] names = new String[n];
    int[] parents = new int[n];
    long[] own = new long[n];
    for (StoreMetadata.Producer p : m.producers()) {
      names[p.id()] = p.name();
      parents[p.id()] = p.parent();
      for (EventCategory c : categories) {
        own[p.id()] += p.count(c);
      }
    }
    ModelTree rows = ModelTree.of(names, parents, own, new ProducerSelection(producers, List.of(), 0));
    Set<Integer> typeIds = RecordQuery.typesNamed(m, types);
    List<StoreMetadata.EventType> shown = new ArrayList<>();
    int[] typeIndex = new int[m.types().size()];
    java.util.Arrays.fill(typeIndex, -1);
    for (StoreMetadata.EventType t : m.types()) {
      if (categories.contains(t.category()) && (typeIds == null || typeIds.contains(t.id())) && t.count() > 0) {
        typeIndex[t.id()] = shown.size();
        shown.add(t);
      }
    }
    TimeWindow window = new TimeWindow(start, end, m.timeUnit());
    java.util.function.Supplier<GanttGeometry> chart = () -> new GanttGeometry(rows.tree(),
        shown.stream().map(StoreMetadata.EventType::name).toList(), shown.stream().map(StoreMetadata.EventType::color)
            .toList(), window, width, height, OverviewGeometry.VISUAL_THRESHOLD_PX);
    GanttGeometry geometry = chart.get();
    int[] rowOf = new int[n]; // per store producer, its row (-1: not in the chart)
    java.util.Arrays.fill(rowOf, -1);
    for (int p = 0; p < n; p++) {
      if (rows.leafOf()[p] >= 0) {
        rowOf[p] = geometry.rowOfLeaf(rows.leafOf()[p]);
      }
    }
    // The states of rows of several producers are all summarised: the model's scan kernel sums
    // them per pixel column on every core, without a record made for each (at 768 ranks, every
    // row). The others — one producer's row, events, links — are fed record by record.
    boolean summing = kernel && categories.contains(EventCategory.STATE) && geometry.columns() <= SliceGrid.MAX_SLICES;
    FromSummary[] fromSummary = {null};
    long summed = summing
        ? sumStates(geometry, rows.leafOf(), rowOf, typeIndex, shown.size(), start, end, summary, fromSummary) : 0;
    // One part per processor, each of contiguous rows holding about as many records (the store's
    // counts), fed its rows' records only: their geometries merge into the one chart.
    int parts = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), geometry.rowCount()));
    long[] rowRecords = new long[geometry.rowCount()];
    long all = 0;
    for (int p = 0; p < n; p++) {
      if (rowOf[p] >= 0) {
        rowRecords[rowOf[p]] += own[p];
        all += own[p];
      }
    }
    int[] partOfRow = new int[rowRecords.length];
    long before = 0;
    for (int row = 0; row < rowRecords.length; row++) {
      partOfRow[row] = (int) Math.min(parts - 1, all == 0 ? (long) row * parts / rowRecords.length : before * parts / all);
      before += rowRecords[row];
    }
    // Per part, the selections of its records: every kind but the summed states on its rows' producers,
    // and the states of its rows of one producer.
    List<List<RecordQuery.Selection>> selections = new ArrayList<>();
    Set<EventCategory> others = EnumSet.noneOf(EventCategory.class);
    others.addAll(categories);
    if (summing) {
      others.remove(EventCategory.STATE);
    }
    for (int k = 0; k < parts; k++) {
      Set<Integer> producersHere = new java.util.HashSet<>();
      Set<Integer> ownRowsHere = new java.util.HashSet<>();
      for (int p = 0; p < n; p++) {
        if (rowOf[p] >= 0 && partOfRow[rowOf[p]] == k) {
          producersHere.add(p);
          if (geometry.ownRow(rowOf[p])) {
            ownRowsHere.add(p);
          }
        }
      }
      List<RecordQuery.Selection> part = new ArrayList<>();
      if (!others.isEmpty() && !producersHere.isEmpty()) {
        part.add(selection(start, end, producersHere.size() == n ? null : producersHere, typeIds, others));
      }
      if (summing && !ownRowsHere.isEmpty()) {
        part.add(selection(start, end, ownRowsHere.size() == n ? null : ownRowsHere, typeIds,
            EnumSet.of(EventCategory.STATE)));
      }
      selections.add(part);
    }
    long[] count = new long[parts];
    RuntimeException[] failures = new RuntimeException[parts];
    List<GanttGeometry> geometries = java.util.stream.IntStream.range(0, parts).parallel().mapToObj(k -> {
      GanttGeometry g = k == 0 ? geometry : chart.get();
      try {
        for (RecordQuery.Selection selection : selections.get(k)) {
          RecordQuery.forEach(store, selection, r -> {
            int leaf = rows.leafOf()[r.producer()];
            int toLeaf = r.kind() == EventCategory.LINK ? rows.leafOf()[r.to()] : -1;
            if (leaf < 0 || typeIndex[r.type()] < 0 || r.kind() == EventCategory.LINK && toLeaf < 0
                || partOfRow[rowOf[r.producer()]] != k) { // a link arriving here is its source's part's
              return;
            }
            count[k]++;
            g.add(r.kind(), leaf, typeIndex[r.type()], r.start(), r.end(), r.depth(), r.value(), toLeaf);
          });
        }
      } catch (RuntimeException e) {
        failures[k] = e; // rethrown below as itself: a parallel stream would wrap it, message and all
      }
      return g;
    }).toList();
    for (RuntimeException e : failures) {
      if (e != null) {
        throw e;
      }
    }
    for (GanttGeometry g : geometries.subList(1, parts)) {
      geometry.merge(g);
    }
    count[0] += summed;
    return new Result(this, TraceSummary.of(store), geometry.build(), java.util.Arrays.stream(count).sum(),
        TimeScale.of(m.timeUnit(), m.origin(), end - start), fromSummary[0]);
  }

  /** The store's Gantt summary, null when it has none (or one this version cannot read: the records then). */
  private GanttSummary openSummary() {
    try {
      return GanttSummary.open(store).orElse(null);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("reading " + store.directory().resolve(GanttSummary.FILE), e);
    }
  }

  private static RecordQuery.Selection selection(double start, double end, Set<Integer> producers, Set<Integer> types,
      Set<EventCategory> kinds) {
    return new RecordQuery.Selection(start, end, producers, types, kinds, null, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, RecordQuery.Column.START, false, 0, 0);
  }

  /**
   * Sums the states of the chart's rows of several producers per pixel column and type, by the
   * model's scan kernel (ModelBuilder.stateSums: the chart's rows as the model's leaves, its
   * columns as slices), into those rows; returns how many states it summed. With {@code summary},
   * from the store's Gantt summary when it has a level for these columns (said in {@code used}).
   */
  private long sumStates(GanttGeometry geometry, int[] leafOfProducer, int[] rowOf, int[] typeIndex, int types,
      double start, double end, SummaryUse summary, FromSummary[] used) {
    int[] leafOf = new int[rowOf.length];
    boolean any = false;
    for (int p = 0; p < rowOf.length; p++) {
      leafOf[p] = rowOf[p] >= 0 && !geometry.ownRow(rowOf[p]) ? rowOf[p] : -1;
      any |= leafOf[p] >= 0;
    }
    List<StoreMetadata.EventType> storeTypes = store.metadata().types();
    int[] typeOf = new int[typeIndex.length];
    for (int t = 0; t < typeIndex.length; t++) {
      typeOf[t] = storeTypes.get(t).category() == EventCategory.STATE ? typeIndex[t] : -1;
    }
    if (!any || types == 0) {
      return 0;
    }
    int columns = geometry.columns();
    int cells = columns * types;
    GanttSummary buckets = summary == SummaryUse.NEVER ? null : openSummary();
    int level = buckets == null ? -1 : buckets.levelFor(start, end, columns);
    if (level >= 0 && summary == SummaryUse.WHEN_CHEAPER) {
      StoreMetadata m = store.metadata();
      double inTrace = Math.min(end, m.end()) - Math.max(start, m.start());
      double states = m.count(EventCategory.STATE) * Math.max(0, inTrace) / (m.end() - m.start());
      long producers = java.util.Arrays.stream(leafOf).filter(l -> l >= 0).count();
      level = buckets.cellsRead(level, start, end, (int) producers) < states ? level : -1;
    }
    double[] time;
    double[] begunIn;
    double[] crossing;
    if (level >= 0) {
      time = new double[geometry.rowCount() * cells];
      begunIn = new double[geometry.rowCount() * cells];
      buckets.sum(level, start, end, columns, leafOf, typeOf, geometry.rowCount(), types, time, begunIn);
      // The states begun before the window, which the chart counts in its first column: the
      // kernel's crossings into that column, from the few chunks around the window's start.
      double[] first = ModelBuilder.stateSums(store, new ModelLayout(leafOf, typeOf, geometry.rowCount(), types,
          new SliceGrid(start, start + (end - start) / columns, 1)))[2];
      crossing = new double[geometry.rowCount() * cells];
      for (int row = 0; row < geometry.rowCount(); row++) {
        System.arraycopy(first, row * types, crossing, row * cells, types);
      }
      used[0] = new FromSummary(level, 1L << level, buckets.bucketWidth(level),
          store.metadata().timeUnit());
    } else {
      double[][] sums = ModelBuilder.stateSums(store,
          new ModelLayout(leafOf, typeOf, geometry.rowCount(), types, new SliceGrid(start, end, columns)));
      time = sums[0];
      begunIn = sums[1];
      crossing = sums[2];
    }
    long states = 0;
    for (int row = 0; row < geometry.rowCount(); row++) {
      if (geometry.ownRow(row)) {
        continue;
      }
      double[] begun = java.util.Arrays.copyOfRange(begunIn, row * cells, (row + 1) * cells);
      for (int u = 0; u < types; u++) {
        begun[u] += crossing[row * cells + u]; // begun before the window: counted in its first column
      }
      long here = 0;
      for (double b : begun) {
        here += (long) b;
      }
      if (here > 0) {
        geometry.addSummedStates(row, java.util.Arrays.copyOfRange(time, row * cells, (row + 1) * cells), begun);
        states += here;
      }
    }
    if (end >= store.metadata().end()) {
      // A window reaching the trace's end holds the instant states at that end (RecordQuery), which
      // the kernel's slices, [start, end), leave out: they are added one by one.
      long[] instants = {0};
      RecordQuery.forEach(store, selection(Math.nextDown(end), end, null, null, EnumSet.of(EventCategory.STATE)), r -> {
        if (r.start() >= end && leafOf[r.producer()] >= 0 && typeOf[r.type()] >= 0) {
          geometry.add(EventCategory.STATE, leafOfProducer[r.producer()], typeOf[r.type()], r.start(), r.end(), r.depth(),
              Double.NaN, -1);
          instants[0]++;
        }
      });
      states += instants[0];
    }
    return states;
  }
}
