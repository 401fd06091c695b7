package org.ocelotl.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.BitSet;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.view.TimeScale;

/**
 * Writes a {@link SubTrace} as Chrome Trace Event JSON ({@code {"traceEvents": [...]}}), which
 * ui.perfetto.dev, chrome://tracing and Ocelotl's own Chrome reader open (docs/formats.md):
 * <ul>
 *   <li>a producer with states, events or link ends of its own is a thread (tid: its id) of the
 *   process of its parent (pid: the parent's id; the root is a process of its own), named by
 *   "M" events, sorted by id;
 *   <li>a state is a complete event "X" named by its type, its group as category;
 *   <li>an event is a thread-scoped instant "i";
 *   <li>a variable change is a counter "C" of its producer's process: named by its type, one
 *   argument keyed by the producer's name (a process's counters share one name space);
 *   <li>a link is a flow, "s" on its source thread at its start and "f" on its destination
 *   thread at its end (bound to the enclosing slice), its value as an argument.
 * </ul>
 * Times are in microseconds, as the format wants, converted from the trace's unit.
 */
public final class ChromeTraceWriter {
  private static final double MICROSECONDS = 1e-6;

  private ChromeTraceWriter() {}

  /** @throws IllegalArgumentException when the trace's time unit names no length (it could not be said in µs) */
  public static void write(SubTrace sub, OutputStream out) throws IOException {
    StoreMetadata m = sub.store().metadata();
    double seconds = TimeScale.secondsPerUnit(m.timeUnit());
    if (Double.isNaN(seconds)) {
      throw new IllegalArgumentException(m.name() + ": time unit '" + m.timeUnit()
          + "' names no length; Chrome traces are in microseconds");
    }
    double toMicroseconds = seconds / MICROSECONDS;
    try (JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeStringField("displayTimeUnit", seconds < MICROSECONDS ? "ns" : "ms");
      json.writeObjectFieldStart("otherData");
      json.writeStringField("source", m.name());
      json.writeStringField("timeUnit", m.timeUnit());
      // Where times since the start count from, in µs as ts: the original's (decision 053).
      json.writeNumberField("origin", m.origin() * toMicroseconds);
      json.writeEndObject();
      json.writeArrayFieldStart("traceEvents");
      names(json, m, threads(sub));
      long flow = 0;
      for (RecordQuery.Record r : sub.records()) {
        StoreMetadata.EventType type = m.types().get(r.type());
        switch (r.kind()) {
          case STATE -> {
            start(json, "X", type, m, r.producer(), r.start() * toMicroseconds);
            json.writeNumberField("dur", (r.end() - r.start()) * toMicroseconds);
            json.writeEndObject();
          }
          case EVENT -> {
            start(json, "i", type, m, r.producer(), r.start() * toMicroseconds);
            json.writeStringField("s", "t");
            value(json, "value", r.value());
            json.writeEndObject();
          }
          case VARIABLE -> {
            json.writeStartObject();
            json.writeStringField("ph", "C");
            json.writeStringField("name", type.name());
            json.writeNumberField("pid", process(m, r.producer()));
            json.writeNumberField("ts", r.start() * toMicroseconds);
            json.writeObjectFieldStart("args");
            json.writeNumberField(m.producers().get(r.producer()).name(), r.value());
            json.writeEndObject();
            json.writeEndObject();
          }
          case LINK -> {
            flow++;
            start(json, "s", type, m, r.producer(), r.start() * toMicroseconds);
            json.writeNumberField("id", flow);
            value(json, "value", r.value());
            json.writeEndObject();
            start(json, "f", type, m, r.to(), r.end() * toMicroseconds);
            json.writeNumberField("id", flow);
            json.writeStringField("bp", "e");
            json.writeEndObject();
          }
        }
      }
      json.writeEndArray();
      json.writeEndObject();
    }
  }

  /** The producers that are threads: those with states, events or link ends. */
  private static BitSet threads(SubTrace sub) {
    BitSet threads = new BitSet();
    for (RecordQuery.Record r : sub.records()) {
      if (r.kind() != EventCategory.VARIABLE) {
        threads.set(r.producer());
      }
      if (r.kind() == EventCategory.LINK) {
        threads.set(r.to());
      }
    }
    return threads;
  }

  /** Names and sort indices of the processes and threads: the producers' ids, so the hierarchy's order. */
  private static void names(JsonGenerator json, StoreMetadata m, BitSet threads) throws IOException {
    BitSet processes = new BitSet();
    threads.stream().forEach(p -> processes.set(process(m, p)));
    for (int p = processes.nextSetBit(0); p >= 0; p = processes.nextSetBit(p + 1)) {
      metadata(json, "process_name", p, -1, "name", m.producers().get(p).name());
      metadata(json, "process_sort_index", p, -1, "sort_index", p);
    }
    for (int t = threads.nextSetBit(0); t >= 0; t = threads.nextSetBit(t + 1)) {
      metadata(json, "thread_name", process(m, t), t, "name", m.producers().get(t).name());
      metadata(json, "thread_sort_index", process(m, t), t, "sort_index", t);
    }
  }

  private static void metadata(JsonGenerator json, String name, int pid, int tid, String key, Object value)
      throws IOException {
    json.writeStartObject();
    json.writeStringField("ph", "M");
    json.writeStringField("name", name);
    json.writeNumberField("pid", pid);
    if (tid >= 0) {
      json.writeNumberField("tid", tid);
    }
    json.writeObjectFieldStart("args");
    if (value instanceof String text) {
      json.writeStringField(key, text);
    } else {
      json.writeNumberField(key, (Integer) value);
    }
    json.writeEndObject();
    json.writeEndObject();
  }

  /** Opens an event of {@code producer}'s thread; the caller adds its fields and closes it. */
  private static void start(JsonGenerator json, String phase, StoreMetadata.EventType type, StoreMetadata m,
      int producer, double ts) throws IOException {
    json.writeStartObject();
    json.writeStringField("ph", phase);
    json.writeStringField("name", type.name());
    if (type.group() != null) {
      json.writeStringField("cat", type.group());
    }
    json.writeNumberField("pid", process(m, producer));
    json.writeNumberField("tid", producer);
    json.writeNumberField("ts", ts);
  }

  /** A value the store has (links and events may have none: NaN). */
  private static void value(JsonGenerator json, String key, double value) throws IOException {
    if (Double.isFinite(value)) {
      json.writeObjectFieldStart("args");
      json.writeNumberField(key, value);
      json.writeEndObject();
    }
  }

  /** The process a producer's thread and counters belong to: its parent's, or its own for the root. */
  private static int process(StoreMetadata m, int producer) {
    int parent = m.producers().get(producer).parent();
    return parent >= 0 ? parent : producer;
  }
}
