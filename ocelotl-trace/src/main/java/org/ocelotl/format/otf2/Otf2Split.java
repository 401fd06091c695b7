package org.ocelotl.format.otf2;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.format.RecordingInput;
import org.ocelotl.format.SplitRecords;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * An OTF2 archive read in pieces, for an engine that decodes its locations in parallel (the
 * Spark import): {@link #open} reads the anchor and the global definitions once; the object,
 * serialisable with the {@link Otf2Files} it reads from (a local directory, HDFS…), is then shipped
 * to the tasks, each {@link #decode}s one location's event file (and its local definitions, if any),
 * opened through those files, into a recording;
 * {@link #assemble} replays the recordings, in location order, into a sink through the sequential
 * reader's own code ({@link Otf2Reader#assemble}).
 *
 * <p>The sink receives exactly the calls of {@link Otf2Reader#read}, in the same order, so the
 * store (and its Parquet dataset) is the same: a recording keeps each location's records with the
 * task's own type ids, declared in place, and its message sides in place; the replay gives the
 * types their ids in the order the sequential reader meets them, and matches the messages across
 * locations as it does (channel by channel, FIFO), which no task can do alone — a channel's sends
 * and receives live in two event files.
 */
public final class Otf2Split implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final byte TYPE = 0;
  private static final byte MESSAGE = 4;
  private static final byte END = 5;

  private final Otf2Anchor anchor;
  private final Otf2Definitions definitions;
  private final HashMap<Long, Integer> producerOfLocation;

  private Otf2Split(Otf2Anchor anchor, Otf2Definitions definitions, Map<Long, Integer> producerOfLocation) {
    this.anchor = anchor;
    this.definitions = definitions;
    this.producerOfLocation = new HashMap<>(producerOfLocation);
  }

  /** Reads the anchor file and the global definitions of the archive on the local file system. */
  public static Otf2Split open(Path anchorFile) throws IOException {
    return open(Otf2Files.local(anchorFile));
  }

  /**
   * Reads the anchor file and the global definitions of the archive in {@code files}; the tasks
   * that {@link #decode} its locations open their event files through the same {@code files}.
   */
  public static Otf2Split open(Otf2Files files) throws IOException {
    Otf2Anchor anchor = Otf2Anchor.read(files);
    Otf2Definitions definitions = Otf2Definitions.read(anchor, bytes -> { });
    // The producers are declared again, to the real sink, by assemble: here only their numbering.
    return new Otf2Split(anchor, definitions, Otf2Reader.declareProducers(anchor, definitions, new Refusing()));
  }

  /** The archive's locations (OTF2 ids), in the order the reader reads them: one event file each. */
  public List<Long> locations() {
    return new ArrayList<>(definitions.locations.keySet());
  }

  /** Decodes one location's event file into a recording for {@link #assemble}. */
  public byte[] decode(long location) throws IOException {
    Integer producer = producerOfLocation.get(location);
    if (producer == null) {
      throw new TraceFormatException(anchor.files().name(anchor.globalDefinitionFile()) + ": location " + location
          + " is not reachable from the system tree (cyclic parents)");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Recorder recorder = new Recorder(new DataOutputStream(bytes));
    Otf2Events events = new Otf2Events(definitions, recorder, producerOfLocation, recorder);
    long count;
    Otf2LocalDefinitions local = Otf2LocalDefinitions.read(anchor, location);
    try (Otf2Input in = Otf2Input.open(anchor.files(), anchor.eventFile(location), anchor.eventChunkSize(), false)) {
      count = events.readLocation(in, local, producer, b -> { });
    }
    recorder.finish(count, events);
    return bytes.toByteArray();
  }

  /**
   * Feeds {@code sink} what {@link Otf2Reader#read} would: {@code recordings} are those of
   * {@link #locations}, in that order (one is held at a time).
   */
  public void assemble(Iterator<byte[]> recordings, TraceSink sink) throws IOException {
    Otf2Reader.assemble(anchor, definitions, sink, (events, location, producer) -> {
      if (!recordings.hasNext()) {
        throw new IllegalStateException("no recording for location " + location);
      }
      return replay(recordings.next(), events, sink);
    });
  }

  /** Replays one recording; returns the location's event count. */
  private static long replay(byte[] recording, Otf2Events events, TraceSink sink) throws IOException {
    RecordingInput in = new RecordingInput(recording);
    // The task's type ids → the import's: the order the replay meets them is the sequential reader's.
    int[] typeOf = new int[16];
    while (true) {
      byte op = in.readByte();
      switch (op) {
        case TYPE -> {
          int local = in.readInt();
          String name = in.readUTF();
          EventCategory category = EventCategory.values()[in.readByte()];
          String group = in.readBoolean() ? in.readUTF() : null;
          if (local >= typeOf.length) {
            typeOf = java.util.Arrays.copyOf(typeOf, Math.max(local + 1, typeOf.length * 2));
          }
          typeOf[local] = events.type(name, category, group);
        }
        case MESSAGE -> events.messageEnd(in.readInt(), in.readInt(), in.readLong(), in.readBoolean(), in.readDouble(),
            in.readInt(), in.readLong());
        case END -> {
          long count = in.readLong();
          double first = in.readDouble();
          double last = in.readDouble();
          Map<String, Long> anomalies = new TreeMap<>();
          for (int n = in.readInt(); n > 0; n--) {
            anomalies.put(in.readUTF(), in.readLong());
          }
          Map<Integer, Long> unknownKinds = new TreeMap<>();
          for (int n = in.readInt(); n > 0; n--) {
            unknownKinds.put(in.readInt(), in.readLong());
          }
          events.absorb(first, last, anomalies, unknownKinds);
          return count;
        }
        default -> {
          if (!SplitRecords.replay(op, in, typeOf, sink)) {
            throw new IllegalStateException("recording operation " + op);
          }
        }
      }
    }
  }

  /**
   * The task's sink and message sides: what one location's decoding produces, in order. States,
   * events and variables are all an OTF2 location yields by itself; links need the other file.
   */
  private static final class Recorder extends Refusing implements Otf2Events.MessageEnds {
    private final DataOutputStream out;

    Recorder(DataOutputStream out) {
      this.out = out;
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      // OTF2 gives no colours (TypeIds is called without one), so none is recorded.
      write(() -> {
        out.writeByte(TYPE);
        out.writeInt(id);
        out.writeUTF(name);
        out.writeByte(category.ordinal());
        out.writeBoolean(group != null);
        if (group != null) {
          out.writeUTF(group);
        }
      });
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth) {
      write(() -> SplitRecords.state(out, producer, type, start, end, depth));
    }

    @Override
    public void event(int producer, int type, double time) {
      write(() -> SplitRecords.event(out, producer, type, time));
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      write(() -> SplitRecords.variable(out, producer, type, time, value));
    }

    @Override
    public void end(int from, int to, long tag, boolean send, double time, int recordKind, long length) {
      write(() -> {
        out.writeByte(MESSAGE);
        out.writeInt(from);
        out.writeInt(to);
        out.writeLong(tag);
        out.writeBoolean(send);
        out.writeDouble(time);
        out.writeInt(recordKind);
        out.writeLong(length);
      });
    }

    void finish(long count, Otf2Events events) {
      write(() -> {
        out.writeByte(END);
        out.writeLong(count);
        out.writeDouble(events.first());
        out.writeDouble(events.last());
        out.writeInt(events.anomalies().size());
        for (Map.Entry<String, Long> e : events.anomalies().entrySet()) {
          out.writeUTF(e.getKey());
          out.writeLong(e.getValue());
        }
        out.writeInt(events.unknownKinds().size());
        for (Map.Entry<Integer, Long> e : events.unknownKinds().entrySet()) {
          out.writeInt(e.getKey());
          out.writeLong(e.getValue());
        }
        out.flush();
      });
    }

    private interface Write {
      void run() throws IOException;
    }

    // A ByteArrayOutputStream does not fail; the IOException is DataOutputStream's signature.
    private static void write(Write write) {
      try {
        write.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A sink for what a location's decoding never sends: producers, links, warnings and the end. */
  private static class Refusing implements TraceSink {
    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      // open() numbers the producers through this sink; assemble declares them to the real one.
    }

    @Override
    public void producerEnd(int id, double destroyed) {
      throw new IllegalStateException("an OTF2 location does not end producers");
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      throw new IllegalStateException("no type is declared while producers are numbered");
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth) {
      throw new IllegalStateException("no record while producers are numbered");
    }

    @Override
    public void event(int producer, int type, double time) {
      throw new IllegalStateException("no record while producers are numbered");
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      throw new IllegalStateException("no record while producers are numbered");
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
      throw new IllegalStateException("links are matched by assemble, never by a location's decoding");
    }

    @Override
    public void warning(String message) {
      throw new IllegalStateException("warnings are given by assemble, never by a location's decoding");
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      throw new IllegalStateException("the end is given by assemble");
    }
  }
}
