package org.ocelotl.format.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

class JfrReaderTest {
  @TempDir Path dir;

  /** Counts taken with RecordingFile directly: per type, events with and without duration. */
  @Test
  void workloadMatchesRecordingFileCounts() throws IOException {
    Path file = SharedTraces.file("jfr/workload.jfr");
    Map<String, Long> withDuration = new TreeMap<>();
    Map<String, Long> instants = new TreeMap<>();
    Set<Long> threads = new HashSet<>();
    boolean threadless = false;
    long total = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      total++;
      String name = e.getEventType().getName();
      (e.getDuration().isZero() ? instants : withDuration).merge(name, 1L, Long::sum);
      if (e.getThread() == null) {
        threadless = true;
      } else {
        threads.add(e.getThread().getJavaThreadId() > 0 ? e.getThread().getJavaThreadId()
            : -e.getThread().getOSThreadId());
      }
    }
    assertTrue(total > 4000, "about 4,200 events in the recording: " + total);

    MemoryTrace trace = new MemoryTrace();
    assertTrue(JfrReader.sniff(Files.readAllBytes(file)));
    new JfrReader().read(file, trace, ReadOptions.STRICT);
    Map<Integer, MemoryTrace.Type> types = new HashMap<>();
    trace.types.forEach(t -> types.put(t.id(), t));
    Map<String, Long> states = new TreeMap<>();
    trace.states.forEach(s -> states.merge(types.get(s.type()).name(), 1L, Long::sum));
    Map<String, Long> events = new TreeMap<>();
    trace.events.forEach(e -> events.merge(types.get(e.type()).name(), 1L, Long::sum));
    Map<String, Long> variables = new TreeMap<>();
    trace.variables.forEach(v -> variables.merge(types.get(v.type()).group(), 1L, Long::sum));

    // Periodic types became variables (one record per event and numeric field); every other
    // event is a state (with duration) or a punctual event (without), by its type's name.
    Set<String> periodic = variables.keySet();
    Map<String, Long> expectedStates = new TreeMap<>(withDuration);
    Map<String, Long> expectedEvents = new TreeMap<>(instants);
    expectedStates.keySet().removeAll(periodic);
    expectedEvents.keySet().removeAll(periodic);
    assertEquals(expectedStates, states);
    assertEquals(expectedEvents, events);
    for (String type : periodic) {
      long fields = trace.types.stream()
          .filter(t -> t.category() == EventCategory.VARIABLE && t.group().equals(type)).count();
      long count = withDuration.getOrDefault(type, 0L) + instants.getOrDefault(type, 0L);
      assertEquals(count * fields, variables.get(type), type);
    }
    assertTrue(periodic.contains("jdk.CPULoad"), periodic.toString());
    assertTrue(trace.types.stream().anyMatch(t -> t.name().equals("jdk.CPULoad.machineTotal")));
    assertEquals(9L, states.get("jdk.ThreadSleep"));
    assertEquals(8L, events.get("jdk.ThreadStart"));

    long threadProducers = trace.producers.stream().filter(p -> p.kind().equals("thread")).count();
    assertEquals(threads.size(), threadProducers);
    assertEquals(threadless, trace.producers.stream().anyMatch(p -> p.kind().equals("jvm")));
    assertTrue(trace.producers.stream().anyMatch(p -> p.kind().equals("thread group")
        && p.name().equals("main")));
    trace.states.forEach(s -> assertTrue(s.start() >= 0 && s.end() > s.start()));
    assertEquals("ns", trace.timeUnit);
  }

  @Test
  void nonJfrFileIsRefusedAtOffsetZero() throws IOException {
    Path file = SharedTraces.file("chrome/node_trace.json");
    assertFalse(JfrReader.sniff(Files.readAllBytes(file)));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new JfrReader().read(file, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(file + "@0: not a Java Flight Recorder file: expected the magic \"FLR\\0\"",
        e.getMessage());
  }

  @Test
  void truncatedRecordingIsAFormatError() throws IOException {
    byte[] bytes = Files.readAllBytes(SharedTraces.file("jfr/workload.jfr"));
    Path cut = dir.resolve("cut.jfr");
    Files.write(cut, Arrays.copyOf(bytes, bytes.length / 2));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new JfrReader().read(cut, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(cut + "@8: JFR chunk size " + bytes.length + ": expected 68 to the file's " + bytes.length / 2
        + " bytes", e.getMessage());
  }

  /** A chunk size of 0 (bytes 8–15) made the JDK's reader loop for ever: refused at once. */
  @Test
  void aChunkSizeOfZeroIsRefusedAtItsOffset() throws IOException {
    byte[] bytes = Files.readAllBytes(SharedTraces.file("jfr/workload.jfr"));
    Arrays.fill(bytes, 8, 16, (byte) 0);
    Path zero = dir.resolve("zero.jfr");
    Files.write(zero, bytes);
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new JfrReader().read(zero, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(zero + "@8: JFR chunk size 0: expected 68 to the file's " + bytes.length + " bytes", e.getMessage());
  }

  /**
   * Damaged recordings (seeded random bytes overwritten past the header) either read or fail
   * with the project's format exception naming the file: never the JDK parser's own exceptions
   * (27 % of mutated recordings escaped with IndexOutOfBounds, NullPointer, ClassCast or
   * InternalError, issue 14).
   */
  @Test
  void damagedRecordingsReadOrFailWithAFormatError() throws Exception {
    byte[] original = Files.readAllBytes(SharedTraces.file("jfr/workload.jfr"));
    java.util.Random random = new java.util.Random(14);
    int failures = 0;
    for (int k = 0; k < 250; k++) {
      byte[] bytes = original.clone();
      for (int m = 0; m < 1 + random.nextInt(8); m++) {
        bytes[68 + random.nextInt(bytes.length - 68)] = (byte) random.nextInt(256);
      }
      Path damaged = dir.resolve("damaged-" + k + ".jfr");
      Files.write(damaged, bytes);
      try {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
            () -> new JfrReader().read(damaged, new MemoryTrace(), ReadOptions.STRICT), "input " + k + " hangs");
      } catch (org.opentest4j.AssertionFailedError hang) {
        throw hang;
      } catch (Throwable e) { // the reader's checked exception comes back unchecked from the timeout's thread
        if (!(e instanceof TraceFormatException)) {
          throw new AssertionError("input " + k + ": " + e, e);
        }
        assertTrue(e.getMessage().startsWith(damaged.toString()), e.getMessage());
        failures++;
      }
    }
    assertTrue(failures > 0, "some damaged recordings are refused");
  }

  /**
   * Found by fuzzing (ReaderFuzzTest input thread-group-classcast): the JDK decodes an event's
   * thread group only when asked, and this damaged recording made that a ClassCastException, which
   * escaped the reader.
   */
  @Test
  void damageFoundWhileReadingAnEventsValuesIsAFormatError() throws Exception {
    Path damaged = dir.resolve("damaged.jfr");
    try (java.io.InputStream in = JfrReaderTest.class.getResourceAsStream(
        "/org/ocelotl/fuzz/ReaderFuzzTestInputs/jfr/thread-group-classcast")) {
      java.nio.file.Files.copy(in, damaged);
    }
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new JfrReader().read(damaged, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(damaged + ": not a readable JFR recording: its data is damaged or truncated (the JDK's reader"
        + " stopped with ClassCastException: class jdk.jfr.consumer.RecordedObject cannot be cast to class"
        + " jdk.jfr.consumer.RecordedThreadGroup (jdk.jfr.consumer.RecordedObject and"
        + " jdk.jfr.consumer.RecordedThreadGroup are in module jdk.jfr of loader 'bootstrap'))", e.getMessage());
  }

  /**
   * Found by fuzzing (ReaderFuzzTest input negative-record-size): a record whose size reads -1
   * sent the JDK's reader back to the same place for ever (more than 3 minutes before this
   * check); the sizes are now walked first.
   */
  @Test
  void aRecordSizeThatDoesNotMoveOnIsRefusedAtItsByte() throws Exception {
    Path damaged = dir.resolve("damaged.jfr");
    try (java.io.InputStream in = JfrReaderTest.class.getResourceAsStream(
        "/org/ocelotl/fuzz/ReaderFuzzTestInputs/jfr/negative-record-size")) {
      java.nio.file.Files.copy(in, damaged);
    }
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new JfrReader().read(damaged, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(damaged + "@141207: JFR record size -1: expected 1 to the chunk's remaining 121959 bytes",
        e.getMessage());
  }
}
