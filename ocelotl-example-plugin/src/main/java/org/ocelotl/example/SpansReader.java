package org.ocelotl.example;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads a spans file: after the line {@code # spans 1}, one record per line,
 * {@code PATH,NAME,START,END} for a state or {@code PATH,NAME,TIME} for an event, times in
 * seconds; PATH names the producer from the root down, its parts separated by '/'
 * ({@code node-0/rank-3}), each part a producer made when first named. Lines that start with '#'
 * and blank lines are skipped. A producer's states do not nest (depth 0).
 *
 * <p>What a reader owes the sink ({@link TraceSink}): dense ids from 0, each producer and type
 * declared before its first record, producer 0 the root, and {@link TraceSink#end} last; a
 * malformed line is a {@link TraceFormatException} naming the file and the line.
 */
final class SpansReader implements TraceReader {
  private final Map<String, Integer> producers = new HashMap<>();
  private final Map<String, Integer> types = new HashMap<>();
  private double first = Double.POSITIVE_INFINITY;
  private double last = Double.NEGATIVE_INFINITY;

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    sink.producer(0, file.getFileName().toString(), "trace", -1, 0);
    producers.put("", 0);
    long bytes = 0;
    long lineNumber = 0;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        lineNumber++;
        bytes += line.length() + 1;
        if (lineNumber == 1 && !line.equals(SpansFormat.MAGIC)) {
          throw TraceFormatException.atLine(file, lineNumber, "expected the header '" + SpansFormat.MAGIC + "'", line);
        }
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split(",", -1);
        if (f.length != 3 && f.length != 4 || f[0].isEmpty() || f[1].isEmpty()) {
          throw TraceFormatException.atLine(file, lineNumber,
              "expected PATH,NAME,START,END (a state) or PATH,NAME,TIME (an event)", line);
        }
        int producer = producer(f[0], sink);
        double start = time(f[2], file, lineNumber, line);
        if (f.length == 4) {
          double end = time(f[3], file, lineNumber, line);
          if (end < start) {
            throw TraceFormatException.atLine(file, lineNumber, "the state ends before it starts", line);
          }
          sink.state(producer, type(f[1], EventCategory.STATE, sink), start, end, 0, -1);
          bounds(start, end);
        } else {
          sink.event(producer, type(f[1], EventCategory.EVENT, sink), start);
          bounds(start, start);
        }
        options.bytesRead().accept(bytes);
      }
    }
    boolean empty = first > last;
    sink.end(empty ? 0 : first, empty ? 0 : last, "s");
  }

  /** The producer at {@code path}, made with its missing ancestors, each under its parent. */
  private int producer(String path, TraceSink sink) {
    Integer known = producers.get(path);
    if (known != null) {
      return known;
    }
    int slash = path.lastIndexOf('/');
    int parent = slash < 0 ? 0 : producer(path.substring(0, slash), sink);
    int id = producers.size();
    producers.put(path, id);
    // The format names no kinds: a producer's kind is its level, so that producers of one level group together.
    sink.producer(id, path.substring(slash + 1), "level " + path.split("/").length, parent, 0);
    return id;
  }

  private int type(String name, EventCategory category, TraceSink sink) {
    return types.computeIfAbsent(category + "/" + name, key -> {
      int id = types.size();
      sink.eventType(id, name, category, null, null);
      return id;
    });
  }

  private static double time(String text, Path file, long line, String content) throws TraceFormatException {
    try {
      double time = Double.parseDouble(text.strip());
      if (Double.isFinite(time)) {
        return time;
      }
    } catch (NumberFormatException e) {
      // the message below names the field
    }
    throw TraceFormatException.atLine(file, line, "'" + text + "' is not a time in seconds", content);
  }

  private void bounds(double start, double end) {
    first = Math.min(first, start);
    last = Math.max(last, end);
  }
}
