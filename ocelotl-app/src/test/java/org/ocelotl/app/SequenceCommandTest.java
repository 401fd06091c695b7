package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.testing.SharedTraces;

/**
 * Pattern search on real traces ({@code ocelotl events --sequence}, docs/analysis.md#sequences),
 * its occurrences equal to those found in the independent readers' output by the documented rule:
 * otf2-print's ENTER/LEAVE lines of the EZTrace MPI run (4 ranks: "Working" around the MPI calls),
 * and pj_dump's states of the SimGrid stencil (16 ranks, simultaneous zero-length calls).
 */
class SequenceCommandTest {
  static final Path EZTRACE = SharedTraces.file("otf2/ez_mpi4");
  static final Path SIMGRID = ExportCommandTest.SMALL;

  @TempDir Path tmp;

  /** A state as an independent reader gives it: its producer, type, times, depth and place in the output. */
  record State(String producer, String type, double start, double end, int depth, int order) {}

  private String ok(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--workspace", tmp.resolve("ws").toString()));
    CliTest.Result r = CliTest.run(all.toArray(String[]::new));
    assertEquals(0, r.status(), String.join(" ", args) + ": " + r.err());
    return r.out();
  }

  /**
   * The occurrences by the documented rule: each producer's states by start, depth, then the
   * reader's order; a run of consecutive states whose types are the steps, lasting at most
   * {@code within}; the earliest kept, the search resumed after it. As "producer start end" lines.
   */
  static List<String> occurrences(List<State> states, List<String> steps, double within,
      java.util.function.DoubleFunction<String> time) {
    Map<String, List<State>> streams = new TreeMap<>();
    states.forEach(s -> streams.computeIfAbsent(s.producer(), k -> new ArrayList<>()).add(s));
    List<String> found = new ArrayList<>();
    streams.forEach((producer, stream) -> {
      stream.sort(Comparator.comparingDouble(State::start).thenComparingInt(State::depth)
          .thenComparingInt(State::order));
      int i = 0;
      while (i + steps.size() <= stream.size()) {
        boolean match = true;
        double end = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < steps.size(); j++) {
          match &= stream.get(i + j).type().equals(steps.get(j));
          end = Math.max(end, stream.get(i + j).end());
        }
        if (match && end - stream.get(i).start() <= within) {
          found.add(producer + " " + time.apply(stream.get(i).start()) + " " + time.apply(end));
          i += steps.size();
        } else {
          i++;
        }
      }
    });
    found.sort(null);
    return found;
  }

  /** otf2-print's regions as states, a location's name being its ranks's number as the store spells it. */
  static List<State> otf2PrintStates() throws IOException {
    List<State> states = new ArrayList<>();
    Map<String, ArrayDeque<Object[]>> open = new HashMap<>();
    for (String line : Files.readAllLines(EZTRACE.resolve("eztrace_log.print.txt"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4 || !(f[0].equals("ENTER") || f[0].equals("LEAVE"))) {
        continue;
      }
      long time = Long.parseLong(f[2]);
      ArrayDeque<Object[]> stack = open.computeIfAbsent(f[1], k -> new ArrayDeque<>());
      if (f[0].equals("ENTER")) {
        stack.push(new Object[] {line.substring(line.indexOf('"') + 1, line.lastIndexOf('"')), time});
      } else {
        Object[] entered = stack.pop();
        states.add(new State(f[1], (String) entered[0], (Long) entered[1], time, stack.size(), states.size()));
      }
    }
    return states;
  }

  /** The occurrences the command prints (CSV), as "producer start end" lines, the producer by its rank's index. */
  private List<String> printed(String csv, java.util.function.Function<String, String> producer,
      java.util.function.DoubleFunction<String> time) {
    List<String> found = new ArrayList<>();
    csv.lines().skip(1).forEach(line -> {
      String[] f = line.split(",");
      found.add(producer.apply(f[0]) + " " + time.apply(Double.parseDouble(f[1])) + " "
          + time.apply(Double.parseDouble(f[2])));
    });
    found.sort(null);
    return found;
  }

  /**
   * The EZTrace run: rank r's location is P#rT#0, otf2-print's location id its order among the
   * four (the ids grow with the rank). Times are ticks (ns), exact in both.
   */
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "MPI_Isend,MPI_Waitall; ; 2000",
      "MPI_Isend,MPI_Waitall; 12ms; 1842",
      "MPI_Irecv,MPI_Irecv,MPI_Isend,MPI_Isend,MPI_Waitall; 12ms; 1833",
      "MPI_Waitall,MPI_Irecv; 1ms; 863",
      "Working,MPI_Barrier; ; 4",
      "MPI_Isend,MPI_Isend; ; 2000",
      "MPI_Isend; 40us; 3995"})
  void eztraceOccurrencesAreOtf2PrintsOccurrences(String sequence, String within, long count) throws IOException {
    List<String> steps = List.of(sequence.split(","));
    double bound = within == null ? Double.POSITIVE_INFINITY
        : Double.parseDouble(within.replaceAll("[a-z]+$", "")) * (within.endsWith("ms") ? 1e6 : 1e3);
    List<State> states = otf2PrintStates();
    List<String> locations = states.stream().map(State::producer).distinct().sorted(
        Comparator.comparingLong(Long::parseLong)).toList();
    List<String> expected = occurrences(states, steps, bound, t -> String.valueOf((long) t)).stream()
        .map(line -> "P#" + locations.indexOf(line.substring(0, line.indexOf(' '))) + line.substring(line.indexOf(' ')))
        .sorted().toList();
    List<String> args = new ArrayList<>(List.of("events", EZTRACE.resolve("eztrace_log.otf2").toString(), "--sequence",
        sequence, "--limit", "10000"));
    if (within != null) {
      args.addAll(List.of("--within", within));
    }
    List<String> got = printed(ok(args.toArray(String[]::new)), p -> p.substring(0, p.indexOf('/')),
        t -> String.valueOf((long) t));
    assertEquals(count, expected.size(), "otf2-print's count");
    assertEquals(expected, got);
  }

  /**
   * The SimGrid stencil: each iteration's Irecv, Irecv, Isend, Isend are zero-length states at one
   * instant, in the trace's order; pj_dump lists them in that order, with 6 decimals (compared at
   * those).
   */
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "PMPI_Irecv,PMPI_Isend; ; 320",
      "PMPI_Isend,PMPI_Waitall; ; 320",
      "PMPI_Irecv,PMPI_Irecv,PMPI_Isend,PMPI_Isend,PMPI_Waitall,computing; ; 320",
      "PMPI_Waitall,computing; 0.025; 48",
      "PMPI_Init,PMPI_Barrier; ; 16"})
  void simgridOccurrencesArePjDumpsOccurrences(String sequence, String within, long count) throws IOException {
    List<State> states = new ArrayList<>();
    for (String line : Files.readAllLines(SIMGRID.resolveSibling("smpi_small_flat.pjdump.csv"))) {
      String[] f = line.split(",\\s*");
      if (f[0].equals("State")) {
        states.add(new State(f[1], f[7], Double.parseDouble(f[3]), Double.parseDouble(f[4]),
            (int) Double.parseDouble(f[6]), states.size()));
      }
    }
    java.util.function.DoubleFunction<String> six = t -> String.format(java.util.Locale.ROOT, "%.6f", t);
    List<String> expected = occurrences(states, List.of(sequence.split(",")),
        within == null ? Double.POSITIVE_INFINITY : Double.parseDouble(within), six);
    List<String> args = new ArrayList<>(List.of("events", SIMGRID.toString(), "--sequence", sequence, "--limit",
        "10000"));
    if (within != null) {
      args.addAll(List.of("--within", within));
    }
    assertEquals(count, expected.size(), "pj_dump's count");
    assertEquals(expected, printed(ok(args.toArray(String[]::new)), p -> p, six));
  }

  /**
   * The occurrences saved as a selection: the producers where the sequence occurs and the window
   * spanning its occurrences; the same search on the selection finds them all again.
   */
  @Test
  void occurrencesBecomeASavedSelection() {
    String trace = EZTRACE.resolve("eztrace_log.otf2").toString();
    String all = ok("events", trace, "--sequence", "MPI_Waitall,MPI_Allreduce", "--within", "20ms", "--json",
        "--limit", "10000");
    Map<?, ?> answer = (Map<?, ?>) PlainJson.parse(all);
    List<?> occurrences = (List<?>) answer.get("occurrences");
    double first = occurrences.stream().mapToDouble(o -> ((Number) ((Map<?, ?>) o).get("start")).doubleValue()).min()
        .orElseThrow();
    double last = occurrences.stream().mapToDouble(o -> ((Number) ((Map<?, ?>) o).get("end")).doubleValue()).max()
        .orElseThrow();
    List<String> producers = occurrences.stream().map(o -> (String) ((Map<?, ?>) o).get("producer")).distinct()
        .sorted().toList();
    assertTrue(occurrences.size() > 10 && producers.size() > 1, all.substring(0, 300));
    String saved = ok("selection", "save", "waits", trace, "--sequence", "MPI_Waitall,MPI_Allreduce", "--within", "20ms",
        "--note", "slow reductions");
    assertTrue(saved.startsWith("saved waits: [" + first + ", " + last + ") · producers: "
        + String.join(",", producers) + " · types: all · rule: producers where the sequence MPI_Waitall,MPI_Allreduce "
        + "occurs within 2.0E7, the window spanning its occurrences"), saved);
    Map<?, ?> rule = (Map<?, ?>) ((Map<?, ?>) PlainJson.parse(ok("selection", "show", "waits", trace, "--json")))
        .get("rule");
    assertEquals(Map.of("kind", "sequence", "types", List.of("MPI_Waitall", "MPI_Allreduce"), "longest", 2.0E7,
        "within", List.of()), rule);
    Map<?, ?> again = (Map<?, ?>) PlainJson.parse(ok("events", trace, "--selection", "waits", "--sequence",
        "MPI_Waitall,MPI_Allreduce", "--within", "20ms", "--json", "--limit", "10000"));
    assertEquals(occurrences, again.get("occurrences"));
  }

  @Test
  void badSequencesAreOneLine() {
    String trace = SIMGRID.toString();
    for (String[] c : new String[][] {
        {"ocelotl: sequence: unknown type 'PMPI_Wait'\n", "--sequence", "PMPI_Isend,PMPI_Wait"},
        {"ocelotl: --within: bounds a sequence's occurrences; give the sequence too\n", "--within", "3ms"},
        {"ocelotl: --within: expected a duration ≥ 0, found -1\n", "--sequence", "PMPI_Isend", "--within", "-1"},
        {"ocelotl: sort: occurrences sort by start, end, duration or producer, not type\n", "--sequence", "PMPI_Isend",
            "--sort", "type"},
        {"ocelotl: a sequence is searched among states and events, not links\n", "--sequence", "PMPI_Isend", "--kind",
            "state,link"},
        {"ocelotl: sequence: 'PMPI_Isend' is a state type, and kind leaves those out\n", "--sequence", "PMPI_Isend",
            "--kind", "event"}}) {
      List<String> args = new ArrayList<>(List.of("events", trace, "--workspace", tmp.resolve("ws").toString()));
      args.addAll(List.of(c).subList(1, c.length));
      CliTest.Result r = CliTest.run(args.toArray(String[]::new));
      assertEquals(1, r.status(), String.join(" ", args));
      assertEquals(c[0], r.err(), String.join(" ", args));
    }
  }
}
