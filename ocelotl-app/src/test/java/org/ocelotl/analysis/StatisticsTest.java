package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Statistics equal a straightforward computation over pj_dump's records (the reference CSV
 * beside each SimGrid trace) on several selections, windows that cut records included; quantiles
 * equal their nearest-rank values on known distributions.
 *
 * <p>pj_dump prints times and durations with 6 decimals, the store keeps the trace's own: a
 * printed time is within 5e-7 of the stored one, so a clipped duration within 1e-6, a total of n
 * records within n·1e-6, and an order statistic of durations (printed within 5e-7) within 5e-7.
 * Record counts are exact.
 */
class StatisticsTest {
  static final Path TRACES = SharedTraces.file("paje/simgrid");
  static final double PRINTED = 5e-7;

  @TempDir static Path dir;
  static Workspace workspace;
  static Map<String, TraceStore> stores = new HashMap<>();
  static Map<String, Reference> references = new HashMap<>();

  @BeforeAll
  static void importTraces() throws IOException {
    workspace = Workspace.open(dir.resolve("ws"));
    for (String name : List.of("smpi_small_flat", "s4u_mw_small")) {
      stores.put(name, workspace.store(TRACES.resolve(name + ".trace"), ImportOptions.DEFAULT, ImportProgress.NONE));
      references.put(name, Reference.read(TRACES.resolve(name + ".pjdump.csv")));
    }
  }

  /** pj_dump's records and container tree, and the statistics computed from them by brute force. */
  record Reference(List<String[]> records, Map<String, String> parents) {
    static Reference read(Path csv) throws IOException {
      List<String[]> records = new ArrayList<>();
      Map<String, String> parents = new HashMap<>();
      for (String line : Files.readAllLines(csv)) {
        String[] f = line.split(",\\s*");
        if (f[0].equals("Container")) {
          if (!f[6].equals("0")) {
            parents.put(f[6], f[1]);
          }
        } else {
          records.add(f);
        }
      }
      return new Reference(records, parents);
    }

    /** The path below the root, as the store spells it ("nancy/nancy-c2/nancy-c2-4"). */
    String path(String container) {
      String parent = parents.get(container);
      return parent == null || parent.equals("0") ? container : path(parent) + "/" + container;
    }

    /** The container's ancestor (or itself) at depth k below the root; depth 0: itself. */
    String group(String container, int depth) {
      String[] steps = path(container).split("/");
      return depth == 0 || steps.length <= depth ? path(container) : String.join("/", Arrays.copyOf(steps, depth));
    }

    boolean inSubtrees(String container, Set<String> producers) {
      if (producers.isEmpty()) {
        return true;
      }
      for (String c = container; c != null && !c.equals("0"); c = parents.get(c)) {
        if (producers.contains(c)) {
          return true;
        }
      }
      return false;
    }

    /**
     * Per "type" or "type\tgroup": {records, total or Σ value·time, covered time, kind}; durations
     * of states per key apart.
     */
    Map<String, Figures> figures(double from, double to, Set<String> producers, Set<String> types, int depth) {
      Map<String, Figures> all = new TreeMap<>();
      for (String[] f : records) {
        String kind = f[0];
        String producer = kind.equals("Link") ? f[7] : f[1];
        String type = kind.equals("State") ? f[7] : f[2];
        double start = Double.parseDouble(f[3]);
        double end = Double.parseDouble(f[4]);
        boolean overlaps = start < to && (end > from || end == start && start >= from);
        if (!overlaps || !inSubtrees(producer, producers) || !types.isEmpty() && !types.contains(type)) {
          continue;
        }
        double clipped = Math.min(end, to) - Math.max(start, from);
        for (String key : depth < 0 ? List.of(type) : List.of(type, type + "\t" + group(producer, depth))) {
          Figures x = all.computeIfAbsent(key, k -> new Figures(kind));
          x.records++;
          if (kind.equals("Variable")) {
            double value = Double.parseDouble(f[6]);
            x.sum += value * clipped;
            x.covered += clipped;
            x.maxValue = Math.max(x.maxValue, Math.abs(value));
          } else {
            x.sum += clipped;
          }
          if (kind.equals("State")) {
            x.durations.add(Double.parseDouble(f[5]));
          }
        }
      }
      return all;
    }
  }

  static final class Figures {
    final String kind;
    long records;
    double sum;
    double covered;
    double maxValue;
    final List<Double> durations = new ArrayList<>();

    Figures(String kind) {
      this.kind = kind;
    }

    double total() {
      return kind.equals("Variable") ? sum / covered : sum;
    }

    /** How far a total may be from the store's: n·1e-6 on time sums; for a mean A/W, both A and W. */
    double tolerance() {
      return kind.equals("Variable") ? records * 2 * PRINTED * (maxValue + Math.abs(total())) / covered
          : records * 2 * PRINTED + 1e-9;
    }

    /** min, mean, median, p90, p99, max written out by their definitions. */
    double[] distribution() {
      double[] d = durations.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      int n = d.length;
      return new double[] {d[0], Arrays.stream(d).sum() / n, d[(int) Math.ceil(n * 0.5) - 1],
          d[(int) Math.ceil(n * 0.9 - 1e-9) - 1], d[(int) Math.ceil(n * 0.99 - 1e-9) - 1], d[n - 1]};
    }
  }

  static Statistics.Result stats(String trace, double from, double to, List<String> producers, List<String> types,
      String by, int top) {
    return new Statistics(stores.get(trace), from, to, producers, types, List.of(), by, top, 50, false).answer();
  }

  static void assertRow(Figures expected, Statistics.Row row, String what) {
    assertEquals(expected.records, row.records(), what + ": records");
    assertEquals(expected.total(), row.total(), expected.tolerance(), what + ": total");
    if (expected.kind.equals("State")) {
      double[] reference = expected.distribution();
      for (int k = 0; k < 6; k++) {
        assertEquals(reference[k], row.durations()[k], PRINTED + 1e-12, what + ": duration figure " + k);
      }
    } else {
      assertNull(row.durations(), what);
    }
  }

  @ParameterizedTest(name = "{0} [{1}, {2}) producers {3} types {4}")
  @CsvSource(delimiter = ';', value = {
      "smpi_small_flat; 0; 0.7; ; ",
      "smpi_small_flat; 0.1; 0.2; ; ",
      "smpi_small_flat; 0.25; 0.2500001; ; ",
      "smpi_small_flat; 0.3333; 0.5; rank-3,rank-7; PMPI_Waitall,computing,MPI_LINK",
      "smpi_small_flat; 0.05; 0.45; nancy,rank-12; ",
      "s4u_mw_small; 0; 414.1; ; ",
      "s4u_mw_small; 100.5; 290.25; nancy; ",
      "s4u_mw_small; 33.3; 33.4; w-nancy-c2-4-9,rennes; execute,speed_used"})
  void perTypeFiguresEqualPjDumps(String trace, double from, double to, String producers, String types) {
    List<String> p = producers == null ? List.of() : List.of(producers.split(","));
    List<String> t = types == null ? List.of() : List.of(types.split(","));
    Map<String, Figures> expected = references.get(trace).figures(from, to, Set.copyOf(p), Set.copyOf(t), -1);
    Statistics.Result result = stats(trace, from, to, p, t, "type", 0);
    Map<String, Statistics.Row> rows = new TreeMap<>();
    result.types().forEach(r -> rows.put(r.type(), r));
    assertEquals(expected.keySet(), rows.keySet(), "the types with records");
    Map<String, Double> kindTotals = new HashMap<>();
    for (Map.Entry<String, Figures> e : expected.entrySet()) {
      assertRow(e.getValue(), rows.get(e.getKey()), e.getKey());
      kindTotals.merge(e.getValue().kind, e.getValue().total(), Double::sum);
    }
    for (Map.Entry<String, Figures> e : expected.entrySet()) {
      Figures f = e.getValue();
      if (!f.kind.equals("Variable") && kindTotals.get(f.kind) > 0) {
        assertEquals(f.total() / kindTotals.get(f.kind), rows.get(e.getKey()).share(), 1e-5, e.getKey() + ": share");
      }
    }
    assertEquals(expected.values().stream().mapToLong(f -> f.records).sum(), result.records());
  }

  @ParameterizedTest(name = "{0} [{1}, {2}) by {3} top {4}")
  @CsvSource({
      "smpi_small_flat, 0.1, 0.45, producer, 0",
      "smpi_small_flat, 0.1, 0.45, producer, 5",
      "s4u_mw_small, 50.2, 200.7, depth:1, 0",
      "s4u_mw_small, 0, 414.1, depth:3, 4",
      "s4u_mw_small, 10, 11, depth:9, 3"})
  void perGroupFiguresEqualPjDumps(String trace, double from, double to, String by, int top) {
    Reference reference = references.get(trace);
    int depth = by.equals("producer") ? 0 : Integer.parseInt(by.substring("depth:".length()));
    Map<String, Figures> expected = reference.figures(from, to, Set.of(), Set.of(), depth);
    Statistics.Result result = stats(trace, from, to, List.of(), List.of(), by, top);
    assertTrue(result.grouped());
    for (Statistics.Row type : result.types()) {
      assertRow(expected.get(type.type()), type, type.type());
      List<Map.Entry<String, Figures>> groups = expected.entrySet().stream()
          .filter(e -> e.getKey().startsWith(type.type() + "\t")).toList();
      int shown = top == 0 ? groups.size() : Math.min(top, groups.size());
      assertEquals(groups.size() > shown ? shown + 1 : shown, type.groups().size(), type.type() + ": rows");
      double lastTotal = Double.POSITIVE_INFINITY;
      long records = 0;
      for (Statistics.Row g : type.groups().subList(0, shown)) {
        String what = type.type() + " on " + g.producer();
        assertRow(expected.get(type.type() + "\t" + g.producer()), g, what);
        assertTrue(g.total() <= lastTotal, what + ": sorted by total, descending");
        lastTotal = g.total();
        records += g.records();
      }
      for (Map.Entry<String, Figures> g : groups) {
        if (type.groups().stream().noneMatch(r -> g.getKey().equals(type.type() + "\t" + r.producer()))) {
          assertTrue(g.getValue().total() <= lastTotal + g.getValue().tolerance(), g.getKey() + " is not in the top");
        }
      }
      if (groups.size() > shown) {
        Statistics.Row others = type.groups().get(shown);
        assertEquals(Statistics.OTHERS, others.producer());
        assertEquals(groups.size() - shown, others.merged());
        assertEquals(type.records() - records, others.records(), type.type() + ": the others hold the rest");
        assertTrue(others.records() > 0);
      }
    }
  }

  /** Records per bucket by their start; those that began before the window are in none. */
  @ParameterizedTest(name = "[{0}, {1}) in {2} buckets")
  @CsvSource({"0, 0.6543031, 50", "0.03333333, 0.53333333, 7", "0.1000003, 0.1200003, 1"})
  void densityCountsStartsPerBucket(double from, double to, int buckets) {
    long[] expected = new long[buckets];
    for (String[] f : references.get("smpi_small_flat").records()) {
      double start = Double.parseDouble(f[3]);
      if (start >= from && start < to) {
        expected[(int) Math.floor((start - from) / (to - from) * buckets)]++;
      }
    }
    long[] density = new Statistics(stores.get("smpi_small_flat"), from, to, List.of(), List.of(), List.of(), "type", 0,
        buckets, false).answer().density();
    assertArrayEquals(expected, density);
  }

  /**
   * A trace drawn by hand: producer a has states x lasting 1, 2, …, 100 one after the other
   * (x_k in [k(k−1)/2, k(k+1)/2)), b has ten states y lasting 10, 20, …, 100 from time 0, and 3
   * events e at 0.5, 1.5, 2.5 on a.
   */
  static Path handDrawn() throws IOException {
    StringBuilder t = new StringBuilder(String.join("\n",
        "%EventDef PajeDefineContainerType 0", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeCreateContainer 1", "% Time date", "% Alias string", "% Type string", "% Container string",
        "% Name string", "%EndEventDef",
        "%EventDef PajeDefineStateType 2", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeSetState 3", "% Time date", "% Type string", "% Container string", "% Value string",
        "%EndEventDef",
        "%EventDef PajeDefineEventType 4", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeNewEvent 5", "% Time date", "% Type string", "% Container string", "% Value string",
        "%EndEventDef",
        "0 P 0 \"Process\"", "2 S P \"State\"", "4 E P \"Event\"", "1 0.0 a P 0 \"a\"", "1 0.0 b P 0 \"b\"", ""));
    List<String[]> lines = new ArrayList<>();
    for (int k = 1; k <= 100; k++) {
      lines.add(new String[] {String.valueOf(k * (k - 1) / 2), "3 %s S a x"});
    }
    lines.add(new String[] {"5050", "3 %s S a idle"});
    for (int k = 0; k <= 10; k++) {
      lines.add(new String[] {String.valueOf(5 * k * (k + 1)), k < 10 ? "3 %s S b y" : "3 %s S b idle"});
    }
    for (String time : List.of("0.5", "1.5", "2.5")) {
      lines.add(new String[] {time, "5 %s E a e"});
    }
    lines.sort((u, v) -> Double.compare(Double.parseDouble(u[0]), Double.parseDouble(v[0])));
    for (String[] l : lines) {
      t.append(String.format(l[1], l[0])).append('\n');
    }
    Path file = dir.resolve("hand.trace");
    Files.writeString(file, t);
    return file;
  }

  /**
   * OTF2: per region, the count and total duration of its states over the whole trace equal those
   * of otf2-print's ENTER/LEAVE pairs, and so does the longest. Pairs as the reader forms them: per
   * location a stack, a LEAVE closing the innermost open region (this EZTrace archive leaves
   * "Working" while "EZTrace finalize" is open), what is still open closed at the location's last
   * timestamp. Those are inclusive times; the exclusive ones (the default) equal, per region, the
   * time during which it is the innermost open region of its location, and they add up to the
   * time some region is open: nested regions (MPI calls inside "Working") are counted once.
   */
  @Test
  void otf2StatesEqualOtf2PrintsEnterLeavePairs() throws IOException {
    Path archive = SharedTraces.file("otf2/ez_mpi4");
    TraceStore store = workspace.store(archive.resolve("eztrace_log.otf2"), ImportOptions.DEFAULT, ImportProgress.NONE);
    Map<String, long[]> expected = new java.util.TreeMap<>(); // region → count, total ticks, longest
    Map<String, java.util.ArrayDeque<Object[]>> open = new HashMap<>();
    Map<String, Long> lastTime = new HashMap<>();
    Map<String, Long> innermost = new java.util.TreeMap<>(); // region → ticks as the innermost open region
    java.util.function.BiConsumer<Object[], Long> close = (entered, time) -> {
      long d = time - (Long) entered[1];
      long[] figures = expected.computeIfAbsent((String) entered[0], k -> new long[3]);
      figures[0]++;
      figures[1] += d;
      figures[2] = Math.max(figures[2], d);
    };
    for (String line : Files.readAllLines(archive.resolve("eztrace_log.print.txt"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4 || !(f[0].equals("ENTER") || f[0].equals("LEAVE"))) {
        continue;
      }
      long time = Long.parseLong(f[2]);
      String region = line.substring(line.indexOf('"') + 1, line.lastIndexOf('"'));
      java.util.ArrayDeque<Object[]> stack = open.computeIfAbsent(f[1], k -> new java.util.ArrayDeque<>());
      if (!stack.isEmpty()) {
        innermost.merge((String) stack.peek()[0], time - lastTime.get(f[1]), Long::sum);
      }
      lastTime.put(f[1], time);
      if (f[0].equals("ENTER")) {
        stack.push(new Object[] {region, time});
      } else {
        close.accept(stack.pop(), time);
      }
    }
    open.forEach((location, stack) -> stack.forEach(entered -> close.accept(entered, lastTime.get(location))));
    Statistics.Result result = new Statistics(store, Double.NaN, Double.NaN, List.of(), List.of(expected.keySet().toArray(String[]::new)),
        List.of("state"), "type", 0, 50, true).answer();
    Map<String, long[]> got = new java.util.TreeMap<>();
    for (Statistics.Row row : result.types()) {
      got.put(row.type(), new long[] {row.records(), Math.round(row.total()), Math.round(row.durations()[5])});
    }
    assertEquals(expected.keySet(), got.keySet());
    for (String region : expected.keySet()) {
      assertEquals(java.util.Arrays.toString(expected.get(region)), java.util.Arrays.toString(got.get(region)),
          region + ": count, total ticks, longest");
    }
    Statistics.Result exclusive = new Statistics(store, Double.NaN, Double.NaN, List.of(), List.of(), List.of("state"),
        "type", 0, 50, false).answer();
    Map<String, Long> exclusiveTicks = new java.util.TreeMap<>();
    double shares = 0;
    for (Statistics.Row row : exclusive.types()) {
      // A region holding a collective record is typed by its operation (MPI_ALLREDUCE for a call of
      // MPI_Allreduce): one region of otf2-print, two types of the store; their ticks are the region's.
      String region = expected.keySet().stream().filter(r -> r.equalsIgnoreCase(row.type())).findFirst()
          .orElse(row.type());
      exclusiveTicks.merge(region, Math.round(row.total()), Long::sum);
      shares += row.share();
    }
    expected.keySet().forEach(region -> innermost.putIfAbsent(region, 0L));
    assertEquals(innermost, exclusiveTicks, "exclusive ticks per region");
    assertEquals(1, shares, 1e-12);
    long covered = innermost.values().stream().mapToLong(Long::longValue).sum();
    assertEquals(covered, Math.round(exclusive.types().stream().mapToDouble(Statistics.Row::total).sum()));
    Statistics.Row working = exclusive.types().stream().filter(r -> r.type().equals("Working")).findFirst().orElseThrow();
    assertTrue(working.total() < got.get("Working")[1], "Working's exclusive time leaves out the MPI calls in it");
  }

  /**
   * Exclusive times by brute force on seeded random Pajé traces of pushed and popped states (up to
   * 4 deep, zero-length ones included, integer times so that sums are exact): per type, the time
   * during which it is on top of a producer's stack, inside the window; per producer the same, for
   * the least and most of each type across producers; and inclusive times, each state's own.
   */
  @ParameterizedTest
  @CsvSource({"1, 0, 1000", "2, 13, 77", "3, 40.5, 41.5", "4, 0, 5"})
  void exclusiveTimesOfNestedStatesAreTheTopOfTheStacks(long seed, double from, double to) throws IOException {
    java.util.Random random = new java.util.Random(seed);
    String[] producers = {"a", "b", "c"};
    String[] values = {"w", "m", "x", "y"};
    StringBuilder t = new StringBuilder(String.join("\n",
        "%EventDef PajeDefineContainerType 0", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajeCreateContainer 1", "% Time date", "% Alias string", "% Type string", "% Container string",
        "% Name string", "%EndEventDef",
        "%EventDef PajeDefineStateType 2", "% Alias string", "% Type string", "% Name string", "%EndEventDef",
        "%EventDef PajePushState 6", "% Time date", "% Type string", "% Container string", "% Value string",
        "%EndEventDef",
        "%EventDef PajePopState 7", "% Time date", "% Type string", "% Container string", "%EndEventDef",
        "0 P 0 \"Process\"", "2 S P \"State\"", "1 0 a P 0 \"a\"", "1 0 b P 0 \"b\"", "1 0 c P 0 \"c\"", ""));
    List<long[]> events = new ArrayList<>(); // time, producer, value (-1: pop), order
    Map<String, double[]> exclusive = new TreeMap<>(); // type → per producer
    Map<String, Double> inclusive = new TreeMap<>();
    boolean[] present = new boolean[producers.length]; // with a state in the window
    for (int p = 0; p < producers.length; p++) {
      java.util.ArrayDeque<long[]> stack = new java.util.ArrayDeque<>(); // value, start
      long time = 0;
      for (int step = 0; step < 80 || !stack.isEmpty(); step++) {
        long next = time + random.nextInt(4);
        if (!stack.isEmpty()) {
          String top = values[(int) stack.peek()[0]];
          double inside = Math.min(next, to) - Math.max(time, from);
          exclusive.computeIfAbsent(top, k -> new double[producers.length])[p] += Math.max(0, inside);
        }
        time = next;
        boolean push = step < 80 && stack.size() < 4 && (stack.isEmpty() || random.nextBoolean());
        if (push) {
          int v = random.nextInt(values.length);
          stack.push(new long[] {v, time});
          events.add(new long[] {time, p, v, events.size()});
        } else {
          long[] popped = stack.pop();
          String type = values[(int) popped[0]];
          boolean touches = popped[1] < to && (time > from || time == from && popped[1] == time);
          inclusive.merge(type, touches ? Math.min(time, to) - Math.max(popped[1], from) : 0.0, Double::sum);
          present[p] |= touches;
          exclusive.computeIfAbsent(type, k -> new double[producers.length]);
          events.add(new long[] {time, p, -1, events.size()});
        }
      }
    }
    events.sort(java.util.Comparator.comparingLong((long[] e) -> e[0]).thenComparingLong(e -> e[3]));
    for (long[] e : events) {
      t.append(e[2] >= 0 ? "6 " + e[0] + " S " + producers[(int) e[1]] + " " + values[(int) e[2]]
          : "7 " + e[0] + " S " + producers[(int) e[1]]).append('\n');
    }
    Path file = dir.resolve("nested" + seed + ".trace");
    Files.writeString(file, t);
    TraceStore store = workspace.store(file, ImportOptions.DEFAULT, ImportProgress.NONE);

    Statistics.Result result = new Statistics(store, from, to, List.of(), List.of(), List.of("state"), "type", 0, 50,
        false).answer();
    Map<String, Double> totals = new TreeMap<>();
    for (Statistics.Row row : result.types()) {
      totals.put(row.type(), row.total());
      double[] perProducer = exclusive.get(row.type());
      double least = Double.POSITIVE_INFINITY;
      double most = Double.NEGATIVE_INFINITY;
      for (int p = 0; p < producers.length; p++) {
        least = present[p] ? Math.min(least, perProducer[p]) : least;
        most = present[p] ? Math.max(most, perProducer[p]) : most;
      }
      assertEquals(least, row.producerMin(), row.type() + ": least, seed " + seed);
      assertEquals(most, row.producerMax(), row.type() + ": most, seed " + seed);
    }
    Map<String, Double> expected = new TreeMap<>();
    exclusive.forEach((type, perProducer) -> {
      if (totals.containsKey(type)) {
        expected.put(type, Arrays.stream(perProducer).sum());
      }
    });
    assertEquals(expected, totals, "exclusive, seed " + seed);
    assertEquals(expected.get("x"), new Statistics(store, from, to, List.of(), List.of("x"), List.of("state"), "type",
        0, 50, false).answer().types().get(0).total(), "x alone: the states around and in it are still read");

    Map<String, Double> inclusiveTotals = new TreeMap<>();
    new Statistics(store, from, to, List.of(), List.of(), List.of("state"), "type", 0, 50, true).answer().types()
        .forEach(row -> inclusiveTotals.put(row.type(), row.total()));
    inclusive.keySet().retainAll(inclusiveTotals.keySet());
    assertEquals(inclusive, inclusiveTotals, "inclusive, seed " + seed);
  }

  @Test
  void quantilesOfKnownDistributionsAreTheirNearestRanks() throws IOException {
    TraceStore store = workspace.store(handDrawn(), ImportOptions.DEFAULT, ImportProgress.NONE);
    Statistics.Result result = new Statistics(store, 0, 5050, List.of("a"), List.of("x"), List.of(), "type", 0, 50, false)
        .answer();
    Statistics.Row x = result.types().get(0);
    assertEquals(100, x.records());
    assertEquals(5050.0, x.total());
    assertArrayEquals(new double[] {1, 50.5, 50, 90, 99, 100}, x.durations());
    // b's ten states: ⌈0.5·10⌉ = 5th, ⌈0.9·10⌉ = 9th, ⌈0.99·10⌉ = 10th.
    Statistics.Row y = new Statistics(store, 0, 550, List.of(), List.of("y"), List.of(), "type", 0, 50, false).answer()
        .types().get(0);
    assertArrayEquals(new double[] {10, 55, 50, 90, 100, 100}, y.durations());
    // A window [100, 200) cuts x_14 [91, 105) and x_20 [190, 210), and y_5 [150, 210): totals are
    // the time inside it; durations stay the states' own.
    Statistics.Result cut = new Statistics(store, 100, 200, List.of(), List.of(), List.of(), "producer", 1, 4, false).answer();
    Statistics.Row xCut = cut.types().stream().filter(r -> r.type().equals("x")).findFirst().orElseThrow();
    assertEquals(100.0, xCut.total());
    assertEquals(7, xCut.records(), "x_14 … x_20");
    assertArrayEquals(new double[] {14, 17, 17, 20, 20, 20}, xCut.durations());
    Statistics.Row yCut = cut.types().stream().filter(r -> r.type().equals("y")).findFirst().orElseThrow();
    assertEquals(100.0, yCut.total(), "y_4 [100, 150) and y_5 [150, 210)");
    assertEquals(0.5, xCut.share());
    assertEquals(List.of("a"), xCut.groups().stream().map(Statistics.Row::producer).toList());
    assertArrayEquals(new long[] {3, 1, 3, 1}, cut.density(), "starts 100, 105, 120 | 136 | 150, 153, 171 | 190");
    // Events count once each; top 1 of two groups leaves one "(others)".
    Statistics.Result events = new Statistics(store, 1, 3, List.of(), List.of(), List.of("event"), "type", 0, 2, false)
        .answer();
    assertEquals(2.0, events.types().get(0).total());
    assertEquals(1.0, events.types().get(0).share());
    // a's idle is an instant at 5050, b's lasts [550, 5050).
    Statistics.Result twoGroups = new Statistics(store, 0, 5051, List.of(), List.of("idle", "x", "y"), List.of("state"),
        "producer", 1, 50, false).answer();
    Statistics.Row idle = twoGroups.types().stream().filter(r -> r.type().equals("idle")).findFirst().orElseThrow();
    assertEquals(List.of("b", Statistics.OTHERS), idle.groups().stream().map(Statistics.Row::producer).toList());
    assertEquals(4500.0, idle.groups().get(0).total());
    assertEquals(1, idle.groups().get(1).records());
    assertArrayEquals(new double[] {0, 0, 0, 0, 0, 0}, idle.groups().get(1).durations());
  }

  @Test
  void badInputIsRefusedNamingTheParameter() {
    TraceStore store = stores.get("smpi_small_flat");
    List<String> none = List.of();
    assertEquals("unknown producer 'nope'", refused(new Statistics(store, 0, 1, List.of("nope"), none, none, "type", 0, 50, false)));
    assertEquals("unknown type 'nope'", refused(new Statistics(store, 0, 1, none, List.of("nope"), none, "type", 0, 50, false)));
    assertEquals("the window needs from < to, got from = 0.5, to = 0.2",
        refused(new Statistics(store, 0.5, 0.2, none, none, none, "type", 0, 50, false)));
    assertEquals("by: expected type, producer or depth:K (K ≥ 1), got 'depth:0'",
        refused(new Statistics(store, 0, 1, none, none, none, "depth:0", 0, 50, false)));
    assertEquals("by: expected type, producer or depth:K (K ≥ 1), got 'host'",
        refused(new Statistics(store, 0, 1, none, none, none, "host", 0, 50, false)));
    assertEquals("top: only with by producer or depth:K, where rows are groups",
        refused(new Statistics(store, 0, 1, none, none, none, "type", 3, 50, false)));
    assertEquals("buckets must be 1 to 10000, got 0", refused(new Statistics(store, 0, 1, none, none, none, "type", 0, 0, false)));
    assertEquals("kind: expected state, event, variable or link, got 'frame'",
        refused(new Statistics(store, 0, 1, none, none, List.of("frame"), "type", 0, 50, false)));
  }

  private static String refused(Statistics request) {
    return assertThrows(IllegalArgumentException.class, request::answer).getMessage();
  }
}
