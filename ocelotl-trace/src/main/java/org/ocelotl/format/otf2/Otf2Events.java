package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import org.ocelotl.format.TypeIds;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * Decodes the event files, one location after the other, into the sink. Each location runs its
 * own stack (Enter/Leave and collective begin/end nest); messages are matched across locations
 * per channel (sender, receiver, tag) in FIFO order — MPI's non-overtaking rule — which needs
 * the pending side of every channel ({@link PendingSides}: about 21 bytes per message in flight
 * between the files read so far, and 50 per channel holding one; nothing for a channel whose
 * messages all matched); past {@link SideSpill#IN_MEMORY} sides, those that wait for a location not
 * read yet go to disk until it is read ({@link SideSpill}). What stays unmatched at the end becomes
 * punctual events of its record kind.
 */
final class Otf2Events {
  private static final int COLLECTIVE_PENDING = -1;
  private static final int TYPE_INT64 = 8;
  private static final int TYPE_UINT64 = 4;
  private static final int TYPE_DOUBLE = 10;

  private final Otf2Definitions definitions;
  private final TraceSink sink;
  private final Map<Long, Integer> producerOfLocation;
  private final TypeIds types;
  private final Map<Long, Integer> regionTypes = new HashMap<>();
  private final Map<Long, int[]> metricTypes = new HashMap<>();
  private final int[] recordTypes = new int[256];
  private final PendingSides pending = new PendingSides();
  /** Where the sides that wait beyond memory go; null: all in memory (the Spark import's plan, unit tests). */
  private final SideSpill spill;
  /** The producers whose location has been read or is being read: a side for one of the others waits. */
  private final BitSet started = new BitSet();
  /** Whether the location read spills its waiting sides: from memory's filling to its end (see {@link SideSpill}). */
  private boolean spilling;
  /** By OTF2 collective operation: its state type, or -1 before its first collective. */
  private final int[] collectiveTypes = new int[256];
  private int linkType = -1;

  /** The location being read: its id mappings and clock correction. */
  private Otf2LocalDefinitions local = Otf2LocalDefinitions.NONE;

  private int[] stackTypes = new int[64];
  private double[] stackStarts = new double[64];
  private int depth;

  private double first = Double.POSITIVE_INFINITY;
  private double last = Double.NEGATIVE_INFINITY;
  private long bytes;
  private final Map<String, Long> anomalies = new TreeMap<>();
  private final Map<Integer, Long> unknownKinds = new TreeMap<>();

  /** A message channel, as the Spark import's plan names one ({@link #pendingApart}). */
  record Channel(int from, int to, long tag) {}

  /** The anomaly of a matched message whose receive comes before its send. */
  static final String RECEIVED_BEFORE_SENT =
      "message received before it was sent (clocks out of step): its link ends when it starts";
  /** The anomaly of a message side left without its other side at the end. */
  static final String UNMATCHED = "message without its matching send/receive (kept as an event)";

  /** Unmatched sides counted where the messages were matched apart ({@link #pendingApart}), not held here. */
  private long unmatchedApart;

  /**
   * Where the send or receive side of a message goes once its channel is known: matched here
   * ({@link #messageEnd}), or, when a location is decoded apart from the others (the Spark import,
   * {@link Otf2Split}), recorded with its place in the location and matched by channel elsewhere,
   * in the same order.
   */
  @FunctionalInterface
  interface MessageEnds {
    void end(int from, int to, long tag, boolean send, double time, int recordKind, long length) throws IOException;
  }

  private final MessageEnds messageEnds;

  Otf2Events(Otf2Definitions definitions, TraceSink sink, Map<Long, Integer> producerOfLocation) {
    this(definitions, sink, producerOfLocation, null, null);
  }

  /** {@code messageEnds} null: messages are matched by this reader, with {@code spill} (null: in memory). */
  Otf2Events(Otf2Definitions definitions, TraceSink sink, Map<Long, Integer> producerOfLocation,
      MessageEnds messageEnds, SideSpill spill) {
    this.definitions = definitions;
    this.spill = spill;
    this.sink = sink;
    this.types = new TypeIds(sink, false);
    this.producerOfLocation = producerOfLocation;
    this.messageEnds = messageEnds != null ? messageEnds : this::messageEnd;
    Arrays.fill(recordTypes, -1);
    Arrays.fill(collectiveTypes, -1);
  }

  /**
   * Reads one location's event file, its local ids and times translated by {@code local}; returns
   * the number of event records.
   */
  long readLocation(Otf2Input in, Otf2LocalDefinitions local, int producer, LongConsumer bytesRead)
      throws IOException {
    this.local = local;
    depth = 0;
    startLocation(producer);
    long count = 0;
    double time = 0;
    double locationLast = Double.NEGATIVE_INFINITY;
    while (true) {
      long recordAt = in.offset();
      try {
        int kind = in.u8();
        switch (kind) {
          case 0 -> { // end of chunk
            bytesRead.accept(bytes + in.offset());
            if (!in.nextChunk()) {
              throw in.error("events end without an end-of-file record (truncated archive?)");
            }
          }
          case 2 -> { // end of file
            closeUnfinished(producer, locationLast);
            endLocation(producer);
            bytes += in.offset();
            bytesRead.accept(bytes);
            return count;
          }
          case Otf2Records.TIMESTAMP -> {
            time = local.correct(in.u64Full());
            locationLast = Math.max(locationLast, time);
            first = Math.min(first, time);
            last = Math.max(last, time);
          }
          case Otf2Records.ATTRIBUTE_LIST -> in.seek(in.recordEnd());
          default -> {
            if (kind < Otf2Records.BUFFER_FLUSH) {
              throw in.error("expected an event record, found internal record kind " + kind,
                  recordAt);
            }
            decoders[kind].decode(kind, producer, time, in);
            count++;
          }
        }
      } catch (BufferUnderflowException e) {
        throw in.error("record runs past the end of the data (truncated archive?)", recordAt);
      } catch (IllegalArgumentException refused) {
        // The store writer's refusal (the limit on types, a record it cannot keep), at the record that sent it.
        throw in.error(refused.getMessage(), recordAt);
      }
    }
  }

  /**
   * Decodes one event record of a kind, its kind byte read. One per record kind through an array,
   * not a switch: the call site sees several classes, so C2 calls them rather than inlining every
   * kind's path, with the store writer's and the message matching's, into one method. That method
   * (7.4 KB of bytecode inlined) took the compiler's arenas to 35 MB committed, a third of the
   * import's peak memory (docs/benchmarks.md, "Import (CTF and OTF2): memory").
   */
  @FunctionalInterface
  private interface RecordDecoder {
    void decode(int kind, int producer, double time, Otf2Input in) throws IOException;
  }

  private final RecordDecoder[] decoders = decoders();

  private RecordDecoder[] decoders() {
    RecordDecoder[] byKind = new RecordDecoder[256];
    Arrays.fill(byKind, (RecordDecoder) this::other);
    byKind[Otf2Records.ENTER] = this::enter;
    byKind[Otf2Records.LEAVE] = this::leave;
    byKind[Otf2Records.MPI_COLLECTIVE_BEGIN] = this::collectiveBegin;
    byKind[Otf2Records.MPI_COLLECTIVE_END] = this::collectiveEnd;
    RecordDecoder message = this::message;
    byKind[Otf2Records.MPI_SEND] = message;
    byKind[Otf2Records.MPI_ISEND] = message;
    byKind[Otf2Records.MPI_RECV] = message;
    byKind[Otf2Records.MPI_IRECV] = message;
    byKind[Otf2Records.METRIC] = this::metric;
    return byKind;
  }

  private void enter(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    push(regionType(in, region(in.u32()), "ENTER"), time);
  }

  private void leave(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    leave(regionType(in, region(in.u32()), "LEAVE"), producer, time);
  }

  private void collectiveBegin(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    in.seek(in.recordEnd());
    push(COLLECTIVE_PENDING, time);
  }

  private void collectiveEnd(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    int end = in.recordEnd();
    int op = in.u8();
    in.seek(end);
    collectiveEnd(op, producer, time);
  }

  private void message(int kind, int producer, double time, Otf2Input in) throws IOException {
    int end = in.recordEnd();
    long peer = in.u32();
    long comm = local.map(Otf2LocalDefinitions.MAPPING_COMM, in.u32());
    long tag = in.u32();
    long length = in.u64(); // msgLength, bytes: the link's volume
    in.seek(end);
    message(kind, producer, peer, comm, tag, length, time);
  }

  private void metric(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    int end = in.recordEnd();
    metric(in, producer, time);
    in.seek(end);
  }

  private void other(int kind, int producer, double time, Otf2Input in) throws TraceFormatException {
    String name = Otf2Records.name(kind);
    if (Otf2Records.singleton(kind)) {
      in.u64();
    } else {
      // Unknown kinds (from a later OTF2) are assumed to carry a length, as every new kind so far.
      in.seek(in.recordEnd());
    }
    if (name == null) {
      unknownKinds.merge(kind, 1L, Long::sum);
      return;
    }
    if (recordTypes[kind] < 0) {
      recordTypes[kind] = type(name, EventCategory.EVENT, "OTF2 record");
    }
    sink.event(producer, recordTypes[kind], time);
  }

  private long region(long localId) {
    return local.map(Otf2LocalDefinitions.MAPPING_REGION, localId);
  }

  /** The state type of a region; a region the definitions lack is a broken archive, not a name to invent. */
  private int regionType(Otf2Input in, long region, String record) throws TraceFormatException {
    Integer type = regionTypes.get(region);
    if (type == null) {
      if (!definitions.regionNames.containsKey(region)) {
        throw in.error(record + " of region " + region + ": expected a region the definitions define");
      }
      type = type(definitions.regionName(region), EventCategory.STATE, "region");
      regionTypes.put(region, type);
    }
    return type;
  }

  int type(String name, EventCategory category, String group) {
    return types.id(name, category, group);
  }

  private void push(int type, double time) {
    if (depth == stackTypes.length) {
      // By hand: the state stack, pushed per enter event (OTF2 import, hot; fastutil 3.4x slower, decision 032).
      stackTypes = Arrays.copyOf(stackTypes, depth * 2);
      stackStarts = Arrays.copyOf(stackStarts, depth * 2);
    }
    stackTypes[depth] = type;
    stackStarts[depth] = time;
    depth++;
  }

  private void leave(int type, int producer, double time) {
    if (depth == 0) {
      anomaly("LEAVE without a matching ENTER (ignored)");
      return;
    }
    if (stackTypes[depth - 1] != type) {
      anomaly("LEAVE of another region than the innermost one entered (closed the innermost)");
    }
    pop(producer, time);
  }

  private void collectiveEnd(int op, int producer, double time) {
    if (depth == 0 || stackTypes[depth - 1] != COLLECTIVE_PENDING) {
      anomaly("MPI_COLLECTIVE_END without a matching MPI_COLLECTIVE_BEGIN (ignored)");
      return;
    }
    // Cached per operation: the name built per record was most of what a collective allocated.
    if (collectiveTypes[op] < 0) {
      collectiveTypes[op] = type("MPI_" + Otf2Records.collectiveName(op), EventCategory.STATE, "MPI collective");
    }
    stackTypes[depth - 1] = collectiveTypes[op];
    pop(producer, time);
  }

  private void pop(int producer, double time) {
    depth--;
    int type = stackTypes[depth];
    if (type == COLLECTIVE_PENDING) {
      type = type("MPI_COLLECTIVE (unfinished)", EventCategory.STATE, "MPI collective");
    }
    // A state inside a collective still open has no type to subtract from yet (the collective's end
    // names it): it counts in both, as in inclusive time.
    int outer = depth == 0 || stackTypes[depth - 1] == COLLECTIVE_PENDING ? -1 : stackTypes[depth - 1];
    sink.state(producer, type, stackStarts[depth], time, depth, outer);
  }

  private void closeUnfinished(int producer, double time) {
    if (depth > 0) {
      anomaly("state still open at the end of its location (closed at its last timestamp)");
      while (depth > 0) {
        pop(producer, time);
      }
    }
  }

  private void message(int kind, int producer, long peerRank, long comm, long tag, long length, double time)
      throws IOException {
    boolean send = isSend(kind);
    long peerLocation = definitions.locationOfRank(comm, peerRank);
    Integer peer = peerLocation == -1 ? null : producerOfLocation.get(peerLocation);
    if (peer == null) {
      anomaly("message whose peer rank has no location in the definitions (kept as an event)");
      sink.event(producer, recordType(kind), time);
      return;
    }
    messageEnds.end(send ? producer : peer, send ? peer : producer, tag, send, time, kind, length);
  }

  static boolean isSend(int kind) {
    return kind == Otf2Records.MPI_SEND || kind == Otf2Records.MPI_ISEND;
  }

  /** The location {@code producer} is about to be read. */
  void startLocation(int producer) throws IOException {
    started.set(producer);
    spilling = false;
    if (spill != null) {
      spill.startReading(producer);
    }
  }

  /** The location {@code producer} has been read. */
  void endLocation(int producer) throws IOException {
    if (spill != null) {
      spill.endWriting();
      spill.endReading(producer, pending);
    }
  }

  /**
   * One side of a message on the channel (from, to, tag), met while its location is read: matched
   * with the oldest pending other side, or kept (on disk when it waits for a location not read
   * yet and memory is full).
   */
  void messageEnd(int from, int to, long tag, boolean send, double time, int recordKind, long length)
      throws IOException {
    int reader = send ? from : to;
    int peer = send ? to : from;
    boolean apart = spill != null && peer != reader;
    if (apart && !started.get(peer) && (spilling || spill.full(pending.sides()))) {
      spilling = true;
      spill.write(peer, reader, tag, time, recordKind, length);
      return;
    }
    int channel = pending.find(from, to, tag);
    if (channel >= 0 && pending.sends(channel) != send) {
      double other = pending.oldestTime(channel);
      long otherLength = pending.oldestLength(channel);
      pending.removeOldest(channel);
      link(from, to, send, time, length, other, otherLength);
    } else if (channel < 0 && apart && spill.take(reader, peer, tag, !send, pending)) {
      link(from, to, send, time, length, spill.foundTime, spill.foundLength);
    } else {
      pending.add(from, to, tag, send, time, recordKind, length);
    }
  }

  /** The link of a side met now and its other side, met before ({@code otherTime}, {@code otherLength}). */
  private void link(int from, int to, boolean send, double time, long length, double otherTime, long otherLength) {
    // The send's length: the message as it left (a receive may record another size).
    double volume = send ? length : otherLength;
    double sent = send ? time : otherTime;
    double received = send ? otherTime : time;
    if (received < sent) {
      anomaly(RECEIVED_BEFORE_SENT);
    }
    sink.link(linkType(), from, to, sent, linkEnd(sent, received), volume);
  }

  /**
   * Where a matched message's link ends: at its receive, or, when clocks are out of step (skew the
   * clock offsets did not correct) and the receive comes first, where it starts — the message is
   * kept, with its bytes at the time it left, rather than the trace refused for a link that runs
   * backwards ({@link #RECEIVED_BEFORE_SENT} counts them).
   */
  static double linkEnd(double sent, double received) {
    return received < sent ? sent : received; // not Math.max, which would turn a received -0.0 into 0.0
  }

  /** The link type, declared when the first message is matched. */
  int linkType() {
    if (linkType < 0) {
      linkType = type("MPI message", EventCategory.LINK, "MPI point-to-point");
    }
    return linkType;
  }

  /**
   * A channel whose messages were matched apart ({@link Otf2Split}): it joins the channels with
   * sides left ({@link #finish} visits them in the order of their keys, whenever they were met), with
   * the record kinds of its unmatched sides in the order they were left
   * ({@code kinds}, each kind once: what {@link #finish} types) and their count ({@code unmatched}),
   * so that {@link #finish} declares their types, and counts them, as the sequential read does.
   * Their events are written where they were matched, not here.
   */
  void pendingApart(Channel channel, boolean sends, List<Integer> kinds, long unmatched) {
    for (int kind : kinds) {
      pending.add(channel.from(), channel.to(), channel.tag(), sends, 0, kind, 0);
    }
    unmatchedApart += unmatched - kinds.size();
  }

  private int recordType(int kind) {
    if (recordTypes[kind] < 0) {
      recordTypes[kind] = type(Otf2Records.name(kind), EventCategory.EVENT, "OTF2 record");
    }
    return recordTypes[kind];
  }

  /** Layout: metric, count, then each value as its type byte and its bits (a compressed uint64). */
  private void metric(Otf2Input in, int producer, double time) throws TraceFormatException {
    long metric = local.map(Otf2LocalDefinitions.MAPPING_METRIC, in.u32());
    int count = in.u8();
    int[] variables = metricVariables(metric, count);
    if (variables != null && variables.length != count) {
      throw in.error("METRIC of metric " + metric + " with " + count + " values: expected " + variables.length
          + ", as its definition and its first record");
    }
    for (int i = 0; i < count; i++) {
      int valueType = in.u8();
      long raw = in.u64();
      double value = switch (valueType) {
        case TYPE_DOUBLE -> Double.longBitsToDouble(raw);
        case TYPE_UINT64 -> Otf2LocalDefinitions.unsigned(raw);
        default -> raw; // INT64 and anything else stored as integer bits
      };
      if (variables == null) {
        anomaly("METRIC of an undefined metric (ignored)");
      } else {
        sink.variable(producer, variables[i], time, value);
      }
    }
  }

  private int[] metricVariables(long metric, int count) {
    int[] variables = metricTypes.get(metric);
    if (variables == null) {
      String[] names = definitions.metricMembers(metric);
      if (names == null || names.length != count) {
        return null;
      }
      variables = new int[count];
      for (int i = 0; i < count; i++) {
        variables[i] = type(names[i], EventCategory.VARIABLE, "metric");
      }
      metricTypes.put(metric, variables);
    }
    return variables;
  }

  /** Unmatched messages become punctual events; then the warnings. */
  void finish() {
    long unmatched = unmatchedApart + pending.sides();
    pending.forEach((from, to, tag, sends, time, kind) -> sink.event(sends ? from : to, recordType(kind), time));
    if (unmatched > 0) {
      anomalies.merge(UNMATCHED, unmatched, Long::sum);
    }
    anomalies.forEach((what, count) -> sink.warning(count + " × " + what));
    unknownKinds.forEach((kind, count) ->
        sink.warning(count + " × event record of unknown kind " + kind + " skipped"));
  }

  /**
   * What a location decoded apart brings besides its records ({@link Otf2Split}): its time bounds
   * and the anomalies and unknown record kinds it counted.
   */
  void absorb(double first, double last, Map<String, Long> anomalies, Map<Integer, Long> unknownKinds) {
    this.first = Math.min(this.first, first);
    this.last = Math.max(this.last, last);
    anomalies.forEach((what, count) -> this.anomalies.merge(what, count, Long::sum));
    unknownKinds.forEach((kind, count) -> this.unknownKinds.merge(kind, count, Long::sum));
  }

  Map<String, Long> anomalies() {
    return anomalies;
  }

  Map<Integer, Long> unknownKinds() {
    return unknownKinds;
  }

  private void anomaly(String what) {
    anomalies.merge(what, 1L, Long::sum);
  }

  double first() {
    return first;
  }

  double last() {
    return last;
  }
}
