package org.ocelotl.format.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.InstalledTools;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.StateRules;
import org.ocelotl.trace.TraceFormatException;

/**
 * The shared LTTng trace (shared/traces/ctf/ust-trace: lttng-ust 2.13, two CPUs' stream files,
 * 3,837 events) against babeltrace2's text output: stored beside this test
 * ({@code babeltrace2 --clock-seconds --no-delta ust-trace | gzip}, babeltrace2 2.0.4 from
 * Debian) and babeltrace2 itself when installed. Every event, in babeltrace2's merged order, has
 * the same name, time (ns from the Epoch, the clock's offset included), CPU and thread; the
 * states are those a replay of babeltrace2's entry/exit lines on per-thread stacks gives.
 */
class CtfReaderTest {
  private static final String TRACE = "ctf/ust-trace/ust/uid/0/64-bit";
  private static final Pattern LINE = Pattern.compile(
      "^\\[(\\d+)\\.(\\d{9})\\] \\S+ (\\S+): \\{ cpu_id = (\\d+) \\}, \\{ vpid = (\\d+), vtid = (\\d+),"
          + " procname = \"([^\"]*)\"[^}]*\\}, \\{ (?:addr = (0x[0-9A-F]+))?");

  /** One event as babeltrace2 prints it; {@code addr} for function entries and exits, else null. */
  private record Printed(long ns, String name, long cpu, long vpid, long vtid, String procname, String addr) {
    String key() {
      return ns + " " + name + " cpu " + cpu + " vtid " + vtid;
    }
  }

  private static List<Printed> parse(List<String> lines) {
    List<Printed> events = new ArrayList<>();
    for (String line : lines) {
      Matcher m = LINE.matcher(line);
      assertTrue(m.find(), "a babeltrace2 line this test understands: " + line);
      events.add(new Printed(Long.parseLong(m.group(1)) * 1_000_000_000L + Long.parseLong(m.group(2)), m.group(3),
          Long.parseLong(m.group(4)), Long.parseLong(m.group(5)), Long.parseLong(m.group(6)), m.group(7),
          m.group(8)));
    }
    return events;
  }

  private static List<Printed> stored() throws IOException {
    try (InputStream in = new GZIPInputStream(CtfReaderTest.class.getResourceAsStream("ust-trace.babeltrace2.txt.gz"))) {
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }

  private static List<String> decoded(Path metadata) throws IOException {
    List<String> keys = new ArrayList<>();
    try (CtfTrace trace = CtfTrace.open(metadata, CtfMetadata.read(metadata))) {
      while (trace.next()) {
        CtfStream stream = trace.current();
        keys.add(stream.timestamp() + " " + stream.event().name() + " cpu " + stream.cpu() + " vtid "
            + stream.value("_vtid", -1));
      }
    }
    return keys;
  }

  @Test
  void decodesEveryEventAsTheStoredBabeltrace2Output() throws IOException {
    List<Printed> expected = stored();
    assertEquals(3837, expected.size());
    assertEquals(expected.stream().map(Printed::key).toList(), decoded(SharedTraces.file(TRACE + "/metadata")));
  }

  @Test
  void decodesEveryEventAsBabeltrace2RunNow() throws Exception {
    assertEquals(parse(babeltrace2(SharedTraces.file("ctf/ust-trace"))).stream().map(Printed::key).toList(),
        decoded(SharedTraces.file(TRACE + "/metadata")));
  }

  private static List<String> babeltrace2(Path trace) throws Exception {
    return run(InstalledTools.executable("/usr/bin/babeltrace2", "babeltrace2").toString(), "--clock-seconds", "--no-delta", trace.toString());
  }

  private static List<String> run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertTrue(process.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), String.join("\n", lines));
    return lines;
  }

  /**
   * A trace recorded now by scripts/gen-lttng-trace (3 threads × 2,000 calls of 3 functions, a
   * mutex around one: about 50,000 events on as many CPUs as the threads ran on) when LTTng and
   * gcc are installed: every event as babeltrace2 reads it, every entry/exit pair a state.
   */
  @Test
  void readsAFreshLttngTraceAsBabeltrace2(@TempDir Path dir) throws Exception {
    InstalledTools.executable("/usr/bin/lttng", "lttng-tools");
    InstalledTools.directory("/usr/include/lttng", "liblttng-ust-dev");
    InstalledTools.executable("/usr/bin/gcc", "gcc");
    Path trace = dir.resolve("trace");
    Path generator = Path.of("..", "scripts", "gen-lttng-trace").toAbsolutePath();
    run(generator.toString(), trace.toString(), "2000", "3");
    List<Printed> printed = parse(babeltrace2(trace));
    assertTrue(printed.size() >= 3 * 2000 * 8, "events: " + printed.size());
    Path metadata = CtfReader.metadataIn(trace);
    assertEquals(printed.stream().map(Printed::key).toList(), decoded(metadata));

    MemoryTrace read = new MemoryTrace();
    new CtfReader().read(metadata, read, ReadOptions.STRICT);
    long entries = printed.stream().filter(p -> p.name().endsWith("_entry")).count();
    assertEquals(entries, read.states.size());
    assertEquals(printed.size() - 2 * entries, read.events.size());
    assertEquals(List.of(), read.warnings);
  }

  /** States replayed from babeltrace2's lines: per thread, an entry pushes, the exit of the same kind pops. */
  private record Oracle(long vtid, String type, long start, long end, int depth) {}

  @Test
  void mapsToThreadsUnderTheirProcessWithStatesFromEntryExitPairs() throws IOException {
    List<Printed> printed = stored();
    long origin = 1795264956237847899L; // the clock's offset: times in the store count from the clock's origin
    MemoryTrace trace = new MemoryTrace();
    new CtfReader().read(SharedTraces.file(TRACE + "/metadata"), trace, ReadOptions.STRICT);

    Map<Long, List<Printed>> stacks = new HashMap<>();
    List<Oracle> expectedStates = new ArrayList<>();
    Map<String, Long> expectedEvents = new TreeMap<>();
    for (Printed event : printed) {
      List<Printed> stack = stacks.computeIfAbsent(event.vtid(), t -> new ArrayList<>());
      if (event.name().endsWith("_entry")) {
        stack.add(event);
      } else if (event.name().endsWith("_exit")) {
        Printed entry = stack.remove(stack.size() - 1);
        // lttng_ust_cyg_profile:func_entry → "func 0x4012ab", the function's address
        String state = entry.name().substring(entry.name().indexOf(':') + 1, entry.name().length() - "_entry".length());
        expectedStates.add(new Oracle(event.vtid(), state + " " + entry.addr().toLowerCase(),
            entry.ns() - origin, event.ns() - origin, stack.size()));
      } else {
        expectedEvents.merge(event.vtid() + " " + event.name(), 1L, Long::sum);
      }
    }

    // Threads in the order babeltrace2 first shows them.
    assertEquals(List.of("trace: ustdemo", "process: work-ust (18763)", "thread: thread 18764", "thread: thread 18763",
        "thread: thread 18766", "thread: thread 18768", "thread: thread 18769", "thread: thread 18767"),
        trace.producers.stream().sorted(Comparator.comparingInt(MemoryTrace.Producer::id))
            .map(p -> p.kind() + ": " + p.name()).toList());
    for (MemoryTrace.Producer producer : trace.producers) {
      if (producer.kind().equals("thread")) {
        assertEquals(1, producer.parent(), producer.name());
      }
    }

    Map<Integer, Long> tidOf = new HashMap<>();
    trace.producers.stream().filter(p -> p.kind().equals("thread"))
        .forEach(p -> tidOf.put(p.id(), Long.parseLong(p.name().substring("thread ".length()))));
    Comparator<Oracle> order = Comparator.comparingLong(Oracle::vtid).thenComparingLong(Oracle::start)
        .thenComparingInt(Oracle::depth);
    List<Oracle> states = trace.states.stream().map(s -> new Oracle(tidOf.get(s.producer()),
        trace.types.get(s.type()).name(), (long) s.start(), (long) s.end(), s.depth())).sorted(order).toList();
    assertEquals(1205, expectedStates.size());
    assertEquals(expectedStates.stream().sorted(order).toList(), states);

    Map<String, Long> events = new TreeMap<>();
    for (MemoryTrace.Event event : trace.events) {
      assertEquals(EventCategory.EVENT, trace.types.get(event.type()).category());
      events.merge(tidOf.get(event.producer()) + " " + trace.types.get(event.type()).name(), 1L, Long::sum);
    }
    assertEquals(3837 - 2 * 1205, trace.events.size());
    assertEquals(expectedEvents, events);
    assertEquals(List.of(), trace.warnings);
    assertEquals("ns", trace.timeUnit);
    assertEquals(printed.get(0).ns() - origin, (long) trace.start);
    assertEquals(printed.get(printed.size() - 1).ns() - origin, (long) trace.end);
  }

  /**
   * The user's rules replace the default: here a mutex held from its acquisition to its release
   * is the one state, and function entries and exits stay punctual events. Oracle: babeltrace2's
   * lines replayed per thread (an acquisition pushes, a release pops; a release with nothing open,
   * the trace having started while the mutex was held, is what the reader counts and reports).
   */
  @Test
  void userStateRulesReplaceTheDefaultOnes() throws IOException {
    List<Printed> printed = stored();
    long origin = 1795264956237847899L;
    StateRules rules = StateRules.parse(List.of(
        "(lttng_ust_pthread:pthread_mutex)_lock_acq", "(lttng_ust_pthread:pthread_mutex)_unlock"));
    MemoryTrace trace = new MemoryTrace();
    new CtfReader().read(SharedTraces.file(TRACE + "/metadata"), trace, new ReadOptions(false, b -> { }, rules));

    Map<Long, List<Printed>> stacks = new HashMap<>();
    List<Oracle> expectedStates = new ArrayList<>();
    Map<String, Long> expectedEvents = new TreeMap<>();
    long unmatched = 0;
    for (Printed event : printed) {
      List<Printed> stack = stacks.computeIfAbsent(event.vtid(), t -> new ArrayList<>());
      if (event.name().equals("lttng_ust_pthread:pthread_mutex_lock_acq")) {
        stack.add(event);
      } else if (event.name().equals("lttng_ust_pthread:pthread_mutex_unlock")) {
        if (stack.isEmpty()) {
          unmatched++;
        } else {
          Printed acquired = stack.remove(stack.size() - 1);
          expectedStates.add(new Oracle(event.vtid(), "lttng_ust_pthread:pthread_mutex", acquired.ns() - origin,
              event.ns() - origin, stack.size()));
        }
      } else {
        expectedEvents.merge(event.vtid() + " " + event.name(), 1L, Long::sum);
      }
    }
    long neverReleased = stacks.values().stream().mapToLong(List::size).sum();

    Map<Integer, Long> tidOf = new HashMap<>();
    trace.producers.stream().filter(p -> p.kind().equals("thread"))
        .forEach(p -> tidOf.put(p.id(), Long.parseLong(p.name().substring("thread ".length()))));
    Comparator<Oracle> order = Comparator.comparingLong(Oracle::vtid).thenComparingLong(Oracle::start)
        .thenComparingInt(Oracle::depth);
    assertEquals(expectedStates.stream().sorted(order).toList(), trace.states.stream().map(s -> new Oracle(
        tidOf.get(s.producer()), trace.types.get(s.type()).name(), (long) s.start(), (long) s.end(), s.depth()))
        .sorted(order).toList());
    Map<String, Long> events = new TreeMap<>();
    trace.events.forEach(e -> events.merge(tidOf.get(e.producer()) + " " + trace.types.get(e.type()).name(), 1L,
        Long::sum));
    assertEquals(expectedEvents, events);
    assertEquals(465 - neverReleased, expectedStates.size());
    assertEquals(469 - expectedStates.size(), unmatched);
    List<String> warnings = new ArrayList<>();
    if (unmatched > 0) {
      warnings.add(unmatched + " exit event(s) without the matching entry on their thread (ignored)");
    }
    if (neverReleased > 0) {
      warnings.add(neverReleased + " entry event(s) never exited before the trace's end (dropped)");
    }
    assertEquals(warnings, trace.warnings);
  }

  private static Path copyOfTheTrace(Path dir) throws IOException {
    Path source = SharedTraces.file(TRACE);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path target = dir.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    return dir.resolve("metadata");
  }

  @Test
  void refusesATruncatedPacketAtItsOffset(@TempDir Path dir) throws IOException {
    Path metadata = copyOfTheTrace(dir);
    Path stream = dir.resolve("channel0_1");
    try (FileChannel channel = FileChannel.open(stream, StandardOpenOption.WRITE)) {
      channel.truncate(13288); // this file is one packet of 196 KiB
    }
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new CtfReader().read(metadata, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(stream + "@0: packet of 200704 bytes announced, only 13288 remain in the file (the stream file is cut)",
        e.getMessage());
  }

  @Test
  void refusesAStreamFileCutInsideItsPacketHeader(@TempDir Path dir) throws IOException {
    Path metadata = copyOfTheTrace(dir);
    Path stream = dir.resolve("channel0_1");
    try (FileChannel channel = FileChannel.open(stream, StandardOpenOption.WRITE)) {
      channel.truncate(30); // in the packet header: magic 4, uuid 16, stream_id 4, then the 8-byte stream_instance_id
    }
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new CtfReader().read(metadata, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(stream + "@24: 64 bits expected, only 48 remain before the end of the file", e.getMessage());
  }

  @Test
  void refusesAMissingStreamFile(@TempDir Path dir) throws IOException {
    Path metadata = copyOfTheTrace(dir);
    Files.delete(dir.resolve("channel0_0"));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new CtfReader().read(metadata, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(dir.resolve("channel0_0") + ": missing (a stream file of the trace: channel0_0.idx indexes it beside"
        + " metadata)", e.getMessage());
  }
}
