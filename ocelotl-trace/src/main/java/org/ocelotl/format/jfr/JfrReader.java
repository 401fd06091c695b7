package org.ocelotl.format.jfr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.EventType;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordedThreadGroup;
import jdk.jfr.consumer.RecordingFile;
import org.ocelotl.format.StateNesting;
import org.ocelotl.format.TypeIds;
import org.ocelotl.model.EventCategory;
import org.ocelotl.primitive.BooleanColumn;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads a Java Flight Recorder file through the JDK's own {@code jdk.jfr.consumer} API.
 * Threads are the producers, under their thread groups; events without a thread go to a "JVM"
 * leaf. An event of a periodic type (one with a "period" setting, e.g. jdk.CPULoad,
 * jdk.ThreadCPULoad) sets one variable per numeric field ("jdk.CPULoad.machineTotal"); any
 * other event is a state of its type when it has a duration, else a punctual event. Times are
 * nanoseconds since the start of the recording's first chunk. Events are buffered per thread
 * (JFR chunks are not in time order) and written once the thread tree is known.
 */
public final class JfrReader implements TraceReader {
  private static final byte[] MAGIC = {'F', 'L', 'R', 0};
  /** Offset of the chunk's start time (epoch nanoseconds) in a JFR chunk header. */
  private static final int CHUNK_START_NANOS = 32;

  public static boolean sniff(byte[] head) {
    return head.length >= 4 && Arrays.equals(Arrays.copyOf(head, 4), MAGIC);
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    long base = chunkStartNanos(file);
    checkRecordSizes(file);
    Recording recording = new Recording(sink, base);
    RecordingFile opened;
    try {
      opened = new RecordingFile(file); // reads the first chunk's metadata: damage shows here too
    } catch (IOException | RuntimeException | InternalError e) {
      throw unreadable(file, e);
    }
    try (RecordingFile events = opened) {
      while (true) {
        jdk.jfr.consumer.RecordedEvent event;
        // The JDK's parser meets damaged recordings with whatever exception its code hits
        // (IndexOutOfBounds, NullPointer, ClassCast, InternalError): all mean the same to the user.
        try {
          if (!events.hasMoreEvents()) {
            break;
          }
          event = events.readEvent();
        } catch (IOException | RuntimeException | InternalError e) {
          throw unreadable(file, e);
        }
        // The JDK decodes an event's values lazily, as they are read (its thread, its thread
        // group, its fields): damage shows there too (a ClassCast in getThreadGroup, found by
        // fuzzing). The sink's own refusals (a limit) pass through, for the importer to report.
        try {
          recording.event(event);
        } catch (SinkRefusal refusal) {
          throw refusal.refusal;
        } catch (RuntimeException | InternalError e) {
          throw unreadable(file, e);
        }
      }
    } catch (IOException e) {
      if (e instanceof TraceFormatException) {
        throw e;
      }
      throw unreadable(file, e);
    }
    // The JDK's reader does not tell its position: progress is reported once, at the end.
    options.bytesRead().accept(Files.size(file));
    recording.emit(file.getFileName().toString());
  }

  private static TraceFormatException unreadable(Path file, Throwable e) {
    return new TraceFormatException(file + ": not a readable JFR recording: its data is damaged or truncated (the JDK's "
        + "reader stopped with " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
        + ")");
  }

  /** Carries a refusal of the sink out of {@link Recording#event}, past the net for the JDK's failures. */
  private static final class SinkRefusal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final RuntimeException refusal;

    SinkRefusal(RuntimeException refusal) {
      super(null, null, false, false);
      this.refusal = refusal;
    }
  }

  /** Offset of the chunk's size in bytes (a long) in a JFR chunk header. */
  private static final int CHUNK_SIZE = 8;
  /** The bytes of a chunk header: a chunk is at least that long. */
  private static final int CHUNK_HEADER_BYTES = 68;

  private static long chunkStartNanos(Path file) throws IOException {
    byte[] header = new byte[CHUNK_START_NANOS + Long.BYTES];
    int read;
    try (InputStream in = Files.newInputStream(file)) {
      read = in.readNBytes(header, 0, header.length);
    }
    if (read < 4 || !sniff(header)) {
      throw TraceFormatException.atOffset(file, 0,
          "not a Java Flight Recorder file: expected the magic \"FLR\\0\"");
    }
    if (read < header.length) {
      throw TraceFormatException.atOffset(file, read, "JFR chunk header truncated");
    }
    // A chunk size the file cannot hold (0 made the JDK's reader loop for ever) is a damaged file.
    long chunkSize = ByteBuffer.wrap(header).getLong(CHUNK_SIZE);
    long fileSize = Files.size(file);
    if (chunkSize < CHUNK_HEADER_BYTES || chunkSize > fileSize) {
      throw TraceFormatException.atOffset(file, CHUNK_SIZE, "JFR chunk size " + chunkSize + ": expected "
          + CHUNK_HEADER_BYTES + " to the file's " + fileSize + " bytes");
    }
    return ByteBuffer.wrap(header).getLong(CHUNK_START_NANOS);
  }

  /** Offset of the chunk's feature flags (an int) in a JFR chunk header; bit 0: compressed integers. */
  private static final int CHUNK_FEATURES = 64;

  /**
   * Walks the records of every chunk by their sizes before the JDK's reader does: that reader
   * moves to a record's start plus its size, so a size of 0 or less sends it back and round for
   * ever (found by fuzzing: a mutated recording held the import for more than 3 minutes).
   */
  private static void checkRecordSizes(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file)) {
      long fileSize = channel.size();
      for (long chunk = 0; chunk < fileSize; ) {
        ByteBuffer header = ByteBuffer.allocate(CHUNK_HEADER_BYTES);
        channel.read(header, chunk);
        long chunkSize = header.getLong(CHUNK_SIZE);
        if (header.position() < CHUNK_HEADER_BYTES || chunkSize < CHUNK_HEADER_BYTES
            || chunkSize > fileSize - chunk || chunkSize > Integer.MAX_VALUE) {
          throw TraceFormatException.atOffset(file, chunk + CHUNK_SIZE, "JFR chunk size " + chunkSize
              + ": expected " + CHUNK_HEADER_BYTES + " to the file's remaining " + (fileSize - chunk) + " bytes");
        }
        boolean compressed = (header.getInt(CHUNK_FEATURES) & 1) != 0;
        ByteBuffer records = channel.map(FileChannel.MapMode.READ_ONLY, chunk, chunkSize);
        for (int at = CHUNK_HEADER_BYTES; at < chunkSize; ) {
          records.position(at);
          long size = compressed ? readCompressed(records) : records.remaining() >= Integer.BYTES ? records.getInt() : 0;
          if (size <= 0 || size > chunkSize - at) {
            throw TraceFormatException.atOffset(file, chunk + at, "JFR record size " + size + ": expected 1 to the "
                + "chunk's remaining " + (chunkSize - at) + " bytes");
          }
          at += (int) size;
        }
        chunk += chunkSize;
      }
    }
  }

  /**
   * A JFR compressed integer, as the JDK reads it: 7 bits a byte, low bits first, the high bit
   * saying another byte follows, the 9th byte whole; cut short by the buffer's end, 0.
   */
  private static long readCompressed(ByteBuffer in) {
    long value = 0;
    for (int i = 0; i < 9; i++) {
      if (!in.hasRemaining()) {
        return 0;
      }
      int b = in.get() & 0xff;
      if (i == 8) {
        value |= (long) b << 56;
        break;
      }
      value |= (long) (b & 0x7f) << (7 * i);
      if (b < 0x80) {
        break;
      }
    }
    return (int) value; // the JDK reads a record's size as an int
  }

  /**
   * How the events of one JFR type are imported: as variables (numericFields set), or as states
   * and punctual events, whose types are declared on first use.
   */
  private static final class Kind {
    final String name;
    final String group;
    final String[] numericFields;
    final int[] variableTypes;
    int stateType = -1;
    int eventType = -1;

    Kind(String name, String group, String[] numericFields, int[] variableTypes) {
      this.name = name;
      this.group = group;
      this.numericFields = numericFields;
      this.variableTypes = variableTypes;
    }
  }

  /** Everything one thread (or the JVM leaf) recorded. */
  private static final class Lane {
    final String name;
    final String group;
    final StateNesting states = new StateNesting();
    final DoubleColumn times = new DoubleColumn();
    final DoubleColumn values = new DoubleColumn();
    final IntColumn types = new IntColumn();
    final BooleanColumn variable = new BooleanColumn();
    int producer;

    Lane(String name, String group) {
      this.name = name;
      this.group = group;
    }

    void add(double time, int type, boolean isVariable, double value) {
      times.add(time);
      values.add(value);
      types.add(type);
      variable.add(isVariable);
    }
  }

  private static final class Recording {
    private final TraceSink sink;
    private final long base;
    private final Map<Long, Kind> kinds = new HashMap<>();
    private final TypeIds types;
    private final Map<String, Lane> lanes = new LinkedHashMap<>();
    /** Thread group path ("a/b") → its parent path, in order of first appearance. */
    private final Map<String, String> groups = new LinkedHashMap<>();
    private double first = Double.POSITIVE_INFINITY;
    private double last = Double.NEGATIVE_INFINITY;

    Recording(TraceSink sink, long base) {
      this.sink = sink;
      this.base = base;
      this.types = new TypeIds(sink, false);
    }

    void event(RecordedEvent event) {
      Kind kind = kinds.computeIfAbsent(event.getEventType().getId(), id -> kind(event.getEventType()));
      Lane lane = lane(event.getThread());
      double start = nanos(event.getStartTime());
      double end = nanos(event.getEndTime());
      first = Math.min(first, start);
      last = Math.max(last, end);
      if (kind.numericFields != null) {
        for (int i = 0; i < kind.numericFields.length; i++) {
          lane.add(end, kind.variableTypes[i], true, event.getDouble(kind.numericFields[i]));
        }
      } else if (end > start) {
        if (kind.stateType < 0) {
          kind.stateType = type(kind.name, EventCategory.STATE, kind.group);
        }
        lane.states.add(start, end, kind.stateType);
      } else {
        if (kind.eventType < 0) {
          kind.eventType = type(kind.name, EventCategory.EVENT, kind.group);
        }
        lane.add(start, kind.eventType, false, 0);
      }
    }

    private double nanos(Instant time) {
      return (time.getEpochSecond() - base / 1_000_000_000L) * 1e9
          + (time.getNano() - base % 1_000_000_000L);
    }

    private Kind kind(EventType type) {
      String group = String.join("/", type.getCategoryNames());
      boolean periodic = type.getSettingDescriptors().stream()
          .map(SettingDescriptor::getName).anyMatch("period"::equals);
      if (periodic) {
        List<String> numeric = new ArrayList<>();
        for (ValueDescriptor field : type.getFields()) {
          if (isMeasure(field)) {
            numeric.add(field.getName());
          }
        }
        if (!numeric.isEmpty()) {
          int[] variableTypes = new int[numeric.size()];
          for (int i = 0; i < variableTypes.length; i++) {
            variableTypes[i] = type(type.getName() + "." + numeric.get(i), EventCategory.VARIABLE,
                type.getName());
          }
          return new Kind(type.getName(), group, numeric.toArray(String[]::new), variableTypes);
        }
      }
      return new Kind(type.getName(), group, null, null);
    }

    /** Numeric fields that measure something (not times, not ids). */
    private static boolean isMeasure(ValueDescriptor field) {
      String name = field.getName();
      String content = field.getContentType();
      boolean numeric = switch (field.getTypeName()) {
        case "int", "long", "float", "double", "short", "byte" -> true;
        default -> false;
      };
      return numeric && !name.equals("startTime") && !name.equals("duration")
          && !name.endsWith("Id") && !"jdk.jfr.Timestamp".equals(content);
    }

    private int type(String name, EventCategory category, String group) {
      try {
        return types.id(name, category, group);
      } catch (IllegalArgumentException | IllegalStateException refused) {
        throw new SinkRefusal(refused);
      }
    }

    private Lane lane(RecordedThread thread) {
      if (thread == null) {
        return lanes.computeIfAbsent("", k -> new Lane("JVM", null));
      }
      long javaId = thread.getJavaThreadId();
      String key = javaId > 0 ? "j" + javaId : "o" + thread.getOSThreadId();
      return lanes.computeIfAbsent(key, k -> {
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return new Lane(name == null ? key : name, group(thread.getThreadGroup()));
      });
    }

    private String group(RecordedThreadGroup group) {
      if (group == null) {
        return null;
      }
      String parent = group(group.getParent());
      String path = (parent == null ? "" : parent + "/") + group.getName();
      groups.putIfAbsent(path, parent);
      return path;
    }

    void emit(String name) {
      double created = first > last ? 0 : first;
      int next = 0;
      sink.producer(next++, name, "recording", -1, created);
      Map<String, Integer> groupIds = new HashMap<>();
      for (Map.Entry<String, String> group : groups.entrySet()) {
        // A parent path is always registered before its children (group() recurses first).
        int parent = group.getValue() == null ? 0 : groupIds.get(group.getValue());
        String path = group.getKey();
        groupIds.put(path, next);
        sink.producer(next++, path.substring(path.lastIndexOf('/') + 1), "thread group", parent,
            created);
      }
      for (Lane lane : lanes.values()) {
        lane.producer = next;
        sink.producer(next++, lane.name, lane.group == null && lane.name.equals("JVM")
            ? "jvm" : "thread", lane.group == null ? 0 : groupIds.get(lane.group), created);
      }
      for (Lane lane : lanes.values()) {
        lane.states.emit(sink, lane.producer);
        for (int i = 0; i < lane.times.size(); i++) {
          if (lane.variable.get(i)) {
            sink.variable(lane.producer, lane.types.get(i), lane.times.get(i), lane.values.get(i));
          } else {
            sink.event(lane.producer, lane.types.get(i), lane.times.get(i));
          }
        }
      }
      sink.end(created, first > last ? 0 : last, "ns");
    }
  }
}
