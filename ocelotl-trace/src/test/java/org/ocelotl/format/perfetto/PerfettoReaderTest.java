package org.ocelotl.format.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.format.perfetto.proto.CounterDescriptor;
import org.ocelotl.format.perfetto.proto.ThreadDescriptor;
import org.ocelotl.format.perfetto.proto.TracePacket;
import org.ocelotl.format.perfetto.proto.TrackDescriptor;
import org.ocelotl.format.perfetto.proto.TrackEvent;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.MemoryTrace.Event;
import org.ocelotl.trace.MemoryTrace.Producer;
import org.ocelotl.trace.MemoryTrace.State;
import org.ocelotl.trace.MemoryTrace.Type;
import org.ocelotl.trace.MemoryTrace.Variable;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.workspace.Formats;

class PerfettoReaderTest {
  @TempDir
  Path dir;

  private MemoryTrace read(Path file) throws IOException {
    MemoryTrace trace = new MemoryTrace();
    new PerfettoReader().read(file, trace, ReadOptions.STRICT);
    return trace;
  }

  /** The example drawn in {@link PerfettoTraces#example()}, every record as worked out by hand. */
  @Test
  void readsTheDrawnExample() throws IOException {
    MemoryTrace trace = read(Files.write(dir.resolve("example.pftrace"), PerfettoTraces.example()));
    assertEquals(List.of(
        new Producer(0, "example.pftrace", "trace", -1, 0),
        new Producer(1, "game (100)", "process", 0, 1_035_000),
        new Producer(2, "main (101)", "thread", 1, 1_035_000),
        new Producer(3, "counters", "counters", 1, 1_050_000),
        new Producer(4, "worker (102)", "thread", 1, 1_060_000),
        new Producer(5, "requests", "track", 1, 1_090_000),
        new Producer(6, "track 99", "track", 0, 1_070_000),
        new Producer(7, "CPUs", "cpus", 0, 1_000_500),
        new Producer(8, "cpu 0", "cpu", 7, 1_000_500),
        new Producer(9, "/bin/server (200)", "process", 0, 1_040_500),
        new Producer(10, "srv-io (201)", "thread", 9, 1_040_500),
        new Producer(11, "cpu 1", "cpu", 7, 1_010_000),
        new Producer(12, "threads of unknown processes", "process", 0, 1_015_000),
        new Producer(13, "kworker/1:0 (300)", "thread", 12, 1_015_000)), trace.producers);
    assertEquals(List.of(
        new Type(0, "frame", EventCategory.STATE, "gfx", null),
        new Type(1, "draw", EventCategory.STATE, "gfx", null),
        new Type(2, "vsync", EventCategory.EVENT, "gfx", null),
        new Type(3, "fps", EventCategory.VARIABLE, "counter", null),
        new Type(4, "compute", EventCategory.STATE, "cpu,work", null),
        new Type(5, "GET /", EventCategory.STATE, null, null),
        new Type(6, "orphan", EventCategory.EVENT, null, null),
        new Type(7, "sample", EventCategory.EVENT, null, null),
        new Type(8, "queue", EventCategory.VARIABLE, "counter", null),
        new Type(9, "main", EventCategory.STATE, "task on CPU", null),
        new Type(10, "srv-io", EventCategory.STATE, "task on CPU", null),
        new Type(11, "Running", EventCategory.STATE, "thread state", null),
        new Type(12, "worker", EventCategory.STATE, "task on CPU", null),
        new Type(13, "kworker/1:0", EventCategory.STATE, "task on CPU", null)), trace.types);
    assertEquals(List.of(
        new State(2, 1, 1_015_000, 1_035_000, 1),
        new State(2, 0, 1_010_000, 1_050_000, 0),
        new State(4, 4, 1_020_000, 1_060_000, 0),
        new State(5, 5, 1_030_000, 1_090_000, 0),
        new State(8, 9, 1_000_500, 1_040_500, 0),
        new State(2, 11, 1_000_500, 1_040_500, 0),
        new State(8, 10, 1_040_500, 1_045_000, 0),
        new State(10, 11, 1_040_500, 1_045_000, 0),
        new State(11, 12, 1_010_000, 1_015_000, 0),
        new State(4, 11, 1_010_000, 1_015_000, 0),
        new State(11, 13, 1_015_000, 1_045_000, 0),
        new State(13, 11, 1_015_000, 1_045_000, 0),
        new State(2, 0, 1_110_000, 1_110_000, 0),
        new State(11, 12, 1_065_000, 1_110_000, 0),
        new State(4, 11, 1_065_000, 1_110_000, 0)), trace.states);
    assertEquals(List.of(new Event(2, 2, 1_040_000), new Event(6, 6, 1_070_000), new Event(4, 7, 1_080_000)),
        trace.events);
    assertEquals(List.of(
        new Variable(3, 3, 1_050_000, 59.5),
        new Variable(3, 3, 1_100_000, 60),
        new Variable(4, 8, 1_080_000, 14),
        new Variable(4, 8, 1_085_000, 20)), trace.variables);
    assertEquals(List.of(
        "1 × tracks without a descriptor (a producer of their own under the root)",
        "1 × ftrace events other than sched_switch (ignored)",
        "1 × slices still open at the end of the trace (closed there)"), trace.warnings);
    assertEquals(1_000_500, trace.start);
    assertEquals(1_110_000, trace.end);
    assertEquals("ns", trace.timeUnit);
  }

  /**
   * The example as a file kept beside this class (the CLI's tests and the fuzz target's seed read
   * it): the generator must still write it byte for byte, so a change to either is seen.
   */
  @Test
  void theKeptExampleIsWhatTheGeneratorWrites() throws IOException {
    try (var kept = PerfettoReaderTest.class.getResourceAsStream("example.pftrace")) {
      assertEquals(Arrays.toString(kept.readAllBytes()), Arrays.toString(PerfettoTraces.example()));
    }
  }

  /**
   * A large seeded trace against a decoding of the same bytes that shares nothing with the reader:
   * protobuf's schema-less {@link UnknownFieldSet}, field numbers from Perfetto's schema, a replay
   * of the incremental µs clocks. Slices per name with their total duration, instants, counter
   * values and their sum, switches per CPU.
   */
  @Test
  void largeTraceEqualsAnIndependentDecoding() throws IOException {
    Path file = dir.resolve("large.pftrace");
    try (OutputStream out = Files.newOutputStream(file)) {
      PerfettoTraces.large(out, 50_000, 17);
    }
    MemoryTrace trace = read(file);
    Independent expected = Independent.decode(Files.readAllBytes(file));

    Map<String, long[]> slices = new TreeMap<>();
    long running = 0;
    Map<String, Long> perCpu = new TreeMap<>();
    for (State state : trace.states) {
      Type type = trace.types.get(state.type());
      String producer = trace.producers.get(state.producer()).name();
      if ("app".equals(type.group())) {
        long[] sum = slices.computeIfAbsent(type.name(), name -> new long[2]);
        sum[0]++;
        sum[1] += (long) (state.end() - state.start());
      } else if (type.name().equals("Running")) {
        running++;
      } else {
        perCpu.merge(producer, 1L, Long::sum);
      }
    }
    assertEquals(expected.slices.keySet(), slices.keySet());
    for (String name : expected.slices.keySet()) {
      assertArrayEquals(expected.slices.get(name), slices.get(name), name);
    }
    assertEquals(expected.instants, trace.events.size());
    assertEquals(expected.counterValues, trace.variables.size());
    assertEquals(expected.counterSum, trace.variables.stream().mapToDouble(Variable::value).sum());
    assertEquals(expected.switchesPerCpu, perCpu);
    assertEquals(expected.switchesPerCpu.values().stream().mapToLong(Long::longValue).sum(), running);
    assertEquals(List.of(), trace.warnings);
    assertTrue(trace.states.size() + trace.events.size() + trace.variables.size() >= 50_000);
  }

  private static void assertArrayEquals(long[] expected, long[] actual, String what) {
    assertEquals(Arrays.toString(expected), Arrays.toString(actual), what);
  }

  /** What a schema-less walk of the bytes finds (numbers are Perfetto's field numbers). */
  private static final class Independent {
    final Map<String, long[]> slices = new TreeMap<>();
    long instants;
    long counterValues;
    double counterSum;
    final Map<String, Long> switchesPerCpu = new TreeMap<>();

    static Independent decode(byte[] bytes) throws IOException {
      Independent found = new Independent();
      Map<Long, Long> clocks = new HashMap<>();
      Map<Long, List<Long>> open = new HashMap<>();
      Map<Long, Map<Long, String>> names = new HashMap<>();
      for (ByteString packetBytes : UnknownFieldSet.parseFrom(bytes).getField(1).getLengthDelimitedList()) {
        UnknownFieldSet packet = UnknownFieldSet.parseFrom(packetBytes);
        long sequence = first(packet.getField(10).getVarintList(), 0);
        for (ByteString snapshot : packet.getField(6).getLengthDelimitedList()) {
          // boot time + 0 µs of clock 64, the generator's snapshot
          clocks.put(sequence, first(UnknownFieldSet.parseFrom(snapshot).getField(1).getLengthDelimitedList().stream()
              .map(Independent::parse).filter(c -> first(c.getField(1).getVarintList(), 0) == 6)
              .findFirst().orElseThrow().getField(2).getVarintList(), 0));
        }
        for (ByteString interned : packet.getField(12).getLengthDelimitedList()) {
          for (ByteString name : parse(interned).getField(2).getLengthDelimitedList()) {
            UnknownFieldSet entry = parse(name);
            names.computeIfAbsent(sequence, s -> new HashMap<>()).put(first(entry.getField(1).getVarintList(), 0),
                entry.getField(2).getLengthDelimitedList().get(0).toStringUtf8());
          }
        }
        for (ByteString eventBytes : packet.getField(11).getLengthDelimitedList()) {
          long time = clocks.merge(sequence, 1000 * first(packet.getField(8).getVarintList(), 0), Long::sum);
          UnknownFieldSet event = parse(eventBytes);
          long type = first(event.getField(9).getVarintList(), 0);
          if (type == 1) {
            String name = names.get(sequence).get(first(event.getField(10).getVarintList(), 0));
            open.computeIfAbsent(sequence, s -> new ArrayList<>()).add(time);
            found.pending(sequence, name);
          } else if (type == 2) {
            List<Long> stack = open.get(sequence);
            long begin = stack.remove(stack.size() - 1);
            long[] sum = found.slices.computeIfAbsent(found.popName(sequence), name -> new long[2]);
            sum[0]++;
            sum[1] += time - begin;
          } else if (type == 3) {
            found.instants++;
          } else if (type == 4) {
            found.counterValues++;
            found.counterSum += first(event.getField(30).getVarintList(), 0);
          }
        }
        for (ByteString bundleBytes : packet.getField(1).getLengthDelimitedList()) {
          UnknownFieldSet bundle = parse(bundleBytes);
          String cpu = "cpu " + first(bundle.getField(1).getVarintList(), 0);
          for (ByteString compact : bundle.getField(4).getLengthDelimitedList()) {
            CodedInputStream timestamps = parse(compact).getField(1).getLengthDelimitedList().get(0).newCodedInput();
            while (!timestamps.isAtEnd()) {
              timestamps.readUInt64();
              found.switchesPerCpu.merge(cpu, 1L, Long::sum);
            }
          }
        }
      }
      return found;
    }

    private final Map<Long, List<String>> openNames = new HashMap<>();

    private void pending(long sequence, String name) {
      openNames.computeIfAbsent(sequence, s -> new ArrayList<>()).add(name);
    }

    private String popName(long sequence) {
      List<String> stack = openNames.get(sequence);
      return stack.remove(stack.size() - 1);
    }

    private static UnknownFieldSet parse(ByteString bytes) {
      try {
        return UnknownFieldSet.parseFrom(bytes);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }

    private static long first(List<Long> values, long otherwise) {
      return values.isEmpty() ? otherwise : values.get(0);
    }
  }

  /** Offsets of the packets of a trace (where each packet's tag is). */
  private static List<Integer> packetOffsets(byte[] trace) throws IOException {
    List<Integer> offsets = new ArrayList<>();
    CodedInputStream in = CodedInputStream.newInstance(trace);
    while (!in.isAtEnd()) {
      offsets.add(in.getTotalBytesRead());
      in.readTag();
      in.skipRawBytes(in.readRawVarint32());
    }
    return offsets;
  }

  @Test
  void aCutTraceIsRefusedAtTheCutPacket() throws IOException {
    byte[] whole = PerfettoTraces.example();
    int fifth = packetOffsets(whole).get(4);
    int sixth = packetOffsets(whole).get(5);
    Path file = Files.write(dir.resolve("cut.pftrace"), Arrays.copyOf(whole, sixth - 3));
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
    int length = sixth - fifth - 2;
    assertEquals(file + "@" + fifth + ": field of " + length + " bytes announced, only " + (length - 3)
        + " remain in the file (the trace is cut, or corrupt)", e.getMessage());
  }

  @Test
  void aFileCutInALengthIsRefused() throws IOException {
    byte[] whole = PerfettoTraces.example();
    int second = packetOffsets(whole).get(1);
    // A packet tag, then the first byte of a two-byte length.
    byte[] cut = Arrays.copyOf(whole, second + 2);
    cut[second + 1] = (byte) 0x80;
    Path file = Files.write(dir.resolve("cut-length.pftrace"), cut);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
    assertEquals(file + "@" + (second + 1) + ": a length cut by the end of the file", e.getMessage());
  }

  /** A track event whose name claims more bytes than its packet holds: protobuf's own check, at the packet. */
  @Test
  void anInnerLengthBeyondItsPacketIsRefused() throws IOException {
    byte[] whole = PerfettoTraces.example();
    List<Integer> offsets = packetOffsets(whole);
    // The packet with the instant "vsync": its name's length byte, 5, becomes 100.
    int packet = offsets.get(7);
    int name = indexOf(whole, "vsync".getBytes(StandardCharsets.US_ASCII), packet) - 1;
    assertEquals(5, whole[name]);
    whole[name] = 100;
    Path file = Files.write(dir.resolve("bad-length.pftrace"), whole);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
    assertEquals(file + "@" + packet + ": packet of " + (offsets.get(8) - packet - 2)
        + " bytes that protobuf cannot decode: While parsing a protocol message, the input ended unexpectedly in the"
        + " middle of a field.  This could mean either that the input has been truncated or that an embedded message"
        + " misreported its own length.", e.getMessage());
  }

  @Test
  void aGroupAtTheTopLevelIsRefused() throws IOException {
    Path file = Files.write(dir.resolve("group.pftrace"), new byte[] {0x0B, 0x0C});
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
    assertEquals(file + "@0: wire type 3 of field 1 where a packet (field 1, wire type 2) or a skippable field was"
        + " expected: not a Perfetto trace, or a corrupt one", e.getMessage());
  }

  /** {@code ocelotl.maxPacketBytes} set to the example's largest packet: it reads; one byte less, it is refused there. */
  @Test
  void packetsLargerThanTheLimitAreRefused() throws IOException {
    byte[] example = PerfettoTraces.example();
    List<Integer> offsets = packetOffsets(example);
    int largest = 0;
    int at = 0;
    for (int i = 0; i < offsets.size(); i++) {
      int length = CodedInputStream.newInstance(example, offsets.get(i) + 1, 5).readRawVarint32();
      if (length > largest) {
        largest = length;
        at = offsets.get(i);
      }
    }
    Path file = Files.write(dir.resolve("example.pftrace"), example);
    String old = System.getProperty(Limit.PACKET_BYTES.property());
    try {
      System.setProperty(Limit.PACKET_BYTES.property(), Integer.toString(largest));
      assertEquals(15, read(file).states.size());
      System.setProperty(Limit.PACKET_BYTES.property(), Integer.toString(largest - 1));
      TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
      assertEquals(file + "@" + at + ": packet of " + largest + " bytes: " + Limit.PACKET_BYTES.exceeded(largest - 1),
          e.getMessage());
    } finally {
      if (old == null) {
        System.clearProperty(Limit.PACKET_BYTES.property());
      } else {
        System.setProperty(Limit.PACKET_BYTES.property(), old);
      }
    }
  }

  /**
   * An incremental counter (µs, × 1000) whose sequence clears its incremental state every other
   * packet: the value after a clearing is absolute again, as Perfetto's trace processor reads it.
   */
  @Test
  void incrementalCountersStartAgainWhenTheirSequenceIsCleared() throws IOException {
    List<TracePacket> packets = new ArrayList<>();
    packets.add(TracePacket.newBuilder().setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(1)
        .setThread(ThreadDescriptor.newBuilder().setPid(5).setTid(5).setThreadName("t"))).build());
    packets.add(TracePacket.newBuilder().setTrackDescriptor(TrackDescriptor.newBuilder().setUuid(2).setParentUuid(1)
        .setName("cpu time").setCounter(CounterDescriptor.newBuilder().setUnitMultiplier(1000).setIsIncremental(true)))
        .build());
    long[] times = {1000, 1100, 2000, 2100};
    long[] deltas = {1000, 10, 2000, 10};
    for (int i = 0; i < times.length; i++) {
      packets.add(TracePacket.newBuilder().setTrustedPacketSequenceId(1).setTimestamp(times[i])
          .setIncrementalStateCleared(i % 2 == 0)
          .setTrackEvent(TrackEvent.newBuilder().setType(TrackEvent.Type.TYPE_COUNTER).setTrackUuid(2)
              .setCounterValue(deltas[i])).build());
    }
    MemoryTrace trace = read(Files.write(dir.resolve("incremental.pftrace"), PerfettoTraces.trace(packets)));
    assertEquals(List.of(new Producer(0, "incremental.pftrace", "trace", -1, 0),
        new Producer(1, "process 5", "process", 0, 1000), new Producer(2, "t (5)", "thread", 1, 1000)), trace.producers);
    assertEquals(List.of(new Variable(2, 0, 1000, 1_000_000), new Variable(2, 0, 1100, 1_010_000),
        new Variable(2, 0, 2000, 2_000_000), new Variable(2, 0, 2100, 2_010_000)), trace.variables);
  }

  /** The example's packets deflated into two compressed packets read to the same records. */
  @Test
  void compressedPacketsReadAsTheirPackets() throws IOException {
    byte[] example = PerfettoTraces.example();
    int half = packetOffsets(example).get(12);
    byte[] compressed = PerfettoTraces.trace(List.of(
        TracePacket.newBuilder().setCompressedPackets(ByteString.copyFrom(deflate(Arrays.copyOfRange(example, 0, half)))).build(),
        TracePacket.newBuilder().setCompressedPackets(ByteString.copyFrom(deflate(Arrays.copyOfRange(example, half, example.length)))).build()));
    Files.createDirectories(dir.resolve("plain"));
    Files.createDirectories(dir.resolve("compressed"));
    MemoryTrace plain = read(Files.write(dir.resolve("plain/t.pftrace"), example));
    MemoryTrace packed = read(Files.write(dir.resolve("compressed/t.pftrace"), compressed));
    assertEquals(plain.producers, packed.producers);
    assertEquals(plain.types, packed.types);
    assertEquals(plain.states, packed.states);
    assertEquals(plain.events, packed.events);
    assertEquals(plain.variables, packed.variables);
    assertEquals(plain.warnings, packed.warnings);
    assertEquals(List.of(plain.start, plain.end), List.of(packed.start, packed.end));
  }

  @Test
  void compressedPacketsThatDoNotInflateAreRefused() throws IOException {
    byte[] example = PerfettoTraces.example();
    byte[] bad = PerfettoTraces.trace(List.of(TracePacket.newBuilder()
        .setCompressedPackets(ByteString.copyFromUtf8("not zlib")).build()));
    Path file = Files.write(dir.resolve("bad-zlib.pftrace"), bad);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
    assertEquals(file + "@0: compressed packets: they do not inflate: incorrect header check", e.getMessage());
    byte[] deflated = deflate(example);
    byte[] cut = PerfettoTraces.trace(List.of(TracePacket.newBuilder()
        .setCompressedPackets(ByteString.copyFrom(deflated, 0, deflated.length / 2)).build()));
    Path cutFile = Files.write(dir.resolve("cut-zlib.pftrace"), cut);
    e = assertThrows(TraceFormatException.class, () -> read(cutFile));
    assertEquals(cutFile + "@0: compressed packets: they end before their zlib stream does (cut or corrupt)",
        e.getMessage());
  }

  /**
   * Compressed packets within the packet limit each, but many: the file's allowance (100× its
   * size, at least 64 MiB) is for all of them together. 15 packets of 4 MiB inflated (60 MiB) read;
   * a 16th is refused at its byte.
   */
  @Test
  void compressedPacketsBeyondTheFilesAllowanceAreRefused() throws IOException {
    int filler = 4 << 20;
    java.io.ByteArrayOutputStream inner = new java.io.ByteArrayOutputStream();
    com.google.protobuf.CodedOutputStream framing = com.google.protobuf.CodedOutputStream.newInstance(inner);
    // One packet holding an unknown field of 4 MiB of 'a': skipped by the reader, inflated all the same.
    int field = com.google.protobuf.CodedOutputStream.computeByteArraySize(999, new byte[filler]);
    framing.writeTag(1, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
    framing.writeUInt32NoTag(field);
    byte[] a = new byte[filler];
    Arrays.fill(a, (byte) 'a');
    framing.writeByteArray(999, a);
    framing.flush();
    TracePacket big = TracePacket.newBuilder().setCompressedPackets(ByteString.copyFrom(deflate(inner.toByteArray()))).build();
    for (int count : new int[] {15, 16}) {
      List<TracePacket> packets = new java.util.ArrayList<>(java.util.Collections.nCopies(count, big));
      byte[] bytes = PerfettoTraces.trace(packets);
      Path file = Files.write(dir.resolve("inflating-" + count + ".pftrace"), bytes);
      if (count == 15) {
        assertEquals(List.of(), read(file).states);
        continue;
      }
      TraceFormatException e = assertThrows(TraceFormatException.class, () -> read(file));
      assertEquals(file + "@" + packetOffsets(bytes).get(15) + ": compressed packets: the file's compressed packets "
          + "inflate to more than 67108864 bytes, 100× its " + bytes.length + " bytes (at least 64 MiB): not a trace; "
          + "if it is one, raise the limit with OCELOTL_JAVA_OPTS=-Docelotl.perfetto.maxRatio=N", e.getMessage());
    }
  }

  private static byte[] deflate(byte[] bytes) {
    Deflater deflater = new Deflater();
    deflater.setInput(bytes);
    deflater.finish();
    byte[] out = new byte[bytes.length + 64];
    int size = deflater.deflate(out);
    assertTrue(deflater.finished());
    deflater.end();
    return Arrays.copyOf(out, size);
  }

  private static int indexOf(byte[] bytes, byte[] part, int from) {
    outer:
    for (int i = from; i <= bytes.length - part.length; i++) {
      for (int j = 0; j < part.length; j++) {
        if (bytes[i + j] != part[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void recognisedFromItsFirstBytesAndOnlyThen() throws IOException {
    Path trace = Files.write(dir.resolve("example.pftrace"), PerfettoTraces.example());
    assertEquals("perfetto", Formats.standard().detect(trace).name());
    assertTrue(PerfettoReader.sniff(Arrays.copyOf(PerfettoTraces.example(), 40)));
    assertFalse(PerfettoReader.sniff("\n%EventDef PajeDefineContainerType 1\n% Alias string\n%EndEventDef\n"
        .getBytes(StandardCharsets.US_ASCII)));
    assertFalse(PerfettoReader.sniff("{\"traceEvents\": []}".getBytes(StandardCharsets.US_ASCII)));
    assertFalse(PerfettoReader.sniff("\n\n# comment\n".getBytes(StandardCharsets.US_ASCII)));
  }
}
