package org.ocelotl.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.ocelotl.model.EventCategory;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * The code of the page's first requests run in the background when a server starts, so that the
 * user's first Gantt chart, event table page, statistics and zoom run code the JIT has already
 * compiled (decisions 063, 065 and 070): in a fresh server each of them cost 1.5 to 3 times the CPU
 * of the next ones, nearly all of it the JIT compiling and the interpreter running what only that
 * request runs.
 *
 * <p>First, the charts of a small synthetic trace, made here in a temporary directory deleted at
 * the end. It has {@value #RANKS} ranks (4 sites › 4 hosts › 4 ranks) of {@value #STATES_PER_RANK}
 * back-to-back states of three types over about {@value #DURATION} s, and a Gantt summary of
 * 2<sup>{@value #FINEST}</sup> buckets, so that its charts take every path a chart of the states
 * takes: rows of several ranks from the summary and from the scan kernel, rows of one rank record by
 * record, as the page's SVG and as JSON; their small times and shares in seconds also take the
 * number-writing branches a long trace's charts may not.
 *
 * <p>Then, when the server is started on a trace ({@code ocelotl view TRACE}; {@code ocelotl serve}
 * does not know yet which one the user opens), the page's own requests of that trace, in two places
 * of it ({@link #servedWindows}): {@value #SERVED_ROUNDS} Gantt charts of a tenth of the trace —
 * every producer, states, events and links, the page's size — then, on a hundredth, the event
 * table's first page and the statistics in each place, and a zoom (its first answer, at the window's default p then at
 * that p, as the page asks it), and last, once the compilations these queued are over, the page's
 * chart of each place again ({@link #lastCharts}); the code then compiles for the served trace's
 * producers, types, summary level and shapes, which the synthetic charts only approach (after them
 * alone, the first real chart deoptimised and recompiled much of what they had compiled). Nothing
 * is kept: the warm-up opens the store apart, its zooms have an analysis service and a model cache
 * of their own that write nothing, and the user's requests are answered with the same bytes.
 *
 * <p>A step (one request) runs only while the server answers nothing ({@code idle}): a request
 * that arrives meanwhile waits for one step at most, not for the warm-up; a zoom, the longest step,
 * stops as soon as a request arrives and is run again at the next idle moment.
 */
public final class WarmUp {
  static final int RANKS = 64;
  static final int STATES_PER_RANK = 400;
  static final double DURATION = 10;
  /**
   * 1,024 buckets: a chart of the whole trace {@value #WIDTH} px wide reads the finest level, as a
   * 1 s window of a seed-scale trace does.
   */
  static final int FINEST = 10;
  static final int WIDTH = 300;
  /** 64 ranks in 100 px: rows of several ranks, the summary's. */
  static final int HEIGHT = 100;
  /** Rounds of every chart: more did not make the first chart cheaper (decision 063's figures). */
  static final int ROUNDS = 2;
  /** Charts of the served trace, 3 of each window: each costs about what a user's chart does (decision 065). */
  static final int SERVED_ROUNDS = 6;
  /** The served trace's charts drawn again at the end, one in each window (decision 074). */
  static final int LAST_CHARTS = 2;
  /** Below this share of one core over a step, the process is quiet: its compilations are over. */
  static final int QUIET_CPU_PERCENT = 5;
  static final long QUIET_STEP_MILLIS = 100;
  /** The wait for quiet is bounded: under a long request or another load the last charts are drawn anyway. */
  static final long QUIET_MAX_MILLIS = 10_000;
  /** The served trace's charts each show a tenth of it (decision 065). */
  static final double CHART_SPAN = 0.1;
  /**
   * The event tables and the zoom each look at a hundredth of the served trace (2·10⁶ states of a
   * 2·10⁸-state trace): enough records for the JIT to compile their scans as a user's window does;
   * they cost in proportion to the records read. A zoom's qualities cost as much on any window: one
   * zoom. The statistics too: taken out when their page faults made the first call dear whatever
   * was compiled (decision 070), put back once an answer allocated a third as much (decisions 073, 075).
   */
  static final double TABLE_SPAN = 0.01;
  /** The page's chart when it cannot measure its box (details.js): 1000 × 420 px. */
  static final int PAGE_WIDTH = 1000;
  static final int PAGE_HEIGHT = 420;
  /** What the page's chart shows unless the user unticks a kind (details.js). */
  static final List<String> PAGE_KINDS = List.of("state", "event", "link");
  /** {@code -Docelotl.warmUp=false}: no warm-up, to measure what it saves (bench/gantt_first.sh). */
  static final String PROPERTY = "ocelotl.warmUp";
  /** The page's event table (details.js): its first page of states, the longest first. */
  static final Map<String, String> PAGE_EVENTS = Map.of(RequestSpec.KIND.name(), "state",
      RequestSpec.SORT.name(), "-duration", RequestSpec.OFFSET.name(), "0", RequestSpec.LIMIT.name(), "100");
  /** The page's statistics (stats.js): by producer, the top 10. */
  static final Map<String, String> PAGE_STATS = Map.of(RequestSpec.BY.name(), "producer", RequestSpec.TOP.name(), "10");
  /** The page's overview of a window (overview.js, bench/zoom_first_api.py): spatiotemporal, its mode view. */
  static final Map<String, String> PAGE_ZOOM = Map.of(RequestSpec.AGGREGATION.name(), "spatiotemporal",
      RequestSpec.VIEW.name(), "mode", RequestSpec.SLICES.name(), "100", RequestSpec.DEPTH.name(), "0",
      RequestSpec.HEIGHT.name(), "800");
  private static final long SEED = 63;

  private WarmUp() {}

  /**
   * Starts the warm-up on a daemon thread of the lowest priority (which Linux ignores by default:
   * hence the steps gated by {@code idle}); it gives up silently on any failure (a full temporary
   * directory, say): it only ever saves time. None when {@value #PROPERTY} is false.
   *
   * @param idle    whether the server answers nothing now: a step waits for it
   * @param picture the front end's drawing of a chart (the page's SVG): this layer renders nothing
   * @param served  the trace the server was started on, whose charts are drawn after the synthetic
   *                trace's; null: those alone
   */
  public static void start(BooleanSupplier idle, Consumer<GanttView.Result> picture, TraceStore served) {
    if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
      return;
    }
    Thread thread = new Thread(() -> {
      try {
        warmUp(idle, picture, served, WarmUp::processCpuNanos);
      } catch (RuntimeException e) {
        // Nothing lost but time: the user's first chart is then compiled as it runs. (That the
        // steps run at all is WarmUpTest's; a server's log is no place for their trace.)
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "ocelotl-warm-up");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
  }

  /**
   * The synthetic trace's charts, then the served trace's requests (if any): the warm-up thread's
   * work. {@code cpu} is the process's CPU time in ns, by which the last charts wait for the
   * compilations to be over (-1: no reading, no wait).
   */
  static void warmUp(BooleanSupplier idle, Consumer<GanttView.Result> picture, TraceStore served,
      java.util.function.LongSupplier cpu) throws InterruptedException {
    try {
      synthetic(idle, picture);
    } catch (IOException | RuntimeException e) {
      // A full temporary directory, say: the served trace's requests are still worth running.
    }
    if (served != null) {
      draw(servedCharts(served), idle, picture);
      run(servedTables(served), idle);
      run(servedZooms(served, idle), idle);
      // The page's chart once more in each window, after the other steps and once the compilations
      // they queued are over (decision 074): see LAST_CHARTS.
      waitForQuiet(cpu, QUIET_STEP_MILLIS, QUIET_MAX_MILLIS);
      draw(lastCharts(served), idle, picture);
    }
  }

  /**
   * Waits until the process spends less than {@value #QUIET_CPU_PERCENT} % of one core over a step
   * of {@code stepMillis} (the compiler threads have emptied their queue), at most {@code maxMillis};
   * returns the steps waited. Without a reading of the process's CPU ({@code cpu} gives -1), none.
   */
  static int waitForQuiet(java.util.function.LongSupplier cpu, long stepMillis, long maxMillis)
      throws InterruptedException {
    int steps = 0;
    long before = cpu.getAsLong();
    while (before >= 0 && steps * stepMillis < maxMillis) {
      Thread.sleep(stepMillis);
      steps++;
      long now = cpu.getAsLong();
      if ((now - before) * 100 < QUIET_CPU_PERCENT * stepMillis * 1_000_000L) {
        break;
      }
      before = now;
    }
    return steps;
  }

  /** The process's CPU time in ns, -1 where the JVM does not say. */
  private static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
  }

  /**
   * The served trace's last charts: the page's chart of each of its {@link #servedWindows}, drawn
   * after the tables and the zoom, once the process is quiet. The JDK's stream and fork/join code
   * the chart shares with the zoom had last been compiled for the zoom's types, and was deoptimised
   * and compiled again inside a server's first chart (10–16 deoptimisations in its first 150 ms,
   * decision 074's JFR); drawn here, it is compiled again for both. Quiet first: while the warm-up
   * keeps the compiler's queue long the JIT raises its thresholds, and what crossed them only at
   * the user's first chart was compiled there (the chart's geometry, 0.24 s of C2, in one run).
   */
  static List<Supplier<GanttView.Result>> lastCharts(TraceStore store) {
    return servedCharts(store).subList(0, LAST_CHARTS);
  }

  /** One request of the warm-up, its answer written as the server would and dropped. */
  @FunctionalInterface
  interface Step {
    Object run() throws IOException;
  }

  /**
   * Runs each step when the server is idle. A step stopped by a request ({@link Stopped}) runs
   * again at the next idle moment; one that fails is skipped: the warm-up only ever saves time.
   */
  static void run(List<Step> steps, BooleanSupplier idle) throws InterruptedException {
    for (Step step : steps) {
      while (true) {
        waitFor(idle);
        try {
          step.run();
          break;
        } catch (Stopped e) {
          // A request arrived: it has the cores; this step waits for the next idle moment.
        } catch (IOException | RuntimeException e) {
          break;
        }
      }
    }
  }

  /** A zoom of the warm-up stopped because a request arrived. */
  static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("a request arrived", null, false, false);
    }
  }

  /**
   * The event table's first page and the statistics of each of the served trace's
   * {@link #servedWindows} ({@value #TABLE_SPAN} of it), as the page asks them, answered by the
   * code that answers the page (the same reading of the query, the same scans, the JSON written).
   */
  static List<Step> servedTables(TraceStore store) {
    List<Step> steps = new ArrayList<>();
    for (double[] w : servedWindows(store.metadata().start(), store.metadata().windowEnd(), TABLE_SPAN)) {
      steps.add(() -> {
        RequestValues v = values(RequestSpec.EVENTS, window(w, PAGE_EVENTS));
        return RecordTable.answer(v, store, Requests.window(v, store, null)).json();
      });
      steps.add(() -> {
        RequestValues v = values(RequestSpec.STATS, window(w, PAGE_STATS));
        return Statistics.of(v, store, Requests.window(v, store, null)).answer().json();
      });
    }
    return steps;
  }

  /**
   * A zoom on the first of the served trace's {@link #servedWindows} ({@value #TABLE_SPAN} of it),
   * as the page asks its first answer: at the window's default p, then at that p (the page's first
   * request is at the analyst's p, its second at the window's default). A user's first zoom scans
   * the window (a model the cache does not hold) and computes its qualities, both cold when the
   * whole run's overview came from the caches: the warm-up's does both. Their analysis service is the warm-up's own, over a model
   * cache that writes nothing ({@code new ModelCache(0)}): the server's kept models, qualities and
   * cache files are the user's alone. A zoom stops when a request arrives ({@link Stopped}).
   */
  static List<Step> servedZooms(TraceStore store, BooleanSupplier idle) {
    AnalysisService service = new AnalysisService(new ModelCache(0)::build);
    Progress yielding = new Progress() {
      @Override
      public void stage(String name) {
        check();
      }

      @Override
      public void check() {
        if (!idle.getAsBoolean()) {
          throw new Stopped();
        }
      }
    };
    double[] w = servedWindows(store.metadata().start(), store.metadata().windowEnd(), TABLE_SPAN)[0];
    double[] p = {Double.NaN};
    return List.of(() -> zoom(service, store, w, Double.NaN, p, yielding), () -> zoom(service, store, w, p[0], p, yielding));
  }

  /** The first answer of a zoom on {@code window} at {@code p} (NaN: its default), its p kept in {@code shown}. */
  private static byte[] zoom(AnalysisService service, TraceStore store, double[] window, double p, double[] shown,
      Progress progress) throws IOException {
    Map<String, String> query = new HashMap<>(window(window, PAGE_ZOOM));
    if (!Double.isNaN(p)) {
      query.put(RequestSpec.P.name(), Double.toString(p));
    }
    RequestValues v = values(RequestSpec.OVERVIEW, query);
    AnalysisRequest request = Requests.overview(v, new ModelInput.FromTrace(store, Requests.model(v, store, null)));
    ProvisionalResult first = service.provisional(request, progress).orElseThrow();
    shown[0] = first.p();
    return first.json();
  }

  /** The page's query {@code page} on the window {@code w}. */
  private static Map<String, String> window(double[] w, Map<String, String> page) {
    Map<String, String> query = new HashMap<>(page);
    query.put(RequestSpec.FROM.name(), Double.toString(w[0]));
    query.put(RequestSpec.TO.name(), Double.toString(w[1]));
    return query;
  }

  /** The values of a request taking {@code params}, read from {@code query} (by parameter name) as a URL's are. */
  static RequestValues values(List<Param> params, Map<String, String> query) {
    return new RequestValues(new RequestValues.Source() {
      @Override
      public String value(Param p) {
        return query.get(p.name());
      }

      @Override
      public List<String> items(Param p) {
        String value = query.get(p.name());
        return value == null ? List.of() : List.of(value.split("\\|"));
      }

      @Override
      public String spelling(Param p) {
        return "parameter '" + p.key() + "'";
      }
    }, params);
  }

  /** The synthetic trace's charts, its store in a temporary directory deleted after. */
  private static void synthetic(BooleanSupplier idle, Consumer<GanttView.Result> picture)
      throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("ocelotl-warm-up");
    // A server stopped during the warm-up (Ctrl-C) ends this daemon thread anywhere: the hook
    // deletes what it wrote.
    Thread cleanup = new Thread(() -> delete(dir));
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      run(dir, idle, picture);
    } finally {
      delete(dir);
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
  }

  /** Draws each chart, as the page's SVG and as JSON, each when the server is idle. */
  static void draw(List<Supplier<GanttView.Result>> charts, BooleanSupplier idle, Consumer<GanttView.Result> picture)
      throws InterruptedException {
    for (Supplier<GanttView.Result> chart : charts) {
      waitFor(idle);
      GanttView.Result r = chart.get();
      picture.accept(r);
      r.json();
    }
  }

  /**
   * The served trace's charts, {@value #SERVED_ROUNDS} of them, alternating between its two
   * {@link #servedWindows}: the page's chart of every producer, by the path (summary, kernel,
   * records) the page's own chart of such a window takes.
   */
  static List<Supplier<GanttView.Result>> servedCharts(TraceStore store) {
    double[][] windows = servedWindows(store.metadata().start(), store.metadata().windowEnd());
    List<Supplier<GanttView.Result>> charts = new ArrayList<>();
    for (int k = 0; k < SERVED_ROUNDS; k++) {
      double[] w = windows[k % windows.length];
      GanttView view = new GanttView(store, w[0], w[1], List.of(), List.of(), PAGE_KINDS, PAGE_WIDTH, PAGE_HEIGHT);
      charts.add(view::answer);
    }
    return charts;
  }

  /**
   * A tenth of the trace from 10 % of it and from 70 %: inside it, where states cross the window's
   * start as in a user's window (a window at the start has none, and its chart leaves that branch
   * uncompiled), and apart, so that two parts of the run are seen.
   */
  static double[][] servedWindows(double start, double end) {
    return servedWindows(start, end, CHART_SPAN);
  }

  /** The same two windows, each {@code fraction} of the trace long. */
  static double[][] servedWindows(double start, double end, double fraction) {
    double span = end - start;
    double[][] windows = {{start + 0.1 * span, 0}, {start + 0.7 * span, 0}};
    for (double[] w : windows) {
      w[1] = w[0] + fraction * span;
    }
    return windows;
  }

  /** Writes the synthetic trace's store and summary into {@code dir}, then draws its charts {@value #ROUNDS} times. */
  static void run(Path dir, BooleanSupplier idle, Consumer<GanttView.Result> picture)
      throws IOException, InterruptedException {
    waitFor(idle);
    TraceStore store = store(dir.resolve("store"));
    waitFor(idle);
    GanttSummary.write(store, FINEST);
    for (int round = 0; round < ROUNDS; round++) {
      draw(charts(store), idle, picture);
    }
  }

  /**
   * The charts of the whole synthetic trace: its rows of several ranks from the summary, the same
   * from the scan kernel (a store without a summary), one host's ranks record by record.
   */
  static List<Supplier<GanttView.Result>> charts(TraceStore store) {
    GanttView all = new GanttView(store, Double.NaN, Double.NaN, List.of(), List.of(), List.of(), WIDTH, HEIGHT);
    GanttView oneHost = new GanttView(store, Double.NaN, Double.NaN, List.of("host-0-0"), List.of(), List.of(), WIDTH,
        HEIGHT);
    return List.of(() -> all.answer(true, GanttView.SummaryUse.WHEN_FINE_ENOUGH),
        () -> all.answer(true, GanttView.SummaryUse.NEVER), oneHost::answer);
  }

  private static void waitFor(BooleanSupplier idle) throws InterruptedException {
    while (!idle.getAsBoolean()) {
      Thread.sleep(50);
    }
  }

  /** The synthetic trace, written as an importer would write it. */
  static TraceStore store(Path dir) throws IOException {
    Files.createDirectories(dir);
    StoreWriter writer = new StoreWriter(dir);
    writer.producer(0, "root", "ROOT", -1, 0);
    int id = 1;
    int[] rank = new int[RANKS];
    for (int site = 0; site < 4; site++) {
      int siteId = id++;
      writer.producer(siteId, "site-" + site, "Site", 0, 0);
      for (int host = 0; host < 4; host++) {
        int hostId = id++;
        writer.producer(hostId, "host-" + site + "-" + host, "Host", siteId, 0);
        for (int r = 0; r < 4; r++) {
          rank[(site * 4 + host) * 4 + r] = id;
          writer.producer(id++, "rank-" + ((site * 4 + host) * 4 + r), "Rank", hostId, 0);
        }
      }
    }
    String[] types = {"compute", "wait", "collective"};
    for (int u = 0; u < types.length; u++) {
      writer.eventType(u, types[u], EventCategory.STATE, "State", null);
    }
    SplittableRandom random = new SplittableRandom(SEED);
    double mean = DURATION / STATES_PER_RANK;
    double last = 0;
    for (int r = 0; r < RANKS; r++) {
      double t = 0;
      for (int k = 0; k < STATES_PER_RANK; k++) {
        // Durations of a hundredth to twice the mean: states narrower and wider than a pixel column.
        double end = t + mean * (0.01 + 1.98 * random.nextDouble());
        writer.state(rank[r], random.nextInt(types.length), t, end, 0, -1);
        t = end;
      }
      last = Math.max(last, t);
    }
    writer.end(0, last, "s");
    writer.finish(new StoreMetadata.Source(dir.resolve("warm-up.trace").toString(), 0, 0, "warm-up", "synthetic"));
    return TraceStore.open(dir);
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | java.io.UncheckedIOException e) {
      // A temporary directory left behind (or deleted meanwhile by the other caller): the system's to clean.
    }
  }
}
