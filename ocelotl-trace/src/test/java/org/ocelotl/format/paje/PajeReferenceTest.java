package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;

/**
 * Every Pajé trace of shared/traces/paje that pj_dump reads, checked against pj_dump's own
 * output beside it: containers with their parents, states per (container, type, value, depth)
 * with their count and total duration, events, variable changes and links.
 *
 * <p>Tolerances come from pj_dump's printing, not from us: dates with %f (1e-6 absolute),
 * variable values parsed as float (strtof) and printed with %f, container bounds with six
 * significant digits.
 */
class PajeReferenceTest {
  static final Path TRACES = SharedTraces.file("paje");
  private static final double PRINTED_DATE = 1e-6;

  static Stream<Path> referencedTraces() throws IOException {
    try (Stream<Path> files = Files.walk(TRACES)) {
      return files.filter(f -> f.toString().endsWith(".trace"))
          .filter(f -> Files.exists(reference(f)))
          .filter(f -> !f.getFileName().toString().equals("native_paje.trace"))
          .sorted().toList().stream();
    }
  }

  static Path reference(Path trace) {
    String name = trace.getFileName().toString();
    return name.startsWith("smpi") || name.startsWith("s4u")
        ? trace.resolveSibling(name.replace(".trace", ".pjdump.csv"))
        : trace.resolveSibling(name + ".dump");
  }

  @Test
  void everyReferenceIsFound() throws IOException {
    assertEquals(18, referencedTraces().count(), "15 pajeng traces with a .dump + 3 SimGrid csv");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("referencedTraces")
  void matchesPjDump(Path trace) throws IOException {
    MemoryTrace ours = read(trace);
    Dump dump = Dump.parse(reference(trace));
    View view = new View(ours);
    assertEquals(dump.containers, view.containers(), "containers (parent, type, name)");
    assertContainerEnds(dump, view, ours);
    assertStates(dump.states, view.states());
    assertEquals(dump.events.size(), ours.events.size(), "events");
    assertDates(dump.events, view.events(), "events");
    assertVariables(dump.variables, view.variables());
    if (trace.getFileName().toString().equals("simgrid-fg126.trace")) {
      assertZeroLengthTraceLinks(dump, view);
    } else {
      assertEquals(dump.links.size(), ours.links.size(), "links");
      assertDates(dump.links, view.links(), "links");
    }
    assertTrue(ours.warnings.isEmpty(), () -> "no warnings expected: " + ours.warnings);
  }

  @Test
  void groupedSimGridTraceImportsLikeItsFlatTwin() throws IOException {
    MemoryTrace grouped = read(TRACES.resolve("simgrid/smpi_small_grouped.trace"));
    MemoryTrace flat = read(TRACES.resolve("simgrid/smpi_small_flat.trace"));
    View g = new View(grouped);
    View f = new View(flat);
    assertEquals(f.states().keySet(), g.states().keySet());
    f.states().forEach((key, expected) -> {
      double[] actual = g.states().get(key);
      assertEquals(expected[0], actual[0], key);
      assertEquals(expected[1], actual[1], 1e-9 * Math.abs(expected[1]), key);
    });
    assertEquals(f.links(), g.links());
    assertEquals(text(f.variables()), text(g.variables()));
    assertEquals(1, grouped.warnings.size(), () -> "warnings: " + grouped.warnings);
    assertTrue(grouped.warnings.get(0).startsWith("link type 'MPI_LINK' (alias 2) is declared"
        + " from container type 'MPI' (alias 1)"), grouped.warnings.get(0));
    assertTrue(flat.warnings.isEmpty(), () -> "flat warnings: " + flat.warnings);
  }

  @Test
  void perturbedSimGridTraceImports() throws IOException {
    MemoryTrace trace = read(TRACES.resolve("simgrid/smpi_perturbed.trace"));
    // 4 sites × 2 cabinets × (router, 4 hosts, 4 nics, uplink) + per-site gateway, router,
    // uplink + 64 ranks + root: counted from the trace's PajeCreateContainer lines (168) + root.
    assertEquals(169, trace.producers.size());
    assertEquals(0, trace.start);
    assertEquals(13.560387, trace.end);
    assertEquals("s", trace.timeUnit);
    assertFalse(trace.states.isEmpty());
    assertEquals(38400, trace.links.size(), "PajeStartLink lines of the trace");
  }

  /**
   * simgrid-fg126 lasts 0 s and its 6 links (6 PajeStartLink/PajeEndLink pairs with distinct
   * keys) all sit at date 0; pj_dump prints only one link per link type there (its time-window
   * query on an empty window), 3 in all. We keep the 6: pj_dump's 3 must be among them.
   */
  private static void assertZeroLengthTraceLinks(Dump dump, View view) {
    assertEquals(3, dump.links.size());
    List<String> ours = view.links();
    assertEquals(6, ours.size(), "links");
    for (String link : dump.links) {
      String expected = link.replace("|0.000000", "|0.0");
      assertTrue(ours.contains(expected), () -> expected + " among " + ours);
    }
  }

  static MemoryTrace read(Path trace) throws IOException {
    MemoryTrace sink = new MemoryTrace();
    new PajeReader().read(trace, sink, ReadOptions.STRICT);
    return sink;
  }

  private static void assertContainerEnds(Dump dump, View view, MemoryTrace ours) {
    Map<String, Double> ends = view.containerEnds();
    dump.containerEnds.forEach((name, end) -> {
      Double actual = ends.get(name);
      if (actual != null) {
        assertEquals(end, actual, 1e-5 * Math.max(1, Math.abs(end)), "end of container " + name);
      }
    });
  }

  private static void assertStates(Map<String, double[]> expected, Map<String, double[]> actual) {
    assertEquals(expected.keySet(), actual.keySet(), "(container, type, value, depth) of states");
    expected.forEach((key, reference) -> {
      double[] ours = actual.get(key);
      assertEquals(reference[0], ours[0], () -> "number of states " + key);
      // Each printed start and end is within half a microsecond of the true date.
      double tolerance = 1e-9 * Math.abs(reference[1]) + reference[0] * PRINTED_DATE;
      assertEquals(reference[1], ours[1], tolerance, () -> "total duration " + key);
    });
  }

  /** Entries "key|date[|date]" sorted: keys equal, dates within pj_dump's printing. */
  private static void assertDates(List<String> expected, List<String> actual, String what) {
    List<String> e = sorted(expected);
    List<String> a = sorted(actual);
    assertEquals(e.size(), a.size(), what);
    for (int i = 0; i < e.size(); i++) {
      String[] x = e.get(i).split("\\|");
      String[] y = a.get(i).split("\\|");
      assertEquals(x[0], y[0], what + " #" + i);
      for (int j = 1; j < x.length; j++) {
        assertEquals(Double.parseDouble(x[j]), Double.parseDouble(y[j]), PRINTED_DATE,
            what + " " + e.get(i) + " vs " + a.get(i));
      }
    }
  }

  private static void assertVariables(Map<String, List<double[]>> expected,
      Map<String, List<double[]>> actual) {
    assertEquals(expected.keySet(), actual.keySet(), "(container, variable) pairs");
    expected.forEach((key, reference) -> {
      List<double[]> ours = actual.get(key);
      assertEquals(reference.size(), ours.size(), () -> "changes of " + key);
      for (int i = 0; i < reference.size(); i++) {
        double[] r = reference.get(i);
        double[] o = ours.get(i);
        assertEquals(r[0], o[0], PRINTED_DATE, key + " change " + i + " date");
        // pj_dump keeps values as float (24-bit mantissa) and prints them with %f.
        assertEquals(r[1], o[1], 1e-6 * Math.abs(r[1]) + 1e-6, key + " change " + i + " value");
      }
    });
  }

  private static Map<String, String> text(Map<String, List<double[]>> variables) {
    Map<String, String> text = new TreeMap<>();
    variables.forEach((k, v) -> text.put(k, v.stream().map(java.util.Arrays::toString).toList()
        .toString()));
    return text;
  }

  private static List<String> sorted(List<String> list) {
    List<String> copy = new ArrayList<>(list);
    copy.sort(null);
    return copy;
  }

  /** pj_dump's output, grouped as the comparisons need. */
  record Dump(List<String> containers, Map<String, Double> containerEnds,
      Map<String, double[]> states, List<String> events, Map<String, List<double[]>> variables,
      List<String> links) {
    static Dump parse(Path file) throws IOException {
      List<String> containers = new ArrayList<>();
      Map<String, Double> ends = new TreeMap<>();
      Map<String, double[]> states = new TreeMap<>();
      List<String> events = new ArrayList<>();
      Map<String, List<double[]>> variables = new TreeMap<>();
      List<String> links = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        String[] f = line.split(", ", -1);
        switch (f[0]) {
          case "Container" -> {
            containers.add(f[1] + " > " + f[2] + " " + f[6]);
            ends.put(f[6], Double.parseDouble(f[4]));
          }
          case "State" -> {
            double[] s = states.computeIfAbsent(
                f[1] + " " + f[2] + " " + f[7] + " depth " + (int) Double.parseDouble(f[6]),
                k -> new double[2]);
            s[0]++;
            s[1] += Double.parseDouble(f[4]) - Double.parseDouble(f[3]);
          }
          case "Event" -> events.add(f[1] + " " + f[2] + " " + f[4] + "|" + f[3]);
          case "Variable" -> variables.computeIfAbsent(f[1] + " " + f[2], k -> new ArrayList<>())
              .add(new double[] {Double.parseDouble(f[3]), Double.parseDouble(f[6])});
          case "Link" -> links.add(f[2] + " " + f[7] + " -> " + f[8] + "|" + f[3] + "|" + f[4]);
          default -> fail("unexpected pj_dump line in " + file + ": " + line);
        }
      }
      containers.sort(null);
      variables.values().forEach(v -> v.sort((a, b) -> Double.compare(a[0], b[0])));
      return new Dump(containers, ends, states, events, variables, links);
    }
  }

  /** Our import, in the shapes of {@link Dump}. */
  static final class View {
    private final MemoryTrace trace;

    View(MemoryTrace trace) {
      this.trace = trace;
    }

    String producer(int id) {
      return trace.producers.get(id).name();
    }

    List<String> containers() {
      List<String> list = new ArrayList<>();
      for (MemoryTrace.Producer p : trace.producers) {
        String parent = p.parent() < 0 ? "0" : producer(p.parent());
        list.add(parent + " > " + p.kind() + " " + p.name());
      }
      list.sort(null);
      return list;
    }

    Map<String, Double> containerEnds() {
      Map<String, Double> ends = new TreeMap<>();
      trace.producers.forEach(p -> ends.put(p.name(), trace.end));
      trace.producerEnds.forEach(e -> ends.put(producer((int) e[0]), e[1]));
      return ends;
    }

    Map<String, double[]> states() {
      Map<String, double[]> states = new TreeMap<>();
      for (MemoryTrace.State s : trace.states) {
        MemoryTrace.Type type = trace.types.get(s.type());
        double[] agg = states.computeIfAbsent(producer(s.producer()) + " " + type.group() + " "
            + type.name() + " depth " + s.depth(), k -> new double[2]);
        agg[0]++;
        agg[1] += s.end() - s.start();
      }
      return states;
    }

    List<String> events() {
      List<String> list = new ArrayList<>();
      for (MemoryTrace.Event e : trace.events) {
        MemoryTrace.Type type = trace.types.get(e.type());
        list.add(producer(e.producer()) + " " + type.group() + " " + type.name() + "|" + e.time());
      }
      return list;
    }

    Map<String, List<double[]>> variables() {
      Map<String, List<double[]>> variables = new TreeMap<>();
      for (MemoryTrace.Variable v : trace.variables) {
        variables.computeIfAbsent(producer(v.producer()) + " " + trace.types.get(v.type()).name(),
            k -> new ArrayList<>()).add(new double[] {v.time(), v.value()});
      }
      variables.values().forEach(v -> v.sort((a, b) -> Double.compare(a[0], b[0])));
      return variables;
    }

    List<String> links() {
      List<String> list = new ArrayList<>();
      for (MemoryTrace.Link l : trace.links) {
        list.add(trace.types.get(l.type()).name() + " " + producer(l.from()) + " -> "
            + producer(l.to()) + "|" + l.start() + "|" + l.end());
      }
      list.sort(null);
      return list;
    }
  }
}
