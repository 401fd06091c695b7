package org.ocelotl.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.ocelotl.model.EventCategory;
import org.ocelotl.scan.GanttSummary;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.store.TraceStore;

/**
 * The Gantt chart's code run in the background when a server starts, so that the user's first
 * chart runs code the JIT has already compiled (decisions 063 and 065): in a fresh server the first
 * chart of a crowded window cost about 3 times the CPU of the next ones, nearly all of it the JIT
 * compiling and the interpreter running the geometry, the drawing and the sums.
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
 * does not know yet which one the user opens), {@value #SERVED_ROUNDS} charts of that trace's own,
 * as the page asks them — every producer, states, events and links, the page's size — of two
 * windows of a tenth of the trace each ({@link #servedWindows}): the code then compiles for the
 * served trace's producers, types, summary level and shapes, which the synthetic charts only
 * approach (after them alone, the first real chart deoptimised and recompiled much of what they
 * had compiled). Nothing is kept: the user's window is read as a cold one would be (the warm-up
 * opens the store apart), and answered with the same bytes.
 *
 * <p>A step (one chart) runs only while the server answers nothing ({@code idle}): a request that
 * arrives meanwhile waits for one step at most, not for the warm-up.
 */
public final class GanttWarmUp {
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
  /** The page's chart when it cannot measure its box (details.js): 1000 × 420 px. */
  static final int PAGE_WIDTH = 1000;
  static final int PAGE_HEIGHT = 420;
  /** What the page's chart shows unless the user unticks a kind (details.js). */
  static final List<String> PAGE_KINDS = List.of("state", "event", "link");
  /** {@code -Docelotl.ganttWarmUp=false}: no warm-up, to measure what it saves (bench/gantt_first.sh). */
  static final String PROPERTY = "ocelotl.ganttWarmUp";
  private static final long SEED = 63;

  private GanttWarmUp() {}

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
        warmUp(idle, picture, served);
      } catch (RuntimeException e) {
        // Nothing lost but time: the user's first chart is then compiled as it runs. (That the
        // charts run at all is GanttWarmUpTest's; a server's log is no place for their trace.)
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "ocelotl-gantt-warm-up");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
  }

  /** The synthetic trace's charts, then the served trace's (if any): the warm-up thread's work. */
  static void warmUp(BooleanSupplier idle, Consumer<GanttView.Result> picture, TraceStore served)
      throws InterruptedException {
    try {
      synthetic(idle, picture);
    } catch (IOException | RuntimeException e) {
      // A full temporary directory, say: the served trace's charts are still worth drawing.
    }
    if (served != null) {
      draw(servedCharts(served), idle, picture);
    }
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
    List<Supplier<GanttView.Result>> charts = new java.util.ArrayList<>();
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
    double span = end - start;
    return new double[][] {{start + 0.1 * span, start + 0.2 * span}, {start + 0.7 * span, start + 0.8 * span}};
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
