package org.ocelotl.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.ocelotl.io.Csv;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.query.SequenceSearch;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.TimeScale;

/**
 * The occurrences of a sequence (docs/analysis.md#sequences): the event table's selection is the
 * producers' streams, {@link SequenceSearch} finds the occurrences, and a page of them is answered
 * with one JSON and one CSV form shared by {@code ocelotl events --sequence} and
 * {@code GET /api/events?sequence=}.
 *
 * @param records the event table's request: its window, producers, types, kinds (none given: the
 *                steps' kinds), expression, durations, sort and page
 * @param steps   type names or groups, in order
 * @param within  the longest occurrence, in the trace's unit; infinity: no bound
 */
public record SequenceTable(RecordTable records, List<String> steps, double within) {
  public SequenceTable {
    steps = List.copyOf(steps);
  }

  /** The page of occurrences, checked: every refusal names the parameter. */
  public Result answer() {
    StoreMetadata m = records.store().metadata();
    List<Set<Integer>> ids = stepIds(m, steps);
    Set<EventCategory> kinds = kinds(m, ids);
    RecordQuery.Selection stream = records.selection(kinds);
    for (int j = 0; j < steps.size(); j++) {
      for (int t : ids.get(j)) {
        if (!stream.kinds().contains(m.types().get(t).category())) {
          throw new IllegalArgumentException("sequence: '" + steps.get(j) + "' is a "
              + RecordQuery.kindName(m.types().get(t).category()) + " type, and kind leaves those out");
        }
      }
    }
    return new Result(this, stream, SequenceSearch.find(records.store(), new SequenceSearch.Search(stream, ids,
        within)));
  }

  /**
   * The type ids of each step.
   *
   * @throws IllegalArgumentException naming an unknown step, or one that is not a state or event type
   */
  public static List<Set<Integer>> stepIds(StoreMetadata m, List<String> steps) {
    List<Set<Integer>> ids = new ArrayList<>();
    for (String step : steps) {
      Set<Integer> found;
      try {
        found = RecordQuery.typesNamed(m, List.of(step));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("sequence: " + e.getMessage());
      }
      for (int t : found) {
        EventCategory c = m.types().get(t).category();
        if (c != EventCategory.STATE && c != EventCategory.EVENT) {
          throw new IllegalArgumentException("sequence: '" + step + "' is a " + RecordQuery.kindName(c)
              + " type; a sequence's steps are state or event types");
        }
      }
      ids.add(found);
    }
    return ids;
  }

  /** The kinds of the steps' types: the stream's when no kind is given. */
  public static Set<EventCategory> kinds(StoreMetadata m, List<Set<Integer>> ids) {
    Set<EventCategory> kinds = EnumSet.noneOf(EventCategory.class);
    ids.forEach(step -> step.forEach(t -> kinds.add(m.types().get(t).category())));
    return kinds;
  }

  /** A page of occurrences, with what it needs to be written by name. */
  public record Result(SequenceTable request, RecordQuery.Selection stream, SequenceSearch.Result found)
      implements RecordTable.Table {
    private StoreMetadata metadata() {
      return request.records().store().metadata();
    }

    @Override
    public byte[] json() {
      StoreMetadata m = metadata();
      ObjectNode json = JsonForm.object();
      json.set("trace", JsonForm.trace(TraceSummary.of(request.records().store())));
      json.put("from", stream.from());
      json.put("to", stream.to());
      request.steps().forEach(json.putArray("sequence")::add);
      if (Double.isInfinite(request.within())) {
        json.putNull("within");
      } else {
        json.put("within", request.within());
      }
      json.put("total", found.total());
      json.put("producers", java.util.Arrays.stream(found.perProducer()).filter(n -> n > 0).count());
      json.put("offset", stream.offset());
      json.put("limit", stream.limit());
      JsonForm.timeScale(json, TimeScale.of(m.timeUnit(), m.origin(), stream.to() - stream.from()));
      ArrayNode rows = json.putArray("occurrences");
      for (SequenceSearch.Occurrence o : found.page()) {
        ObjectNode row = rows.addObject();
        row.put("producer", m.path(o.producer()));
        row.put("start", o.start());
        row.put("end", o.end());
        row.put("duration", o.duration());
        ArrayNode steps = row.putArray("steps");
        for (SequenceSearch.Step step : o.steps()) {
          ObjectNode s = steps.addObject();
          s.put("kind", RecordQuery.kindName(step.kind()));
          s.put("type", m.types().get(step.type()).name());
          s.put("start", step.start());
          s.put("end", step.end());
        }
      }
      return JsonForm.bytes(json);
    }

    /** One row an occurrence: producer, start, end, duration, then each step's type, start and end. */
    @Override
    public byte[] csv() {
      StoreMetadata m = metadata();
      StringBuilder csv = new StringBuilder("producer,start,end,duration");
      for (int j = 1; j <= request.steps().size(); j++) {
        csv.append(",step").append(j).append("_type,step").append(j).append("_start,step").append(j).append("_end");
      }
      csv.append('\n');
      for (SequenceSearch.Occurrence o : found.page()) {
        csv.append(Csv.field(m.path(o.producer()))).append(',').append(o.start()).append(',').append(o.end())
            .append(',').append(o.duration());
        for (SequenceSearch.Step step : o.steps()) {
          csv.append(',').append(Csv.field(m.types().get(step.type()).name())).append(',').append(step.start())
              .append(',').append(step.end());
        }
        csv.append('\n');
      }
      return csv.toString().getBytes(StandardCharsets.UTF_8);
    }
  }
}
