package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.format.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;

/**
 * Every archive of shared/traces/otf2 against otf2-print (the stored output beside it, and
 * otf2-print itself when installed): same locations, same number of records per location and
 * kind, and the same states — replaying otf2-print's Enter/Leave and collective begin/end on a
 * stack gives exactly the reader's states, timestamps included.
 */
class Otf2ReaderTest {
  private static final Pattern LOCATION_DEF =
      Pattern.compile("^LOCATION\\s+(\\d+)\\s+Name: \"(.*?)\" <\\d+>");
  private static final Pattern REGION = Pattern.compile("Region: \"(.*?)\" <\\d+>");
  private static final Pattern OPERATION = Pattern.compile("Operation: (\\w+)");

  static Stream<Arguments> archives() {
    return Stream.of(
        Arguments.of("otf2/pytrace/traces.otf2", "otf2/pytrace"),
        Arguments.of("otf2/ez_mpi4/eztrace_log.otf2", "otf2/ez_mpi4/eztrace_log"),
        Arguments.of("otf2/ez_hybrid/eztrace_log.otf2", "otf2/ez_hybrid/eztrace_log"));
  }

  @ParameterizedTest
  @MethodSource("archives")
  void matchesStoredOtf2PrintOutput(String archive, String printPrefix) throws IOException {
    Path anchor = SharedTraces.file(archive);
    compare(anchor, Files.readAllLines(SharedTraces.file(printPrefix + ".defs.txt")),
        Files.readAllLines(SharedTraces.file(printPrefix + ".print.txt")));
  }

  @ParameterizedTest
  @MethodSource("archives")
  void matchesOtf2PrintRunNow(String archive, String printPrefix) throws Exception {
    Path otf2Print = Path.of("/usr/bin/otf2-print");
    Assumptions.assumeTrue(Files.isExecutable(otf2Print), "otf2-print (otf2-tools) not installed");
    Path anchor = SharedTraces.file(archive);
    compare(anchor, run(otf2Print.toString(), "-G", anchor.toString()),
        run(otf2Print.toString(), anchor.toString()));
  }

  private static List<String> run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new String(process.getInputStream().readAllBytes()).lines().toList();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), String.join("\n", lines));
    return lines;
  }

  private record OracleState(String type, long start, long end, int depth) {}

  private static void compare(Path anchor, List<String> defs, List<String> print)
      throws IOException {
    Map<Long, String> locationNames = new TreeMap<>();
    for (String line : defs) {
      Matcher m = LOCATION_DEF.matcher(line);
      if (m.find()) {
        locationNames.put(Long.parseLong(m.group(1)), m.group(2));
      }
    }
    MemoryTrace trace = new MemoryTrace();
    new Otf2Reader().read(anchor, trace, ReadOptions.STRICT);

    // Same locations: the leaves of the producer tree are the locations, by name.
    List<String> leaves = new ArrayList<>();
    for (MemoryTrace.Producer p : trace.producers) {
      if (trace.producers.stream().noneMatch(c -> c.parent() == p.id())) {
        leaves.add(p.name());
      }
    }
    assertEquals(new ArrayList<>(locationNames.values()).stream().sorted().toList(),
        leaves.stream().sorted().toList());

    // Oracle: replay otf2-print's records per location.
    Map<String, Map<String, Long>> expectedCounts = new TreeMap<>();
    Map<String, List<OracleState>> expectedStates = new HashMap<>();
    Map<String, List<long[]>> stacks = new HashMap<>();
    Map<String, List<String>> stackTypes = new HashMap<>();
    Map<String, Map<String, List<Long>>> expectedEventTimes = new TreeMap<>();
    boolean inEvents = false;
    for (String line : print) {
      if (line.startsWith("Event ")) {
        inEvents = true;
        continue;
      }
      String[] f = line.trim().split("\\s+", 4);
      if (!inEvents || f.length < 3 || !f[1].matches("\\d+")) {
        continue;
      }
      String kind = f[0];
      String loc = locationNames.get(Long.parseLong(f[1]));
      long time = Long.parseLong(f[2]);
      String rest = f.length > 3 ? f[3] : "";
      String key = switch (kind) {
        case "ENTER", "LEAVE" -> "region states";
        case "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END" -> "collective states";
        default -> kind;
      };
      if (!kind.equals("LEAVE") && !kind.equals("MPI_COLLECTIVE_END")) {
        expectedCounts.computeIfAbsent(loc, k -> new TreeMap<>()).merge(key, 1L, Long::sum);
      }
      List<long[]> stack = stacks.computeIfAbsent(loc, k -> new ArrayList<>());
      List<String> types = stackTypes.computeIfAbsent(loc, k -> new ArrayList<>());
      switch (kind) {
        case "ENTER" -> {
          Matcher m = REGION.matcher(rest);
          assertTrue(m.find(), line);
          stack.add(new long[] {time});
          types.add(m.group(1));
        }
        case "MPI_COLLECTIVE_BEGIN" -> {
          stack.add(new long[] {time});
          types.add(null);
        }
        case "LEAVE", "MPI_COLLECTIVE_END" -> {
          int depth = stack.size() - 1;
          String type = types.remove(depth);
          if (kind.equals("MPI_COLLECTIVE_END")) {
            Matcher m = OPERATION.matcher(rest);
            assertTrue(m.find(), line);
            type = "MPI_" + m.group(1);
          }
          expectedStates.computeIfAbsent(loc, k -> new ArrayList<>())
              .add(new OracleState(type, stack.remove(depth)[0], time, depth));
        }
        default -> expectedEventTimes.computeIfAbsent(loc, k -> new TreeMap<>())
            .computeIfAbsent(kind, k -> new ArrayList<>()).add(time);
      }
    }
    stacks.forEach((loc, stack) -> assertTrue(stack.isEmpty(), loc + " ends with open states"));

    // The reader's view, in the same terms.
    Map<Integer, String> producerNames = new HashMap<>();
    trace.producers.forEach(p -> producerNames.put(p.id(), p.name()));
    Map<Integer, MemoryTrace.Type> types = new HashMap<>();
    trace.types.forEach(t -> types.put(t.id(), t));
    Map<String, Map<String, Long>> actualCounts = new TreeMap<>();
    Map<String, List<OracleState>> actualStates = new HashMap<>();
    Map<String, Map<String, List<Long>>> actualEventTimes = new TreeMap<>();
    for (MemoryTrace.State s : trace.states) {
      MemoryTrace.Type type = types.get(s.type());
      assertEquals(EventCategory.STATE, type.category());
      String loc = producerNames.get(s.producer());
      String key = type.group().equals("region") ? "region states" : "collective states";
      actualCounts.computeIfAbsent(loc, k -> new TreeMap<>()).merge(key, 1L, Long::sum);
      assertEquals((double) (long) s.start(), s.start(), "ticks are integers");
      actualStates.computeIfAbsent(loc, k -> new ArrayList<>())
          .add(new OracleState(type.name(), (long) s.start(), (long) s.end(), s.depth()));
    }
    for (MemoryTrace.Event e : trace.events) {
      String loc = producerNames.get(e.producer());
      String kind = types.get(e.type()).name();
      actualCounts.computeIfAbsent(loc, k -> new TreeMap<>()).merge(kind, 1L, Long::sum);
      actualEventTimes.computeIfAbsent(loc, k -> new TreeMap<>())
          .computeIfAbsent(kind, k -> new ArrayList<>()).add((long) e.time());
    }
    // These archives record no receive with its sender (only MPI_IRECV_REQUEST): no link.
    assertTrue(trace.links.isEmpty());
    assertTrue(trace.variables.isEmpty());

    assertEquals(expectedCounts, actualCounts);
    assertEquals(expectedStates, actualStates);
    actualEventTimes.values().forEach(m -> m.values().forEach(l -> l.sort(null)));
    expectedEventTimes.values().forEach(m -> m.values().forEach(l -> l.sort(null)));
    assertEquals(expectedEventTimes, actualEventTimes);
    assertEquals("ns", trace.timeUnit);
    assertFalse(expectedCounts.isEmpty());
  }
}
