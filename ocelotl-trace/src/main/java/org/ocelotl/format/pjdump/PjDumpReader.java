package org.ocelotl.format.pjdump;

import org.ocelotl.format.OuterStates;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.format.LineLimit;
import org.ocelotl.format.OuterStates;
import org.ocelotl.format.TypeIds;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads pj_dump's CSV (PajeNG's textual dump), one record per line, fields separated by ", ":
 * <pre>
 * Container, PARENT, TYPE, START, END, DURATION, NAME
 * State,     CONTAINER, TYPE, START, END, DURATION, IMBRICATION, VALUE
 * Event,     CONTAINER, TYPE, TIME, VALUE
 * Variable,  CONTAINER, TYPE, START, END, DURATION, VALUE
 * Link,      CONTAINER, TYPE, START, END, DURATION, VALUE, START_CONTAINER, END_CONTAINER[, KEY]
 * </pre>
 * pj_dump interleaves containers with the records that name them (a record may name a container
 * listed further down), so the file is read twice: the containers first, the records then.
 * Containers are referenced by name (a name listed twice, possible under different parents, is
 * reported and resolves to its first listing); the root is the first container. States and events are
 * typed by their value (the Pajé entity value) with the Pajé type as group, as for Pajé itself;
 * links by their value too; variables by their type. Times are in the Pajé trace's unit
 * (seconds for SimGrid and most tools).
 */
public final class PjDumpReader implements TraceReader {
  private static final String[] KINDS = {"Container, ", "State, ", "Event, ", "Variable, ",
      "Link, "};

  /** pj_dump output starts with one of its record kinds followed by ", ". */
  public static boolean sniff(byte[] head) {
    String text = new String(head, StandardCharsets.UTF_8);
    for (String kind : KINDS) {
      if (text.startsWith(kind)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    Parse parse = new Parse(file, sink, options);
    try {
      try (BufferedReader reader = new BufferedReader(new LineLimit(Files.newBufferedReader(file, StandardCharsets.UTF_8),
          file))) {
        parse.containers(reader);
      }
      try (BufferedReader reader = new BufferedReader(new LineLimit(Files.newBufferedReader(file, StandardCharsets.UTF_8),
          file))) {
        parse.lines(reader);
      }
    } catch (java.nio.charset.CharacterCodingException e) {
      throw TraceFormatException.atLine(file, lineOfBadUtf8(file), "expected UTF-8 text, found bytes that are not",
          null);
    }
  }

  /** The line of the first byte that is not UTF-8 (the reader reads ahead, so its count is no guide). */
  static long lineOfBadUtf8(Path file) throws IOException {
    java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
    java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(1 << 16);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(1 << 16);
    long line = 1;
    try (java.nio.channels.ReadableByteChannel channel = Files.newByteChannel(file)) {
      boolean end = false;
      while (!end) {
        end = channel.read(in) < 0;
        in.flip();
        java.nio.charset.CoderResult result = decoder.decode(in, out, end);
        out.flip();
        while (out.hasRemaining()) {
          line += out.get() == '\n' ? 1 : 0;
        }
        out.clear();
        if (result.isError()) {
          return line;
        }
        in.compact();
      }
    }
    return line;
  }

  private static final class Parse {
    private final Path file;
    private final TraceSink sink;
    /** pj_dump gives a state's depth, not the state it lies in: found from the states around it. */
    private final OuterStates outerStates;
    private final ReadOptions options;
    private final Map<String, Integer> producers = new HashMap<>();
    private final Map<Integer, Double> producerEnds = new LinkedHashMap<>();
    private final TypeIds types;
    private final Map<String, Long> skipped = new TreeMap<>();
    private double first = Double.POSITIVE_INFINITY;
    private double last = Double.NEGATIVE_INFINITY;
    private long lineNumber;
    private String line;

    Parse(Path file, TraceSink sink, ReadOptions options) {
      this.file = file;
      this.sink = sink;
      this.outerStates = new OuterStates(sink);
      this.types = new TypeIds(sink, true);
      this.options = options;
    }

    /** First pass: every container, declared breadth-first from the root. */
    void containers(BufferedReader reader) throws IOException {
      List<String[]> listed = new ArrayList<>();
      Map<String, List<String[]>> children = new HashMap<>();
      Map<String, Long> lines = new HashMap<>();
      Map<String[], Long> lineOf = new IdentityHashMap<>();
      long duplicates = 0;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (line.startsWith("Container")) {
          String[] f = line.split(", ", -1);
          fields(f, 7);
          time(f[3]);
          time(f[4]);
          lineOf.put(f, lineNumber);
          if (lines.putIfAbsent(f[6], lineNumber) != null) {
            duplicates++;
          }
          if (listed.isEmpty()) {
            listed.add(f);
          } else {
            children.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
          }
        }
      }
      if (listed.isEmpty()) {
        throw TraceFormatException.atLine(file, lineNumber, "no container: not a pj_dump file?",
            null);
      }
      if (duplicates > 0) {
        sink.warning(duplicates + " × container name listed again (records naming it go to its"
            + " first listing)");
      }
      for (int i = 0; i < listed.size(); i++) {
        String[] f = listed.get(i);
        int id = i;
        int parent = i == 0 ? -1 : producers.get(f[1]);
        producers.putIfAbsent(f[6], id);
        try {
          sink.producer(id, f[6], f[2], parent, time(f[3]));
        } catch (IllegalArgumentException refused) {
          // The store writer's refusal (a limit): at the container's own line, not the pass's end.
          throw TraceFormatException.atLine(file, lineOf.get(f), refused.getMessage(), String.join(", ", f));
        }
        if (i > 0) {
          producerEnds.put(id, time(f[4]));
        }
        listed.addAll(children.getOrDefault(f[6], List.of()));
        children.remove(f[6]);
      }
      if (!children.isEmpty()) {
        String orphan = children.keySet().iterator().next();
        throw TraceFormatException.atLine(file, lines.getOrDefault(
            children.get(orphan).get(0)[6], 0L), "container under an unknown parent \""
            + orphan + "\"", null);
      }
      lineNumber = 0;
    }

    /** Second pass: every other record. */
    void lines(BufferedReader reader) throws IOException {
      long bytes = 0;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        bytes += line.length() + 1;
        if (lineNumber % 65_536 == 0) {
          options.bytesRead().accept(bytes);
        }
        if (line.isBlank()) {
          continue;
        }
        try {
          record(line.split(", ", -1));
        } catch (TraceFormatException e) {
          if (!options.lenient()) {
            throw e;
          }
          skipped.merge(e.getMessage().replaceFirst("^.*?:\\d+: ", "").split("\n")[0], 1L,
              Long::sum);
        } catch (IllegalArgumentException refused) {
          // The store writer's refusal (a limit, a record it cannot keep), at the line of the
          // record; never skipped, even when lenient: the trace is beyond what the store holds.
          throw error(refused.getMessage());
        }
      }
      producerEnds.forEach((id, end) -> {
        if (end < last) {
          sink.producerEnd(id, end);
        }
      });
      long orphans = outerStates.finish();
      if (orphans > 0) {
        sink.warning(orphans + " × nested state (imbrication > 0) inside no state of the level below"
            + " (counted as lying in none)");
      }
      skipped.forEach((what, count) -> sink.warning(count + " × line skipped: " + what));
      sink.end(first > last ? 0 : first, first > last ? 0 : last, "s");
    }

    private void record(String[] f) throws TraceFormatException {
      switch (f[0]) {
        case "Container" -> { } // declared by the first pass
        case "State" -> {
          fields(f, 8);
          double start = time(f[3]);
          double end = time(f[4]);
          outerStates.state(producer(f[1]), type(f[7], EventCategory.STATE, f[2]), start, end,
              depth(f[6]));
        }
        case "Event" -> {
          fields(f, 5);
          sink.event(producer(f[1]), type(f[4], EventCategory.EVENT, f[2]), time(f[3]));
        }
        case "Variable" -> {
          fields(f, 7);
          double start = time(f[3]);
          time(f[4]);
          sink.variable(producer(f[1]), type(f[2], EventCategory.VARIABLE, null), start,
              number(f[6], "value"));
        }
        case "Link" -> {
          if (f.length != 9 && f.length != 10) {
            throw error("expected 9 or 10 fields for a Link, found " + f.length);
          }
          int from = producer(f[7]);
          int to = producer(f[8]);
          // Typed by the link type, as the Pajé reader types them (the value, e.g. PTP, is not kept):
          // the same trace gives the same store from either file (ImporterContractTest).
          sink.link(type(f[2], EventCategory.LINK, null), from, to, time(f[3]), time(f[4]), Double.NaN);
        }
        default -> throw error("expected Container, State, Event, Variable or Link, found \""
            + f[0] + "\"");
      }
    }

    private int producer(String name) throws TraceFormatException {
      Integer id = producers.get(name);
      if (id == null) {
        throw error("unknown container \"" + name + "\" (not listed before)");
      }
      return id;
    }

    private int type(String name, EventCategory category, String group) {
      return types.id(name, category, group);
    }

    private double time(String text) throws TraceFormatException {
      double t = number(text, "time");
      first = Math.min(first, t);
      last = Math.max(last, t);
      return t;
    }

    private double number(String text, String what) throws TraceFormatException {
      double value;
      try {
        value = Double.parseDouble(text);
      } catch (NumberFormatException e) {
        throw error("expected a number (" + what + "), found \"" + text + "\"");
      }
      if (!Double.isFinite(value)) { // "Infinity", "NaN", or beyond a double's range such as 1e400
        throw error("expected a finite number (" + what + "), found \"" + text + "\"");
      }
      return value;
    }

    private int depth(String text) throws TraceFormatException {
      double depth = number(text, "imbrication");
      if (depth < 0 || depth > Integer.MAX_VALUE || depth != Math.rint(depth)) {
        throw error("expected a nesting depth (imbrication: an integer ≥ 0), found \"" + text + "\"");
      }
      return (int) depth;
    }

    private void fields(String[] f, int expected) throws TraceFormatException {
      if (f.length != expected) {
        throw error("expected " + expected + " fields for a " + f[0] + ", found " + f.length);
      }
    }

    private TraceFormatException error(String what) {
      return TraceFormatException.atLine(file, lineNumber, what, line);
    }
  }
}
