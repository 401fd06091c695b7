package org.ocelotl.format.pjdump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

class PjDumpReaderTest {

  /**
   * Every pj_dump output of shared/traces/paje against counts computed here from the raw lines:
   * containers, and per record kind and type the number of records and the sum of durations.
   */
  @ParameterizedTest
  @ValueSource(strings = {"simgrid/smpi_small_flat.pjdump.csv", "simgrid/s4u_mw_small.pjdump.csv",
      "simgrid/s4u_mw_perturbed.pjdump.csv", "pajeng/categories.trace.dump",
      "pajeng/containers.trace.dump", "pajeng/events.trace.dump", "pajeng/g5k.trace.dump",
      "pajeng/gattaca.trace.dump", "pajeng/links.trace.dump", "pajeng/ms.trace.dump",
      "pajeng/native_sample.trace.dump", "pajeng/replay_output_shurakai_extract.trace.dump",
      "pajeng/simgrid-fg126.trace.dump", "pajeng/simu-mardi.trace.dump",
      "pajeng/states.trace.dump", "pajeng/variables.trace.dump"})
  void matchesIndependentCounts(String name) throws IOException {
    Path file = SharedTraces.file("paje/" + name);
    Map<String, Long> expectedCounts = new TreeMap<>();
    Map<String, Double> expectedDurations = new TreeMap<>();
    long containers = 0;
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split(",\\s*");
      switch (f[0]) {
        case "Container" -> containers++;
        case "State", "Link" -> {
          // states are typed by value within their type; links by their type (as from Pajé)
          String key = f[0].equals("State") ? "State " + f[2] + "/" + f[7] : "Link null/" + f[2];
          expectedCounts.merge(key, 1L, Long::sum);
          expectedDurations.merge(key,
              Double.parseDouble(f[4]) - Double.parseDouble(f[3]), Double::sum);
        }
        case "Event" -> expectedCounts.merge("Event " + f[2] + "/" + f[4], 1L, Long::sum);
        case "Variable" -> expectedCounts.merge("Variable " + f[2], 1L, Long::sum);
        default -> throw new AssertionError(line);
      }
    }

    MemoryTrace trace = new MemoryTrace();
    assertTrue(PjDumpReader.sniff(Files.readAllBytes(file)));
    new PjDumpReader().read(file, trace, ReadOptions.STRICT);
    Map<Integer, MemoryTrace.Type> types = new HashMap<>();
    trace.types.forEach(t -> types.put(t.id(), t));
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Double> durations = new TreeMap<>();
    trace.states.forEach(s -> {
      MemoryTrace.Type t = types.get(s.type());
      String key = "State " + t.group() + "/" + t.name();
      counts.merge(key, 1L, Long::sum);
      durations.merge(key, s.end() - s.start(), Double::sum);
    });
    trace.links.forEach(l -> {
      MemoryTrace.Type t = types.get(l.type());
      String key = "Link " + t.group() + "/" + t.name();
      counts.merge(key, 1L, Long::sum);
      durations.merge(key, l.end() - l.start(), Double::sum);
    });
    trace.events.forEach(e -> counts.merge("Event " + types.get(e.type()).group() + "/"
        + types.get(e.type()).name(), 1L, Long::sum));
    trace.variables.forEach(v -> counts.merge("Variable " + types.get(v.type()).name(), 1L,
        Long::sum));
    assertEquals(containers, trace.producers.size());
    assertEquals(expectedCounts, counts);
    // Same additions in the same order: the sums are bit-identical.
    assertEquals(expectedDurations, durations);
    assertEquals(-1, trace.producers.get(0).parent());
  }

  @Test
  void failedDumpIsRefusedWithItsLine() throws IOException {
    Path file = SharedTraces.file("paje/pajeng/native_paje.trace.dump");
    assertFalse(PjDumpReader.sniff(Files.readAllBytes(file)));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new PjDumpReader().read(file, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(file + ":1: no container: not a pj_dump file?", e.getMessage());
  }

  @Test
  void unknownContainerNamesLine(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Path file = dir.resolve("x.csv");
    Files.write(file, List.of("Container, 0, 0, 0, 2, 2, 0",
        "State, nowhere, S, 0.5, 1, 0.5, 0, run"));
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> new PjDumpReader().read(file, new MemoryTrace(), ReadOptions.STRICT));
    assertEquals(file + ":2: unknown container \"nowhere\" (not listed before)\n"
        + "  State, nowhere, S, 0.5, 1, 0.5, 0, run", e.getMessage());
    MemoryTrace lenient = new MemoryTrace();
    new PjDumpReader().read(file, lenient, new ReadOptions(true, b -> { }));
    assertEquals(List.of("1 × line skipped: unknown container \"nowhere\" (not listed before)"),
        lenient.warnings);
  }
}
