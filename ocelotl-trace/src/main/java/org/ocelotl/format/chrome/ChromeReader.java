package org.ocelotl.format.chrome;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.format.StateNesting;
import org.ocelotl.format.TypeIds;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads Chrome Trace Event JSON (object form {@code {"traceEvents": [...]}} or array form) in one
 * pass with Jackson's streaming parser, no DOM. The input need not be sorted, so records are buffered per
 * thread and per async lane in primitive columns and resolved at the end of the file:
 * <ul>
 *   <li>X, and B/E matched per (pid, tid) in time order → states, depth from their nesting;
 *   <li>b/e matched per async lane (pid, cat, id) by name → states of the lane;
 *   <li>i/I/R → punctual events of the thread, n → of the async lane;
 *   <li>C → variables "NAME.KEY" of the process (a "counters" leaf under it);
 *   <li>s/t/f flows → links between the threads of consecutive flow points;
 *   <li>M → process/thread names and sort order.
 * </ul>
 * Unmatched begins/ends and flows are counted and reported as warnings. Time unit: "us".
 */
public final class ChromeReader implements TraceReader {

  /** JSON whose first value is an object with "traceEvents", or an array of objects with "ph". */
  public static boolean sniff(byte[] head) {
    String text = new String(head, StandardCharsets.UTF_8);
    String trimmed = text.replace("\uFEFF", "").stripLeading();
    if (trimmed.startsWith("{")) {
      return text.contains("\"traceEvents\"") || text.contains("\"ph\"");
    }
    return trimmed.startsWith("[") && trimmed.substring(1).stripLeading().startsWith("{")
        && text.contains("\"ph\"");
  }

  // Nesting deeper than any Trace Event needs (args objects hold a few levels) and strings longer
  // than a trace's names are refused rather than walked (a crafted file nested 100,000 deep):
  // Limit.JSON_NESTING and Limit.JSON_STRING_BYTES, read when the import starts.
  // The fast double parser rounds correctly, as Double.parseDouble does: the same times, sooner.
  private static JsonFactory json(long nesting, long string) {
    return JsonFactory.builder()
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth((int) Math.min(nesting, Integer.MAX_VALUE))
            .maxStringLength((int) Math.min(string, Integer.MAX_VALUE)).build())
        .build();
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    long nesting = Limit.JSON_NESTING.value();
    long string = Limit.JSON_STRING_BYTES.value();
    try (InputStream in = Files.newInputStream(file); JsonParser json = json(nesting, string).createParser(in)) {
      Parse parse = new Parse(file, json, sink, options);
      try {
        parse.document();
      } catch (JsonEOFException e) {
        throw parse.error("unexpected end of file (the JSON is cut)");
      } catch (StreamConstraintsException e) {
        // Jackson names its own setting; say ours, which the user can change.
        // A string too long is refused where it starts: Jackson's own location is wherever its
        // buffers stood when it counted too far, which moves with how the file was read.
        boolean deep = e.getOriginalMessage().contains("nesting");
        throw deep ? parse.error(Limit.JSON_NESTING.exceeded(nesting), e.getLocation())
            : parse.error(Limit.JSON_STRING_BYTES.exceeded(string));
      } catch (JsonProcessingException e) {
        throw parse.error(e.getOriginalMessage(), e.getLocation());
      } catch (IllegalArgumentException refused) {
        // The store writer's refusal (the limit on types), at the event that declared the type.
        // Producers and records are written once the whole file is read: their refusals name the file.
        throw parse.error(refused.getMessage());
      }
      parse.emit(file.getFileName().toString());
    } catch (CharConversionException e) {
      // Jackson guesses the encoding from the first bytes; bytes that look like no Unicode
      // encoding end there (found by fuzzing: 00 00 5D 00).
      throw new TraceFormatException(file + ": expected JSON text (UTF-8, UTF-16 or UTF-32), found bytes that are "
          + "none: " + e.getMessage());
    }
  }

  /** The state of one import. */
  private static final class Parse {
    private final Path file;
    private final JsonParser json;
    private final TraceSink sink;
    private final ReadOptions options;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final TypeIds types;
    // The last process and thread looked up: consecutive events mostly share them.
    private String lastPid;
    private Process lastProcess;
    private String lastTid;
    private NamedTrack lastThread;
    private final Map<String, List<FlowPoint>> flows = new HashMap<>();
    private final Map<String, Long> anomalies = new TreeMap<>();
    private double first = Double.POSITIVE_INFINITY;
    private double last = Double.NEGATIVE_INFINITY;
    private long events;

    // The event being parsed (fields in any order, so kept until its closing brace).
    private String ph;
    private String name;
    private String cat;
    private String pid;
    private String tid;
    private String id;
    private String argName;
    private double ts;
    private double dur;
    private final List<String> argKeys = new ArrayList<>();
    private double[] argValues = new double[8];

    Parse(Path file, JsonParser json, TraceSink sink, ReadOptions options) {
      this.file = file;
      this.json = json;
      this.sink = sink;
      this.options = options;
      this.types = new TypeIds(sink, false);
    }

    void document() throws IOException {
      JsonToken token = json.nextToken();
      if (token == JsonToken.START_ARRAY) {
        events(true);
      } else if (token == JsonToken.START_OBJECT) {
        while (json.nextToken() == JsonToken.FIELD_NAME) {
          String key = json.currentName();
          JsonToken value = json.nextToken();
          if (key.equals("traceEvents")) {
            if (value != JsonToken.START_ARRAY) {
              throw error("expected an array of events in \"traceEvents\", found " + describe(value));
            }
            events(false);
          } else if (key.equals("otherData") && value == JsonToken.START_OBJECT) {
            otherData();
          } else {
            json.skipChildren();
          }
        }
      } else {
        throw error("expected '{' or '[' at the start of a Chrome trace");
      }
      if (json.nextToken() != null) {
        throw error("unexpected content after the trace");
      }
    }

    /**
     * The trace's metadata: its "origin", when a number, is the time (µs) that times since the
     * start count from — a part cut by {@code ocelotl export} keeps its original's (decision 053);
     * the rest is other tools' and skipped.
     */
    private void otherData() throws IOException {
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String key = json.currentName();
        JsonToken value = json.nextToken();
        if (key.equals("origin") && value.isNumeric()) {
          sink.origin(json.getDoubleValue());
        } else {
          json.skipChildren();
        }
      }
    }

    /** The array of events; the array form may end without its ']' (a trace cut by a crash). */
    private void events(boolean arrayForm) throws IOException {
      while (true) {
        JsonToken token;
        try {
          token = json.nextToken();
        } catch (JsonEOFException e) {
          if (!arrayForm) {
            throw e;
          }
          sink.warning("the event array is not closed (allowed by the format: the trace was cut"
              + " between two events)");
          return;
        }
        if (token == JsonToken.END_ARRAY) {
          return;
        }
        if (token != JsonToken.START_OBJECT) {
          throw error("expected an event object, found " + describe(token));
        }
        event();
        if (++events % 65_536 == 0) {
          options.bytesRead().accept(json.currentLocation().getByteOffset());
        }
      }
    }

    private void event() throws IOException {
      ph = name = cat = pid = tid = id = argName = null;
      ts = dur = Double.NaN;
      argKeys.clear();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String key = json.currentName(); // interned by the parser: the switch compares few chars
        json.nextToken();
        switch (key) {
          case "ph" -> ph = string();
          case "name" -> name = scalarText();
          case "cat" -> cat = string();
          case "pid" -> pid = scalarText();
          case "tid" -> tid = scalarText();
          case "ts" -> ts = number();
          case "dur" -> dur = number();
          case "id" -> id = scalarText();
          case "id2" -> id2();
          case "args" -> args();
          default -> json.skipChildren();
        }
      }
      // At the closing brace, so that an error points into the event.
      if (ph == null || ph.length() != 1) {
        malformed("event without a one-letter \"ph\"");
        return;
      }
      dispatch(ph.charAt(0));
    }

    private String string() throws IOException {
      if (json.currentToken() != JsonToken.VALUE_STRING) {
        throw error("expected a string, found " + describe(json.currentToken()));
      }
      return json.getText();
    }

    /** A string or a number, as text (ids and names are either). */
    private String scalarText() throws IOException {
      JsonToken token = json.currentToken();
      if (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
        throw error("expected a string or a number, found " + describe(token));
      }
      return json.getText();
    }

    private double number() throws IOException {
      JsonToken token = json.currentToken();
      if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
        throw error("expected a number, found " + describe(token));
      }
      double value = json.getDoubleValue();
      if (!Double.isFinite(value)) {
        throw error("number " + json.getText() + " is out of the range of a double");
      }
      return value;
    }

    private void id2() throws IOException {
      if (json.currentToken() != JsonToken.START_OBJECT) {
        throw error("expected an object in \"id2\", found " + describe(json.currentToken()));
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String scope = json.currentName();
        json.nextToken();
        id = scope + ":" + scalarText();
      }
    }

    private void args() throws IOException {
      if (json.currentToken() != JsonToken.START_OBJECT) {
        json.skipChildren();
        return;
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String key = json.currentName();
        JsonToken value = json.nextToken();
        if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
          if (argKeys.size() == argValues.length) {
            // By hand: numeric arguments, per event (Chrome import, hot; fastutil 3.4x slower, decision 032).
            argValues = Arrays.copyOf(argValues, argValues.length * 2);
          }
          argValues[argKeys.size()] = number();
          argKeys.add(key);
        } else if (value == JsonToken.VALUE_STRING && key.equals("name")) {
          argName = json.getText();
        } else {
          json.skipChildren();
        }
      }
    }

    TraceFormatException error(String what) {
      return error(what, json.currentTokenLocation());
    }

    TraceFormatException error(String what, JsonLocation at) {
      long line = at == null ? json.currentLocation().getLineNr() : at.getLineNr();
      long column = at == null ? json.currentLocation().getColumnNr() : at.getColumnNr();
      return TraceFormatException.atLine(file, line, "column " + column + ": " + what, null);
    }

    private static String describe(JsonToken token) {
      return token == null ? "the end of the file" : switch (token) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        case VALUE_STRING -> "a string";
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean";
        case VALUE_NULL -> "null";
        default -> token.asString() == null ? token.name() : "'" + token.asString() + "'";
      };
    }

    private void malformed(String what) throws TraceFormatException {
      if (!options.lenient()) {
        throw error(what);
      }
      anomalies.merge("skipped: " + what, 1L, Long::sum);
    }

    private void dispatch(char phase) throws IOException {
      if (phase == 'M') {
        metadata();
        return;
      }
      if (Double.isNaN(ts)) {
        malformed("event without \"ts\"");
        return;
      }
      String label = name == null ? "(unnamed)" : name;
      first = Math.min(first, ts);
      last = Math.max(last, ts);
      switch (phase) {
        case 'B' -> thread().add(Track.BEGIN, ts, Double.NaN, type(label, EventCategory.STATE));
        case 'E' -> thread().add(Track.END, ts, Double.NaN, -1);
        case 'X' -> {
          double end = ts + (Double.isNaN(dur) ? 0 : dur);
          last = Math.max(last, end);
          thread().add(Track.COMPLETE, ts, end, type(label, EventCategory.STATE));
        }
        case 'i', 'I', 'R' -> thread().add(Track.INSTANT, ts, Double.NaN,
            type(label, EventCategory.EVENT));
        case 'b' -> lane(label).add(Track.BEGIN, ts, Double.NaN, type(label, EventCategory.STATE));
        case 'e' -> lane(label).add(Track.END, ts, Double.NaN, type(label, EventCategory.STATE));
        case 'n' -> lane(label).add(Track.INSTANT, ts, Double.NaN, type(label, EventCategory.EVENT));
        case 'C' -> counter(label);
        case 's', 't', 'f' -> flows.computeIfAbsent(cat + "\u0000" + label + "\u0000" + id,
            k -> new ArrayList<>()).add(new FlowPoint(ts, thread().track, phase, label));
        default -> anomalies.merge("skipped: events of phase '" + phase + "'", 1L, Long::sum);
      }
    }

    private void metadata() {
      Process process = process();
      switch (name == null ? "" : name) {
        case "process_name" -> process.name = argName;
        case "process_sort_index" -> process.sortIndex = sortIndex(process.sortIndex);
        case "thread_name" -> thread().name = argName;
        case "thread_sort_index" -> thread().sortIndex = sortIndex(thread().sortIndex);
        default -> { } // process_labels, version, …: nothing the producer tree shows
      }
    }

    private double sortIndex(double previous) {
      int at = argKeys.indexOf("sort_index");
      return at < 0 ? previous : argValues[at];
    }

    private void counter(String label) {
      Process process = process();
      for (int i = 0; i < argKeys.size(); i++) {
        process.counters.add(Track.INSTANT, ts, argValues[i],
            type(label + "." + argKeys.get(i), EventCategory.VARIABLE));
      }
    }

    private Process process() {
      String key = pid == null ? "" : pid;
      if (!key.equals(lastPid)) {
        lastProcess = processes.computeIfAbsent(key, Process::new);
        lastPid = key;
        lastTid = null;
      }
      return lastProcess;
    }

    private NamedTrack thread() {
      Process process = process();
      String key = tid == null ? "" : tid;
      if (!key.equals(lastTid)) {
        lastThread = process.threads.computeIfAbsent(key, k -> new NamedTrack(k, false));
        lastTid = key;
      }
      return lastThread;
    }

    /** The lane of (pid, cat, id); a new lane is grouped under the name of its first event. */
    private Track lane(String label) {
      Process process = process();
      String key = (cat == null ? "" : cat) + " " + id;
      return process.lanes.computeIfAbsent(key, k -> {
        NamedTrack lane = new NamedTrack(k, true);
        lane.name = label;
        return lane;
      }).track;
    }

    private int type(String label, EventCategory category) {
      return type(label, category, cat);
    }

    private int type(String label, EventCategory category, String group) {
      return types.id(label, category, group);
    }

    /** Declares the producers, then resolves and writes every buffered record. */
    void emit(String traceName) throws TraceFormatException {
      int next = 0;
      sink.producer(next++, traceName, "trace", -1, first);
      List<Process> ordered = new ArrayList<>(processes.values());
      ordered.sort(Comparator.comparingDouble((Process p) -> sortKey(p.sortIndex))
          .thenComparing(p -> p.pid, Parse::compareIds));
      for (Process process : ordered) {
        int processId = next++;
        sink.producer(processId, process.name != null ? process.name : "pid " + process.pid,
            "process", 0, first);
        List<NamedTrack> threads = new ArrayList<>(process.threads.values());
        threads.sort(Comparator.comparingDouble((NamedTrack t) -> sortKey(t.sortIndex))
            .thenComparing(t -> t.key, Parse::compareIds));
        for (NamedTrack thread : threads) {
          thread.track.producer = next;
          sink.producer(next++, thread.name != null ? thread.name : "tid " + thread.key,
              "thread", processId, first);
        }
        if (process.counters.size() > 0) {
          process.counters.producer = next;
          sink.producer(next++, "counters", "counters", processId, first);
        }
        if (!process.lanes.isEmpty()) {
          int asyncId = next++;
          sink.producer(asyncId, "async", "async lanes", processId, first);
          // Node writes one lane per async resource (thousands): grouping them by what they
          // run (PROMISE, TickObject, …) gives the overview a hierarchy it can aggregate.
          Map<String, List<NamedTrack>> groups = new TreeMap<>();
          for (NamedTrack lane : new TreeMap<>(process.lanes).values()) {
            groups.computeIfAbsent(lane.name, k -> new ArrayList<>()).add(lane);
          }
          for (Map.Entry<String, List<NamedTrack>> group : groups.entrySet()) {
            int groupId = next++;
            sink.producer(groupId, group.getKey(), "async group", asyncId, first);
            for (NamedTrack lane : group.getValue()) {
              lane.track.producer = next;
              sink.producer(next++, lane.key, "async lane", groupId, first);
            }
          }
        }
      }
      for (Process process : ordered) {
        process.threads.values().forEach(t -> states(t.track));
        process.lanes.values().forEach(t -> states(t.track));
        Track counters = process.counters;
        for (int i = 0; i < counters.size(); i++) {
          sink.variable(counters.producer, counters.types.get(i), counters.times.get(i), counters.ends.get(i));
        }
      }
      flows.values().forEach(this::flow);
      anomalies.forEach((what, count) -> sink.warning(count + " × " + what));
      if (first > last) {
        first = last = 0;
      }
      sink.end(first, last, "us");
    }

    private static double sortKey(double sortIndex) {
      return Double.isNaN(sortIndex) ? Double.POSITIVE_INFINITY : sortIndex;
    }

    /** Numeric ids in numeric order, others after them in text order. */
    private static int compareIds(String a, String b) {
      boolean na = a.matches("-?\\d{1,18}");
      boolean nb = b.matches("-?\\d{1,18}");
      if (na && nb) {
        return Long.compare(Long.parseLong(a), Long.parseLong(b));
      }
      return na != nb ? (na ? -1 : 1) : a.compareTo(b);
    }

    /**
     * Matches begins and ends in time order (a thread's end closes its innermost begin; an async
     * end closes the innermost begin of the same name on its lane), then gives every state its
     * depth: states sorted by start (longest first) nest under those still open.
     */
    private void states(Track track) {
      Integer[] order = track.byTime();
      int[] open = new int[16];
      int depth = 0;
      StateNesting slices = new StateNesting();
      for (int i : order) {
        switch (track.kinds.get(i)) {
          case Track.BEGIN -> {
            if (depth == open.length) {
              // By hand: open slices, per B/E event (Chrome import, hot; fastutil 3.4x slower, decision 032).
              open = Arrays.copyOf(open, depth * 2);
            }
            open[depth++] = i;
          }
          case Track.END -> {
            int at = depth - 1;
            if (track.async) {
              while (at >= 0 && track.types.get(open[at]) != track.types.get(i)) {
                at--;
              }
            }
            if (at < 0) {
              anomalies.merge(track.async ? "async end (e) without its begin"
                  : "end (E) without its begin", 1L, Long::sum);
            } else {
              int begin = open[at];
              System.arraycopy(open, at + 1, open, at, depth - at - 1);
              depth--;
              slices.add(track.times.get(begin), track.times.get(i), track.types.get(begin));
            }
          }
          case Track.COMPLETE -> slices.add(track.times.get(i), track.ends.get(i), track.types.get(i));
          default -> sink.event(track.producer, track.types.get(i), track.times.get(i));
        }
      }
      if (depth > 0) {
        anomalies.merge(track.async ? "async begin (b) without its end (dropped)"
            : "begin (B) without its end (dropped)", (long) depth, Long::sum);
      }
      slices.emit(sink, track.producer);
    }

    private void flow(List<FlowPoint> points) {
      points.sort(Comparator.comparingDouble(FlowPoint::time));
      FlowPoint from = null;
      for (FlowPoint point : points) {
        if (point.phase() == 's') {
          if (from != null) {
            anomalies.merge("flow start (s) without its end", 1L, Long::sum);
          }
          from = point;
        } else if (from == null) {
          anomalies.merge("flow step or end (t/f) without its start", 1L, Long::sum);
        } else {
          sink.link(linkType(point.name()), from.track().producer, point.track().producer,
              from.time(), point.time(), Double.NaN);
          from = point.phase() == 'f' ? null : point;
        }
      }
      if (from != null) {
        anomalies.merge("flow start (s) without its end", 1L, Long::sum);
      }
    }

    private int linkType(String label) {
      return type(label, EventCategory.LINK, "flow");
    }
  }

  private record FlowPoint(double time, Track track, char phase, String name) {}

  private static final class NamedTrack {
    final String key;
    final Track track;
    String name;
    double sortIndex = Double.NaN;

    NamedTrack(String key, boolean async) {
      this.key = key;
      this.track = new Track(async);
    }

    void add(byte kind, double time, double end, int type) {
      track.add(kind, time, end, type);
    }
  }

  private static final class Process {
    final String pid;
    final Map<String, NamedTrack> threads = new LinkedHashMap<>();
    final Map<String, NamedTrack> lanes = new HashMap<>();
    final Track counters;
    String name;
    double sortIndex = Double.NaN;

    Process(String pid) {
      this.pid = pid;
      this.counters = new Track(false);
    }
  }
}
