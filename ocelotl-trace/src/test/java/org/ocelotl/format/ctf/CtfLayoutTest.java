package org.ocelotl.format.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.testing.InstalledTools;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

/**
 * A CTF trace built byte by byte for what the shared LTTng trace does not hold: big-endian
 * fields, compact event headers (5-bit id, 27-bit timestamp) whose timestamps wrap, the extended
 * header, a clock of 1 MHz with {@code offset_s} and {@code offset}, enumerations, variants,
 * sequences, strings, floats, several packets and two streams to merge. The expected events are
 * computed by hand below, and compared with babeltrace2's reading of the same bytes when it is
 * installed.
 *
 * <pre>
 * channel_0, cpu 0, packet 1 (128 bytes, content 108; header and context 52 bytes): begin 0x7FFFF00
 *   @52  compact id 0 ts 0x7FFFF10          → 0x07FFFF10  app:work_entry depth = -3
 *   @58  compact id 1 ts 0x0000010 (wraps)  → 0x08000010  app:work_exit seconds = 1.5
 *   @70  extended id 40 ts 0x8000100        → 0x08000100  app:message n = 3, "hi", "abc"
 *   @90  compact id 0 ts 0x0000020 (wraps)  → 0x10000020  app:work_entry depth = 7
 *   @96  compact id 1 ts 0x0000030          → 0x10000030  app:work_exit seconds = 2.25
 * channel_0, packet 2 (128 bytes, content 64, 5 events discarded so far): begin 0x10000040
 *   @180 compact id 1 ts 0x0000050          → 0x10000050  app:work_exit (no entry open)
 * channel_1, cpu 1, one packet (128 bytes, content 73): begin 0x8000000
 *   @52  compact id 0 ts 0                  → 0x08000000  app:work_entry
 *   @58  extended id 0 ts 0x10000025        → 0x10000025  app:work_entry (never exited)
 * time in ns = 1000 s + (500 + cycles) µs
 * </pre>
 */
class CtfLayoutTest {
  static final String METADATA = """
      /* CTF 1.8 */
      typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
      typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
      typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
      typealias integer { size = 64; align = 8; signed = false; } := unsigned long;
      typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
      trace {
        major = 1; minor = 8;
        byte_order = be;
        packet.header := struct { uint32_t magic; uint32_t stream_id; };
      };
      env { hostname = "bench"; tracer_name = "hand"; };
      clock { name = "mono"; freq = 1000000; offset_s = 1000; offset = 500; };
      typealias integer { size = 27; align = 1; signed = false; map = clock.mono.value; } := uint27_clock_t;
      typealias integer { size = 64; align = 8; signed = false; map = clock.mono.value; } := uint64_clock_t;
      struct packet_context {
        uint64_clock_t timestamp_begin;
        uint64_clock_t timestamp_end;
        uint64_t content_size;
        uint64_t packet_size;
        unsigned long events_discarded;
        uint32_t cpu_id;
      };
      struct event_header_compact {
        enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
        variant <id> {
          struct { uint27_clock_t timestamp; } compact;
          struct { uint32_t id; uint64_clock_t timestamp; } extended;
        } v;
      } align(8);
      stream {
        id = 0;
        event.header := struct event_header_compact;
        packet.context := struct packet_context;
      };
      event {
        name = "app:work_entry"; id = 0; stream_id = 0;
        fields := struct { integer { size = 16; align = 8; signed = 1; } depth; };
      };
      event {
        name = "app:work_exit"; id = 1; stream_id = 0;
        fields := struct { floating_point { exp_dig = 11; mant_dig = 53; align = 8; } seconds; };
      };
      event {
        name = "app:message"; id = 40; stream_id = 0;
        fields := struct {
          uint8_t n;
          string text;
          integer { size = 8; align = 8; signed = false; encoding = UTF8; } bytes[n];
        };
      };
      """;

  /** A big-endian packet under construction. */
  private static final class Packet {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final ByteBuffer scratch = ByteBuffer.allocate(8);

    Packet put(long value, int size) {
      scratch.clear();
      scratch.putLong(value);
      bytes.write(scratch.array(), 8 - size, size);
      return this;
    }

    /** The packet header and context; content and packet sizes patched in by {@link #done}. */
    static Packet start(long begin, long end, long cpu) {
      return new Packet().put(0xC1FC1FC1L, 4).put(0, 4).put(begin, 8).put(end, 8).put(0, 8).put(0, 8).put(0, 8)
          .put(cpu, 4);
    }

    Packet compact(int id, long timestamp) {
      return put((long) id << 27 | timestamp, 4);
    }

    Packet extended(long id, long timestamp) {
      return put(31 << 3, 1).put(id, 4).put(timestamp, 8);
    }

    Packet text(String text) {
      bytes.writeBytes(text.getBytes(StandardCharsets.UTF_8));
      return this;
    }

    byte[] done(int packetBytes) {
      byte[] content = bytes.toByteArray();
      byte[] packet = Arrays.copyOf(content, packetBytes);
      ByteBuffer.wrap(packet).putLong(24, content.length * 8L).putLong(32, packetBytes * 8L);
      return packet;
    }
  }

  static Path write(Path dir) throws IOException {
    Files.writeString(dir.resolve("metadata"), METADATA);
    byte[] first = Packet.start(0x7FFFF00L, 0x10000030L, 0)
        .compact(0, 0x7FFFF10L).put(-3, 2)
        .compact(1, 0x10L).put(Double.doubleToLongBits(1.5), 8)
        .extended(40, 0x8000100L).put(3, 1).text("hi\0abc")
        .compact(0, 0x20L).put(7, 2)
        .compact(1, 0x30L).put(Double.doubleToLongBits(2.25), 8)
        .done(128);
    byte[] second = Packet.start(0x10000040L, 0x10000050L, 0)
        .compact(1, 0x50L).put(Double.doubleToLongBits(0.5), 8)
        .done(128);
    ByteBuffer.wrap(second).putLong(40, 5); // events_discarded: the tracer lost 5 events before this packet
    Files.write(dir.resolve("channel_0"), concat(first, second));
    Files.write(dir.resolve("channel_1"), Packet.start(0x8000000L, 0x10000025L, 1)
        .compact(0, 0).put(1, 2)
        .extended(0, 0x10000025L).put(2, 2)
        .done(128));
    return dir.resolve("metadata");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static final List<String> EXPECTED = List.of(
      "1134217988000 app:work_entry cpu 0",
      "1134218228000 app:work_entry cpu 1",
      "1134218244000 app:work_exit cpu 0",
      "1134218484000 app:message cpu 0",
      "1268435988000 app:work_entry cpu 0",
      "1268435993000 app:work_entry cpu 1",
      "1268436004000 app:work_exit cpu 0",
      "1268436036000 app:work_exit cpu 0");

  private static List<String> decoded(Path metadata) throws IOException {
    List<String> events = new ArrayList<>();
    try (CtfTrace trace = CtfTrace.open(metadata, CtfMetadata.read(metadata))) {
      while (trace.next()) {
        CtfStream stream = trace.current();
        events.add(stream.timestamp() + " " + stream.event().name() + " cpu " + stream.cpu());
        if (stream.event().name().equals("app:message")) {
          assertEquals("hi abc 3", stream.text("text") + " " + stream.text("bytes") + " " + stream.value("n", -1));
        }
        if (stream.event().name().equals("app:work_entry") && stream.cpu() == 0) {
          assertTrue(List.of(-3L, 7L).contains(stream.value("depth", 0)), "signed 16-bit payload");
        }
      }
    }
    return events;
  }

  @Test
  void decodesCompactAndExtendedHeadersWithWrappingTimestamps(@TempDir Path dir) throws IOException {
    assertEquals(EXPECTED, decoded(write(dir)));
  }

  @Test
  void babeltrace2ReadsTheSameEvents(@TempDir Path dir) throws Exception {
    Path babeltrace = InstalledTools.executable("/usr/bin/babeltrace2", "babeltrace2");
    write(dir);
    Process process = new ProcessBuilder(babeltrace.toString(), "--clock-seconds", "--no-delta", dir.toString())
        .redirectErrorStream(true).start();
    List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), String.join("\n", lines));
    Pattern line = Pattern.compile("^\\[(\\d+)\\.(\\d{9})\\] \\S+ (\\S+): \\{ cpu_id = (\\d+) \\}");
    List<String> printed = new ArrayList<>();
    List<String> discarded = new ArrayList<>();
    for (String text : lines) {
      if (text.startsWith("WARNING: Tracer discarded")) {
        discarded.add(text.substring(0, text.indexOf(" between")));
        continue;
      }
      Matcher m = line.matcher(text);
      assertTrue(m.find(), text);
      printed.add(Long.parseLong(m.group(1)) * 1_000_000_000L + Long.parseLong(m.group(2)) + " " + m.group(3)
          + " cpu " + m.group(4));
    }
    assertEquals(EXPECTED, printed);
    assertEquals(List.of("WARNING: Tracer discarded 5 events"), discarded);
  }

  /**
   * The entry/exit marker ends the name (LTTng user space: {@code app:work_entry}) or sits inside
   * it (LTTng kernel: {@code syscall_entry_read}); either way the pair is one state.
   */
  @ParameterizedTest
  @CsvSource({"app:work_entry, app:work_exit, app:work", "syscall_entry_work, syscall_exit_work, syscall_work"})
  void mapsPerCpuWhenEventsHaveNoThreadContext(String entry, String exit, String state, @TempDir Path dir)
      throws IOException {
    Path metadata = write(dir);
    Files.writeString(metadata, METADATA.replace("app:work_entry", entry).replace("app:work_exit", exit));
    MemoryTrace trace = new MemoryTrace();
    new CtfReader().read(metadata, trace, ReadOptions.STRICT);
    assertEquals(new MemoryTrace.Type(0, state, EventCategory.STATE, null, null), trace.types.get(0));
    assertEquals(List.of("trace: bench, parent -1", "cpu: cpu 0, parent 0", "cpu: cpu 1, parent 0"),
        trace.producers.stream().map(p -> p.kind() + ": " + p.name() + ", parent " + p.parent()).toList());
    // Times from the clock's origin (1000 s + 500 µs after the Epoch): cycles × 1000 ns.
    assertEquals(List.of(new MemoryTrace.State(1, 0, 134217488000.0, 134217744000.0, 0),
        new MemoryTrace.State(1, 0, 268435488000.0, 268435504000.0, 0)), trace.states);
    assertEquals(List.of(new MemoryTrace.Event(1, 1, 134217984000.0)), trace.events);
    assertEquals(List.of("5 event(s) discarded by the tracer, its buffers full (5 in channel_0)",
        "1 exit event(s) without the matching entry on their thread (ignored)",
        "2 entry event(s) never exited before the trace's end (dropped)"), trace.warnings);
    assertEquals(134217488000.0, trace.start);
    assertEquals(268435536000.0, trace.end);
  }

  @Test
  void refusesACutSecondPacketAtItsOffset(@TempDir Path dir) throws IOException {
    Path metadata = write(dir);
    Path stream = dir.resolve("channel_0");
    byte[] bytes = Files.readAllBytes(stream);
    Files.write(stream, Arrays.copyOf(bytes, 128 + 100));
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> decoded(metadata));
    assertEquals(stream + "@128: packet of 128 bytes announced, only 100 remain in the file (the stream file is cut)",
        e.getMessage());
  }

  @Test
  void refusesAnEventCrossingItsPacketsContentEnd(@TempDir Path dir) throws IOException {
    Path metadata = write(dir);
    Path stream = dir.resolve("channel_1");
    byte[] bytes = Files.readAllBytes(stream);
    ByteBuffer.wrap(bytes).putLong(24, 68 * 8L); // content ends inside the extended header's timestamp (63 to 71)
    Files.write(stream, bytes);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> decoded(metadata));
    assertEquals(stream + "@63: 64 bits expected, only 40 remain before the packet's content end", e.getMessage());
  }

  /**
   * Found by fuzzing (input ctfMetadata/event-of-no-bits, the shared metadata without its stream
   * block): with no packet header, no event header and an event with no fields, every event reads
   * no bits, so the stream decoded the same event for ever. Refused at its byte.
   */
  @Test
  void refusesAnEventThatReadsNoBits(@TempDir Path dir) throws IOException {
    Path metadata = Files.writeString(dir.resolve("metadata"), """
        /* CTF 1.8 */
        trace { major = 1; minor = 8; byte_order = le; };
        event { name = "app:empty"; id = 0; fields := struct { }; };
        """);
    Path stream = Files.write(dir.resolve("channel_0"), new byte[4]);
    // Without the check this loops for ever: the timeout makes it a failure.
    TraceFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(TraceFormatException.class, () -> decoded(metadata)));
    assertEquals(stream + "@0: event app:empty (id 0) reads no bits: the metadata gives it no header, context or "
        + "fields of any size; expected every event to take at least one bit", e.getMessage());
  }

  /**
   * Lost events on one thread, function entries and exits carrying the function's address:
   * <pre>
   * 10 enter A · 20 enter B · (B's exit lost) · 40 exit A · 50 enter C · 60 exit D (entry lost) · 70 exit C
   * </pre>
   * A is [10, 40] and C [50, 70], both at depth 0; B is dropped and D's exit ignored — rather
   * than B taking A's exit and every later pair shifting by one.
   */
  @Test
  void lostEventsCostOneStateEach(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("metadata"), """
        /* CTF 1.8 */
        typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
        typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
        trace { byte_order = le; };
        clock { name = c; };
        typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := time_t;
        stream {
          event.header := struct { uint8_t id; time_t timestamp; };
          event.context := struct { uint64_t _vpid; uint64_t _vtid; };
        };
        event { name = "f_entry"; id = 0; fields := struct { uint64_t _addr; }; };
        event { name = "f_exit"; id = 1; fields := struct { uint64_t _addr; }; };
        """);
    long[][] events = {{0, 10, 0xA}, {0, 20, 0xB}, {1, 40, 0xA}, {0, 50, 0xC}, {1, 60, 0xD}, {1, 70, 0xC}};
    ByteBuffer stream = ByteBuffer.allocate(events.length * 33).order(ByteOrder.LITTLE_ENDIAN);
    for (long[] event : events) {
      stream.put((byte) event[0]).putLong(event[1]).putLong(7).putLong(8).putLong(event[2]);
    }
    Files.write(dir.resolve("stream_0"), stream.array());
    MemoryTrace trace = new MemoryTrace();
    new CtfReader().read(dir.resolve("metadata"), trace, ReadOptions.STRICT);
    List<String> states = trace.states.stream().map(st -> trace.types.get(st.type()).name() + " [" + (long) st.start()
        + ", " + (long) st.end() + "] depth " + st.depth()).toList();
    assertEquals(List.of("f 0xa [10, 40] depth 0", "f 0xc [50, 70] depth 0"), states);
    assertEquals(List.of("1 exit event(s) without the matching entry on their thread (ignored)",
        "1 entry event(s) whose exit is missing, found open when an outer exit came (dropped)"), trace.warnings);
  }
}
