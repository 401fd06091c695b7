package org.ocelotl.format.perfetto;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.ocelotl.format.TypeIds;
import org.ocelotl.format.perfetto.proto.TracePacket;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads a Perfetto trace ({@code .perfetto-trace}, {@code .pftrace}: a protobuf {@code Trace}),
 * packet by packet through one buffer, each packet decoded by the classes protoc generates from
 * {@code src/main/proto/perfetto_trace.proto}. Two passes: the first learns the tracks and the
 * processes and threads (a descriptor may follow the first event on its track), the second
 * writes the records:
 * <ul>
 *   <li>track events: slices → states typed by name (group: the categories), nested on their
 *       track; instants → punctual events; counters → variables named by their track;
 *   <li>ftrace {@code sched_switch} (plain or compact) → on each CPU a state typed by the task
 *       running, on each thread a state {@code Running};
 * </ul>
 * producers: root › processes › threads (and tracks of their own), root › {@code CPUs} › CPUs.
 * Times are nanoseconds of the trace clock (boot time); a sequence's own clocks (incremental
 * ones included) are converted through its clock snapshots. docs/formats.md has the details.
 */
public final class PerfettoReader implements TraceReader {
  /** Whether the file's first bytes look like a Perfetto trace's first packet. */
  public static boolean sniff(byte[] head) {
    return PacketInput.sniff(head);
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    Descriptors descriptors;
    try (PacketInput input = new PacketInput(file, bytes -> { })) {
      descriptors = Descriptors.collect(input);
    }
    try (PacketInput input = new PacketInput(file, options.bytesRead())) {
      new Mapping(sink, descriptors, file.getFileName().toString()).run(input);
    }
  }

  /** The second pass: every packet, through its sequence's state, into the sink. */
  private static final class Mapping {
    private final TraceSink sink;
    private final Warnings warnings = new Warnings();
    private final Bounds bounds = new Bounds();
    private final TrackEvents trackEvents;
    private final Scheduling scheduling;
    private final Map<Integer, Sequence> sequences = new HashMap<>();
    private int lastSequenceId = -1;
    private Sequence lastSequence;
    /** Kernel clocks other than boot time that packets were stamped in, taken as boot time. */
    private final Map<Integer, Long> otherClocks = new HashMap<>();

    Mapping(TraceSink sink, Descriptors descriptors, String traceName) {
      this.sink = sink;
      TypeIds types = new TypeIds(sink, true);
      Producers producers = new Producers(sink, descriptors, traceName);
      trackEvents = new TrackEvents(sink, types, descriptors, producers, warnings, bounds);
      scheduling = new Scheduling(sink, types, producers, warnings, bounds);
    }

    void run(PacketInput input) throws IOException {
      while (input.next()) {
        TracePacket packet = parse(input, input.buffer(), input.packetStart(), input.packetLength(), false);
        if (packet.getDataCase() == TracePacket.DataCase.COMPRESSED_PACKETS) {
          // Perfetto compresses packets once, never packets that hold compressed packets.
          CompressedPackets.forEach(input, packet.getCompressedPackets(),
              (bytes, start, length) -> packet(parse(input, bytes, start, length, true)));
        } else {
          packet(packet);
        }
      }
      double end = bounds.empty() ? 0 : bounds.last();
      trackEvents.finish(end);
      scheduling.finish(end);
      otherClocks.forEach((clock, count) -> warnings.add(
          "packets stamped in the kernel's clock " + clock + ", taken as boot time (no conversion)", count));
      warnings.report(sink);
      sink.end(bounds.empty() ? 0 : bounds.first(), end, "ns");
    }

    private static TracePacket parse(PacketInput input, byte[] bytes, int start, int length, boolean inner)
        throws IOException {
      try {
        return TracePacket.parser().parseFrom(bytes, start, length);
      } catch (InvalidProtocolBufferException e) {
        throw Descriptors.malformed(input, length, inner, e);
      }
    }

    private void packet(TracePacket packet) {
      Sequence sequence = sequence(packet.getTrustedPacketSequenceId());
      if ((packet.getSequenceFlags() & 1) != 0 || packet.getIncrementalStateCleared()) {
        sequence.clear();
      }
      if (packet.hasTracePacketDefaults()) {
        sequence.defaults(packet.getTracePacketDefaults());
      }
      if (packet.hasInternedData()) {
        sequence.intern(packet.getInternedData());
      }
      // Every stamped packet moves its clock: an incremental clock's next delta counts from it.
      double time = packet.hasTimestamp() ? sequence.time(packet) : Double.NaN;
      switch (packet.getDataCase()) {
        case TRACK_EVENT -> {
          if (Double.isNaN(time)) {
            warnings.add("track events without a timestamp in a known clock (ignored)");
          } else {
            noteClock(sequence.clock(packet));
            trackEvents.event(sequence, packet.getTrackEvent(), time);
          }
        }
        case FTRACE_EVENTS -> scheduling.bundle(packet.getFtraceEvents());
        case CLOCK_SNAPSHOT -> sequence.clocks(packet.getClockSnapshot());
        case COMPRESSED_PACKETS -> warnings.add("compressed packets inside compressed packets (ignored)");
        default -> { }
      }
    }

    private void noteClock(int clock) {
      if (clock != 0 && clock != 6 && clock < Sequence.FIRST_SEQUENCE_CLOCK) {
        otherClocks.merge(clock, 1L, Long::sum);
      }
    }

    private Sequence sequence(int id) {
      if (id != lastSequenceId || lastSequence == null) {
        lastSequence = sequences.computeIfAbsent(id, key -> new Sequence());
        lastSequenceId = id;
      }
      return lastSequence;
    }
  }
}
