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
 * The Gantt chart's code run on a small synthetic trace in the background when a server starts,
 * so that the user's first chart runs code the JIT has already compiled (decision 063): in a fresh
 * server the first chart of a crowded window cost about 3 times the CPU of the next ones, nearly
 * all of it the JIT compiling and the interpreter running the geometry, the drawing and the sums.
 *
 * <p>The trace is made here, in a temporary directory deleted at the end, never the user's: only
 * code is warmed, no data, so the user's first chart still reads its store as a cold one would. It
 * has {@value #RANKS} ranks (4 sites › 4 hosts › 4 ranks) of {@value #STATES_PER_RANK} back-to-back
 * states of three types over about {@value #DURATION} s, and a Gantt summary of
 * 2<sup>{@value #FINEST}</sup> buckets, so that its charts take every path a chart of the states
 * takes: rows of several ranks from the summary and from the scan kernel, rows of one rank record
 * by record, as the page's SVG and as JSON.
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
   */
  public static void start(BooleanSupplier idle, Consumer<GanttView.Result> picture) {
    if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
      return;
    }
    Thread thread = new Thread(() -> {
      try {
        Path dir = Files.createTempDirectory("ocelotl-warm-up");
        // A server stopped during the warm-up (Ctrl-C) ends this daemon thread anywhere: the
        // hook deletes what it wrote.
        Thread cleanup = new Thread(() -> delete(dir));
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
          run(dir, idle, picture);
        } finally {
          delete(dir);
          Runtime.getRuntime().removeShutdownHook(cleanup);
        }
      } catch (IOException | RuntimeException e) {
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

  /** Writes the synthetic trace's store and summary into {@code dir}, then draws its charts {@value #ROUNDS} times. */
  static void run(Path dir, BooleanSupplier idle, Consumer<GanttView.Result> picture)
      throws IOException, InterruptedException {
    waitFor(idle);
    TraceStore store = store(dir.resolve("store"));
    waitFor(idle);
    GanttSummary.write(store, FINEST);
    for (int round = 0; round < ROUNDS; round++) {
      for (Supplier<GanttView.Result> chart : charts(store)) {
        waitFor(idle);
        GanttView.Result r = chart.get();
        picture.accept(r);
        r.json();
      }
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
