package org.ocelotl.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.format.paje.PajeReader;
import org.ocelotl.format.pjdump.PjDumpReader;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.workspace.Formats;

/**
 * The same trace read from two formats gives the same records: each Pajé trace of PajeNG's
 * suite and the pj_dump CSV of it. pj_dump prints dates with 6 decimals and values with 6 decimals,
 * so records are compared at that precision, as multisets keyed by producer and type names.
 */
class CrossFormatTest {
  static Stream<String> pajengTraces() throws IOException {
    try (Stream<Path> files = Files.list(SharedTraces.dir().resolve("paje/pajeng"))) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".trace") && !n.equals("native_paje.trace"))
          .filter(n -> Files.exists(SharedTraces.dir().resolve("paje/pajeng/" + n + ".dump")))
          .sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("pajengTraces")
  void pajeAndItsPjDumpGiveTheSameRecords(String name) throws IOException {
    Path trace = SharedTraces.file("paje/pajeng/" + name);
    Path dump = SharedTraces.file("paje/pajeng/" + name + ".dump");
    assertEquals("paje", Formats.standard().detect(trace).name());
    assertEquals("pjdump", Formats.standard().detect(dump).name());
    MemoryTrace paje = new MemoryTrace();
    new PajeReader().read(trace, paje, ReadOptions.STRICT);
    MemoryTrace csv = new MemoryTrace();
    new PjDumpReader().read(dump, csv, ReadOptions.STRICT);

    assertEquals(multiset(paje.states, s -> key(paje, s.producer(), s.type(), s.start(), s.end()) + " d" + s.depth()),
        multiset(csv.states, s -> key(csv, s.producer(), s.type(), s.start(), s.end()) + " d" + s.depth()), name + " states");
    assertEquals(multiset(paje.events, e -> key(paje, e.producer(), e.type(), e.time(), e.time())),
        multiset(csv.events, e -> key(csv, e.producer(), e.type(), e.time(), e.time())), name + " events");
    if (!name.equals("simgrid-fg126.trace")) { // pj_dump prints 3 of its 6 zero-length links
      assertEquals(multiset(paje.links, l -> linkKey(paje, l)), multiset(csv.links, l -> linkKey(csv, l)), name + " links");
    }
    Map<String, Double> pajeValues = lastValues(paje);
    Map<String, Double> csvValues = lastValues(csv);
    assertEquals(pajeValues.keySet(), csvValues.keySet(), name + " variable changes");
    // pj_dump prints values with 6 decimals.
    pajeValues.forEach((k, v) -> assertEquals(v, csvValues.get(k), 1e-6 + 1e-7 * Math.abs(v), name + " " + k));
  }

  private static String key(MemoryTrace trace, int producer, int type, double start, double end) {
    return trace.producers.get(producer).name() + " " + trace.types.get(type).name()
        + String.format(" %.6f %.6f", start, end);
  }

  private static String linkKey(MemoryTrace trace, MemoryTrace.Link l) {
    // pj_dump prints a link's type by its alias, the Pajé reader keeps its name: compare the ends.
    return trace.producers.get(l.from()).name() + "→"
        + trace.producers.get(l.to()).name() + String.format(" %.6f %.6f", l.start(), l.end());
  }

  /**
   * The value each variable holds after each instant where it changes: pj_dump prints steps,
   * so several changes at one instant leave only the last one visible.
   */
  private static Map<String, Double> lastValues(MemoryTrace trace) {
    Map<String, Double> values = new TreeMap<>();
    for (MemoryTrace.Variable v : trace.variables) {
      values.put(key(trace, v.producer(), v.type(), v.time(), v.time()), v.value());
    }
    return values;
  }

  private static <T> Map<String, Integer> multiset(List<T> records, Function<T, String> key) {
    Map<String, Integer> counts = new TreeMap<>();
    for (T record : records) {
      counts.merge(key.apply(record), 1, Integer::sum);
    }
    return counts;
  }
}
