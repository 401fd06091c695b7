package org.ocelotl.format.otf2;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.ocelotl.format.RecordingInput;
import org.ocelotl.format.RecordingOutput;
import org.ocelotl.format.SplitRecords;
import org.ocelotl.model.EventCategory;
import org.ocelotl.split.MatchedEnds;
import org.ocelotl.split.MessageEnd;
import org.ocelotl.split.MessageSplit;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * An OTF2 archive read in pieces, for an engine that decodes and assembles its locations in
 * parallel (the Spark import, docs/scale-out.md): nothing of the trace's size passes through one
 * place.
 *
 * <ol>
 *   <li>{@link #open} (driver) reads the anchor and the global definitions once; the object,
 *       serialisable with the {@link Otf2Files} it reads from (a local directory, HDFS…), is
 *       shipped to the tasks.
 *   <li>{@link #decode}, a task per location: its event file (and its local definitions) into a
 *       {@link Decoded}: the records with the task's own type ids, its type declarations in the
 *       order met and what it counted (a {@link LocationSummary}, small), and its message sides
 *       ({@link #ends}), each numbered in its location's order — a channel's sends and receives live
 *       in two event files, so no task can match them.
 *   <li>{@link #match}, a task per group of channels (a shuffle brings it each channel's sides in
 *       processing order: location, then number): FIFO per channel, as the sequential reader
 *       matches; the links and the sides left unmatched go to the location that writes them (the
 *       sender's, or the side's own), and a {@link ChannelSummary} per channel to the driver.
 *   <li>{@link #plan} (driver): the summaries replayed through the sequential reader's own assembly
 *       ({@link Otf2Reader#assemble}): type ids in the order it meets them (the link type where the
 *       first message is matched, the unmatched sides' types in its channels' order), bounds and
 *       warnings in its words. Small: a few numbers per location and per channel.
 *   <li>{@link #assemblePart}, a task per location: every producer and type, then its records and
 *       the links and unmatched sides it got, into a store of its own.
 * </ol>
 *
 * <p>Between them the parts hold every record of {@link Otf2Reader#read}, bit for bit, with the
 * same type ids, and every part holds every producer and type: the stores' metadata merge
 * ({@code StoreMetadata.ofParts}) with {@link Plan#warnings} into the sequential read's.
 */
public final class Otf2Split implements MessageSplit<Otf2Split.Decoded, Otf2Split.LocationSummary, Otf2Split.End,
    Otf2Split.ChannelSummary, Otf2Split.Plan> {
  private static final long serialVersionUID = 2L;

  private static final byte LINK = 'L';
  private static final byte UNMATCHED = 'U';

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
    // The producers are declared again, to each part's sink, by assemblePart: here only their numbering.
    return new Otf2Split(anchor, definitions, Otf2Reader.declareProducers(anchor, definitions, new Refusing()));
  }

  /** The archive's locations (OTF2 ids), in the order the reader reads them: one event file each. */
  public List<Long> locations() {
    return new ArrayList<>(definitions.locations.keySet());
  }

  @Override
  public int tasks() {
    return definitions.locations.size();
  }

  // ---------------------------------------------------------------- decoding (a task per location)

  /** An event type as a location declares it, in the order it meets it. */
  public record TypeDeclaration(String name, EventCategory category, String group) implements Serializable {}

  /**
   * What the driver needs of a location: its type declarations in order (its records' type ids are
   * their indexes), its event count, its first and last timestamps, what it counted.
   */
  public record LocationSummary(int index, List<TypeDeclaration> types, long count, double first, double last,
      Map<String, Long> anomalies, Map<Integer, Long> unknownKinds) implements Serializable {}

  /**
   * A location decoded: its summary, its states, events and variables ({@link SplitRecords}, the
   * location's type ids), its message sides (read by {@link #ends}).
   */
  public record Decoded(LocationSummary summary, byte[] records, byte[] messages) implements Serializable {}

  /**
   * A message side: its channel (from, to, tag), its place in the sequential read's order (its
   * location's index, then its number there) and how many types its location had declared before
   * it (where the sequential read declares the link type if this side makes the first match).
   */
  public record End(int from, int to, long tag, int location, int sequence, boolean send, double time, int kind,
      long length, int typesBefore) implements MessageEnd<End> {
    private static final Comparator<End> ORDER = Comparator.comparingInt(End::from).thenComparingInt(End::to)
        .thenComparingLong(End::tag).thenComparingInt(End::location).thenComparingInt(End::sequence);

    /** By channel, then in the order the sequential reader meets the sides. */
    @Override
    public int compareTo(End other) {
      return ORDER.compare(this, other);
    }

    public boolean sameChannel(End other) {
      return from == other.from && to == other.to && tag == other.tag;
    }

    /** A hash of the channel alone, the same in every JVM: which task matches it. */
    @Override
    public int channelHash() {
      return 31 * (31 * from + to) + Long.hashCode(tag);
    }

    /** The producer that recorded this side (the sender's for a send). */
    int producer() {
      return send ? from : to;
    }
  }

  /** Decodes the location of index {@code index} in {@link #locations} (its event file, its local definitions). */
  @Override
  public Decoded decode(int index) throws IOException {
    long location = locations().get(index);
    Integer producer = producerOfLocation.get(location);
    if (producer == null) {
      throw new TraceFormatException(anchor.files().name(anchor.globalDefinitionFile()) + ": location " + location
          + " is not reachable from the system tree (cyclic parents)");
    }
    Recorder recorder = new Recorder();
    Otf2Events events = new Otf2Events(definitions, recorder, producerOfLocation, recorder, null);
    long count;
    Otf2LocalDefinitions local = Otf2LocalDefinitions.read(anchor, location);
    try (Otf2Input in = Otf2Input.open(anchor.files(), anchor.eventFile(location), anchor.eventChunkSize(), false)) {
      count = events.readLocation(in, local, producer, b -> { });
    }
    LocationSummary summary = new LocationSummary(index, List.copyOf(recorder.types), count, events.first(),
        events.last(), new TreeMap<>(events.anomalies()), new TreeMap<>(events.unknownKinds()));
    return new Decoded(summary, recorder.records.toByteArray(), recorder.messages.toByteArray());
  }

  @Override
  public LocationSummary summary(Decoded decoded) {
    return decoded.summary();
  }

  @Override
  public int task(Decoded decoded) {
    return decoded.summary().index();
  }

  /** A decoded location's message sides, in its order. */
  @Override
  public List<End> ends(Decoded decoded) {
    List<End> ends = new ArrayList<>();
    RecordingInput in = new RecordingInput(decoded.messages());
    int location = decoded.summary().index();
    while (in.hasRemaining()) {
      ends.add(new End(in.readInt(), in.readInt(), in.readLong(), location, ends.size(), in.readBoolean(),
          in.readDouble(), in.readInt(), in.readLong(), in.readInt()));
    }
    return ends;
  }

  // ---------------------------------------------------------------- matching (a task per group of channels)

  /**
   * What the sequential read's matching made of one channel: where its first side is met (it takes
   * its place among the channels there), where its first match is made and how many types that
   * location had declared before, how many links ran backwards, and its sides left unmatched (all
   * sends or all receives): their count and their record kinds, each once, in order.
   */
  public record ChannelSummary(int from, int to, long tag, int firstLocation, int firstSequence, int matchLocation,
      int matchSequence, int matchTypesBefore, long backwards, boolean sends, List<Integer> unmatchedKinds,
      long unmatched) implements Serializable {}

  /**
   * What a matching task made: a summary per channel, and for each location (by index) the links
   * it writes (it sent them) and its sides left unmatched, to be replayed by {@link #assemblePart}.
   */
  public record Matched(List<ChannelSummary> channels, Map<Integer, byte[]> byLocation)
      implements MatchedEnds<ChannelSummary>, Serializable {}

  /**
   * Matches the sides of whole channels: {@code ends} sorted ({@link End#compareTo}), each channel's
   * sides all there. FIFO per channel, as {@link Otf2Events#messageEnd}: the k-th send goes with the
   * k-th receive (its pending queue holds the unmatched tail of one side), so the link is the one the
   * sequential read makes, made when it meets the later of the two.
   */
  @Override
  public Matched match(Iterator<End> ends) {
    List<ChannelSummary> channels = new ArrayList<>();
    Map<Integer, ByteArrayOutputStream> byLocation = new TreeMap<>();
    ArrayDeque<End> pending = new ArrayDeque<>();
    End first = null;
    End firstMatch = null;
    long backwards = 0;
    while (true) {
      End end = ends.hasNext() ? ends.next() : null;
      if (first != null && (end == null || !end.sameChannel(first))) {
        Set<Integer> kinds = new LinkedHashSet<>();
        boolean sends = !pending.isEmpty() && pending.peek().send();
        for (End left : pending) {
          kinds.add(left.kind());
          Recorder.write(() -> {
            DataOutputStream out = out(byLocation, left.location());
            out.writeByte(UNMATCHED);
            out.writeInt(left.producer());
            out.writeInt(left.kind());
            out.writeDouble(left.time());
          });
        }
        channels.add(new ChannelSummary(first.from(), first.to(), first.tag(), first.location(), first.sequence(),
            firstMatch == null ? -1 : firstMatch.location(), firstMatch == null ? -1 : firstMatch.sequence(),
            firstMatch == null ? -1 : firstMatch.typesBefore(), backwards, sends, List.copyOf(kinds), pending.size()));
        pending.clear();
        first = null;
        firstMatch = null;
        backwards = 0;
      }
      if (end == null) {
        break;
      }
      if (first == null) {
        first = end;
      }
      if (!pending.isEmpty() && pending.peek().send() != end.send()) {
        End other = pending.poll();
        End send = end.send() ? end : other;
        End receive = end.send() ? other : end;
        if (firstMatch == null) {
          firstMatch = end;
        }
        if (receive.time() < send.time()) {
          backwards++;
        }
        Recorder.write(() -> {
          DataOutputStream out = out(byLocation, send.location());
          out.writeByte(LINK);
          out.writeInt(send.from());
          out.writeInt(send.to());
          out.writeDouble(send.time());
          out.writeDouble(Otf2Events.linkEnd(send.time(), receive.time()));
          out.writeDouble(send.length()); // the send's length: the message as it left
        });
      } else {
        pending.add(end);
      }
    }
    Map<Integer, byte[]> bytes = new TreeMap<>();
    byLocation.forEach((location, out) -> bytes.put(location, out.toByteArray()));
    return new Matched(channels, bytes);
  }

  private static DataOutputStream out(Map<Integer, ByteArrayOutputStream> byLocation, int location) {
    return new DataOutputStream(byLocation.computeIfAbsent(location, l -> new ByteArrayOutputStream()));
  }

  // ---------------------------------------------------------------- the plan (driver)

  /**
   * What every part needs to write its share as the sequential read would: the types in id order,
   * each location's type ids → the import's ({@code typeOf[location][local id]}), the link type and
   * the types of unmatched sides by record kind (-1: none), and the trace's bounds, unit and warnings
   * (the sequential read's, in its order; a part's store adds only its own writer's).
   */
  public record Plan(List<TypeDeclaration> types, int[][] typeOf, int linkType, int[] recordTypes,
      List<String> warnings, double start, double end, String timeUnit) implements Serializable {}

  /**
   * Replays the locations' summaries (in {@link #locations} order) and the channels' through the
   * sequential reader's assembly ({@link Otf2Reader#assemble}): each location's types, the link type
   * where the first match is made, its counts and bounds, and the channels first met there, each
   * with its unmatched sides' kinds, so that its end ({@link Otf2Events#finish}) types them and words
   * the warnings as it does. Costs a few numbers per location and per channel, none per record.
   */
  @Override
  public Plan plan(List<LocationSummary> locations, List<ChannelSummary> channels) throws IOException {
    ChannelSummary firstMatch = channels.stream().filter(c -> c.matchLocation() >= 0)
        .min(Comparator.comparingInt(ChannelSummary::matchLocation).thenComparingInt(ChannelSummary::matchSequence))
        .orElse(null);
    Map<Integer, List<ChannelSummary>> firstMet = new HashMap<>();
    long backwards = 0;
    for (ChannelSummary c : channels) {
      firstMet.computeIfAbsent(c.firstLocation(), l -> new ArrayList<>()).add(c);
      backwards += c.backwards();
    }
    firstMet.values().forEach(met -> met.sort(Comparator.comparingInt(ChannelSummary::firstSequence)));
    long receivedBeforeSent = backwards;
    Collector collector = new Collector();
    int[][] typeOf = new int[locations.size()][];
    Iterator<LocationSummary> next = locations.iterator();
    Otf2Reader.assemble(anchor, definitions, collector, null, (events, location, producer) -> {
      LocationSummary summary = next.next();
      int index = summary.index();
      int linkAt = firstMatch != null && firstMatch.matchLocation() == index ? firstMatch.matchTypesBefore() : -1;
      int[] global = new int[summary.types().size()];
      for (int k = 0; k < global.length; k++) {
        if (k == linkAt) {
          events.linkType();
        }
        TypeDeclaration t = summary.types().get(k);
        global[k] = events.type(t.name(), t.category(), t.group());
      }
      if (linkAt == global.length) {
        events.linkType();
      }
      typeOf[index] = global;
      // Channels join the reader's table where it first meets them (its end visits them by key).
      for (ChannelSummary c : firstMet.getOrDefault(index, List.of())) {
        events.pendingApart(new Otf2Events.Channel(c.from(), c.to(), c.tag()), c.sends(), c.unmatchedKinds(),
            c.unmatched());
      }
      events.absorb(summary.first(), summary.last(), index == 0 && receivedBeforeSent > 0
          ? merge(summary.anomalies(), Otf2Events.RECEIVED_BEFORE_SENT, receivedBeforeSent) : summary.anomalies(),
          summary.unknownKinds());
      return summary.count();
    });
    int[] recordTypes = new int[256];
    java.util.Arrays.fill(recordTypes, -1);
    int linkType = -1;
    for (int id = 0; id < collector.types.size(); id++) {
      TypeDeclaration t = collector.types.get(id);
      if (t.category() == EventCategory.LINK && t.name().equals("MPI message")) {
        linkType = id;
      }
      for (int kind : new int[] {Otf2Records.MPI_SEND, Otf2Records.MPI_ISEND, Otf2Records.MPI_RECV,
          Otf2Records.MPI_IRECV}) {
        if (t.category() == EventCategory.EVENT && t.name().equals(Otf2Records.name(kind))) {
          recordTypes[kind] = id;
        }
      }
    }
    return new Plan(List.copyOf(collector.types), typeOf, linkType, recordTypes, List.copyOf(collector.warnings),
        collector.start, collector.end, collector.timeUnit);
  }

  private static Map<String, Long> merge(Map<String, Long> anomalies, String what, long count) {
    Map<String, Long> merged = new TreeMap<>(anomalies);
    merged.merge(what, count, Long::sum);
    return merged;
  }

  // ---------------------------------------------------------------- a part (a task per location)

  /**
   * Feeds {@code sink} one part of the trace as a whole store of its own: every producer (as the
   * sequential read declares them), every type of {@code plan}, the location's records with the
   * import's type ids, the links and unmatched sides {@link #match} gave it ({@code matched}, in any
   * order) and the trace's end. No warning: the driver has them ({@link Plan#warnings}). {@code decoded}
   * null: a part with no location (an archive without any), producers and types alone.
   */
  @Override
  public List<String> warnings(Plan plan) {
    return plan.warnings();
  }

  @Override
  public void assemblePart(Plan plan, Decoded decoded, Iterator<byte[]> matched, TraceSink sink) throws IOException {
    Otf2Reader.declareProducers(anchor, definitions, sink);
    for (int id = 0; id < plan.types().size(); id++) {
      TypeDeclaration t = plan.types().get(id);
      // OTF2 gives no colours (TypeIds is called without one).
      sink.eventType(id, t.name(), t.category(), t.group(), null);
    }
    int[] typeOf = decoded == null ? new int[0] : plan.typeOf()[decoded.summary().index()];
    RecordingInput records = new RecordingInput(decoded == null ? new byte[0] : decoded.records());
    while (records.hasRemaining()) {
      byte tag = records.readByte();
      if (!SplitRecords.replay(tag, records, typeOf, sink)) {
        throw new IllegalStateException("recording operation " + tag);
      }
    }
    while (matched.hasNext()) {
      RecordingInput in = new RecordingInput(matched.next());
      while (in.hasRemaining()) {
        byte tag = in.readByte();
        switch (tag) {
          case LINK -> sink.link(plan.linkType(), in.readInt(), in.readInt(), in.readDouble(), in.readDouble(),
              in.readDouble());
          case UNMATCHED -> sink.event(in.readInt(), plan.recordTypes()[in.readInt()], in.readDouble());
          default -> throw new IllegalStateException("matched operation " + tag);
        }
      }
    }
    sink.end(plan.start(), plan.end(), plan.timeUnit());
  }

  /**
   * The task's sink and message sides: what one location's decoding produces. States, events and
   * variables are all an OTF2 location yields by itself; links need the other file.
   */
  private static final class Recorder extends Refusing implements Otf2Events.MessageEnds {
    private final RecordingOutput records = new RecordingOutput();
    private final RecordingOutput messages = new RecordingOutput();
    private final DataOutputStream recordsOut = new DataOutputStream(records);
    private final DataOutputStream messagesOut = new DataOutputStream(messages);
    private final List<TypeDeclaration> types = new ArrayList<>();

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      // The task's ids are 0, 1, 2… in the order met (TypeIds): their indexes here.
      if (id != types.size()) {
        throw new IllegalStateException("type " + id + " declared after " + types.size());
      }
      types.add(new TypeDeclaration(name, category, group));
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
      write(() -> SplitRecords.state(recordsOut, producer, type, start, end, depth, outer));
    }

    @Override
    public void event(int producer, int type, double time) {
      write(() -> SplitRecords.event(recordsOut, producer, type, time));
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      write(() -> SplitRecords.variable(recordsOut, producer, type, time, value));
    }

    @Override
    public void end(int from, int to, long tag, boolean send, double time, int recordKind, long length) {
      write(() -> {
        messagesOut.writeInt(from);
        messagesOut.writeInt(to);
        messagesOut.writeLong(tag);
        messagesOut.writeBoolean(send);
        messagesOut.writeDouble(time);
        messagesOut.writeInt(recordKind);
        messagesOut.writeLong(length);
        messagesOut.writeInt(types.size());
      });
    }

    private interface Write {
      void run() throws IOException;
    }

    // A RecordingOutput does not fail; the IOException is DataOutputStream's signature.
    static void write(Write write) {
      try {
        write.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The driver's sink while it plans: the types, warnings and bounds the sequential assembly gives. */
  private static final class Collector implements TraceSink {
    final List<TypeDeclaration> types = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    double start;
    double end;
    String timeUnit;

    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
    }

    @Override
    public void producerEnd(int id, double destroyed) {
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      types.add(new TypeDeclaration(name, category, group));
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
    }

    @Override
    public void event(int producer, int type, double time) {
      // The unmatched sides the plan stands in for: written by their parts.
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
    }

    @Override
    public void warning(String message) {
      warnings.add(message);
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      this.start = start;
      this.end = end;
      this.timeUnit = timeUnit;
    }
  }

  /** A sink for what a location's decoding never sends: producers, links, warnings and the end. */
  private static class Refusing implements TraceSink {
    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      // open() numbers the producers through this sink; assemblePart declares them to each part's.
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
    public void state(int producer, int type, double start, double end, int depth, int outer) {
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
      throw new IllegalStateException("links are matched by match, never by a location's decoding");
    }

    @Override
    public void warning(String message) {
      throw new IllegalStateException("warnings are worded by plan, never by a location's decoding");
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      throw new IllegalStateException("the end is given by plan");
    }
  }
}
