package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.ocelotl.io.Csv;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.TimeScale;

/**
 * The event table of a selection (docs/analysis.md): one row per record, a page of them in the
 * order asked, with one JSON and one CSV form shared by {@code ocelotl events} and
 * {@code GET /api/events}.
 *
 * @param from      window start in the trace's unit; NaN: the trace's start
 * @param to        window end; NaN: the trace's end
 * @param producers names or paths (with their subtrees); empty: all
 * @param types     type names or groups; empty: all
 * @param kinds     state, event, variable, link; empty: all
 * @param match     a regular expression on type, producer names or values; null: none
 * @param sort      a column (start, end, duration, producer, type, kind, value), "-" first for descending
 */
public record RecordTable(TraceStore store, double from, double to, List<String> producers, List<String> types,
    List<String> kinds, String match, double minDuration, double maxDuration, String sort, int offset, int limit) {
  /** A page of at most this many rows: a table is read a page at a time. */
  public static final int MAX_LIMIT = 10_000;

  /** The table a request asks for (RequestSpec.EVENTS) on a window of {@code store}. */
  public static RecordTable of(RequestValues v, TraceStore store, Requests.Window w) {
    String unit = store.metadata().timeUnit();
    double min = v.duration(RequestSpec.MIN_DURATION, unit);
    double max = v.duration(RequestSpec.MAX_DURATION, unit);
    return new RecordTable(store, w.from(), w.to(), w.producers(), w.types(), v.list(RequestSpec.KIND),
        v.text(RequestSpec.MATCH), Double.isNaN(min) ? Double.NEGATIVE_INFINITY : min,
        Double.isNaN(max) ? Double.POSITIVE_INFINITY : max, v.text(RequestSpec.SORT), v.integer(RequestSpec.OFFSET),
        v.integer(RequestSpec.LIMIT));
  }

  /** What {@code ocelotl events} and {@code /api/events} answer: a page of records, or of a sequence's occurrences. */
  public interface Table {
    byte[] json();

    byte[] csv();
  }

  /** The event table a request asks for: its records, or, given a sequence, its occurrences ({@link SequenceTable}). */
  public static Table answer(RequestValues v, TraceStore store, Requests.Window w) {
    RecordTable records = of(v, store, w);
    if (v.list(RequestSpec.SEQUENCE).isEmpty()) {
      if (v.given(RequestSpec.WITHIN)) {
        throw v.refusal(RequestSpec.WITHIN, "bounds a sequence's occurrences; give the sequence too");
      }
      return records.answer();
    }
    double within = v.duration(RequestSpec.WITHIN, store.metadata().timeUnit());
    if (within < 0) {
      throw v.refusal(RequestSpec.WITHIN, "expected a duration ≥ 0, found " + v.text(RequestSpec.WITHIN));
    }
    return new SequenceTable(records, v.list(RequestSpec.SEQUENCE), Double.isNaN(within) ? Double.POSITIVE_INFINITY
        : within).answer();
  }

  /** The selection's page, checked: every refusal names the parameter. */
  public Result answer() {
    RecordQuery.Selection selection = selection(EnumSet.allOf(EventCategory.class));
    return new Result(this, selection.from(), selection.to(), RecordQuery.select(store, selection));
  }

  /** The selection, checked: every refusal names the parameter; {@code otherwise}: the kinds when none is given. */
  RecordQuery.Selection selection(Set<EventCategory> otherwise) {
    StoreMetadata m = store.metadata();
    double start = Double.isNaN(from) ? m.start() : from;
    double end = Double.isNaN(to) ? m.windowEnd() : to;
    if (!(end > start)) {
      throw new IllegalArgumentException("the window needs from < to, got from = " + start + ", to = " + end);
    }
    if (limit < 0 || limit > MAX_LIMIT || offset < 0) {
      throw new IllegalArgumentException("limit must be 0 to " + MAX_LIMIT + " and offset ≥ 0, got " + limit
          + " and " + offset);
    }
    Pattern pattern;
    try {
      pattern = match == null || match.isEmpty() ? null : Pattern.compile(match);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("match: not a regular expression: " + e.getDescription() + " in '" + match + "'");
    }
    Set<EventCategory> categories = RecordQuery.kindsNamed(kinds, otherwise);
    boolean descending = sort.startsWith("-");
    RecordQuery.Column column = RecordQuery.Column.parse(descending ? sort.substring(1) : sort);
    return new RecordQuery.Selection(start, end, RecordQuery.producersNamed(m, producers),
        RecordQuery.typesNamed(m, types), categories, pattern, minDuration, maxDuration, column, descending, offset,
        limit);
  }

  /** A page, with what it needs to be written by name. */
  public record Result(RecordTable request, double from, double to, RecordQuery.Page page) implements Table {
    private String producer(int id) {
      return request.store().metadata().path(id);
    }

    private String type(int id) {
      return request.store().metadata().types().get(id).name();
    }

    @Override
    public byte[] json() {
      ObjectNode json = JsonForm.object();
      json.set("trace", JsonForm.trace(TraceSummary.of(request.store())));
      json.put("from", from);
      json.put("to", to);
      json.put("total", page.total());
      json.put("offset", request.offset());
      json.put("limit", request.limit());
      // The page shows the records' times as the Gantt chart's axis does: the same scale for the same window.
      StoreMetadata m = request.store().metadata();
      JsonForm.timeScale(json, TimeScale.of(m.timeUnit(), m.origin(), to - from));
      ArrayNode rows = json.putArray("records");
      for (RecordQuery.Record r : page.records()) {
        ObjectNode row = rows.addObject();
        row.put("kind", RecordQuery.kindName(r.kind()));
        row.put("producer", producer(r.producer()));
        row.put("type", type(r.type()));
        row.put("start", r.start());
        row.put("end", r.end());
        row.put("duration", r.duration());
        if (r.kind() == EventCategory.STATE) {
          row.put("depth", r.depth());
        }
        if (r.kind() == EventCategory.VARIABLE || r.kind() == EventCategory.LINK && !Double.isNaN(r.value())) {
          row.put("value", r.value()); // a variable's value; a link's volume where the trace gives it
        }
        if (r.kind() == EventCategory.LINK) {
          row.put("to", producer(r.to()));
        }
      }
      return JsonForm.bytes(json);
    }

    @Override
    public byte[] csv() {
      StringBuilder csv = new StringBuilder("kind,producer,type,start,end,duration,depth,value,to\n");
      for (RecordQuery.Record r : page.records()) {
        List<String> fields = new ArrayList<>(List.of(RecordQuery.kindName(r.kind()),
            Csv.field(producer(r.producer())), Csv.field(type(r.type())),
            String.valueOf(r.start()), String.valueOf(r.end()), String.valueOf(r.duration()),
            r.kind() == EventCategory.STATE ? String.valueOf(r.depth()) : "",
            r.kind() == EventCategory.VARIABLE || !Double.isNaN(r.value()) ? String.valueOf(r.value()) : "",
            r.kind() == EventCategory.LINK ? Csv.field(producer(r.to())) : ""));
        csv.append(String.join(",", fields)).append('\n');
      }
      return csv.toString().getBytes(StandardCharsets.UTF_8);
    }
  }
}
