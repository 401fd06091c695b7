package org.ocelotl.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinWorkerThread;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.aggregation.Work;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The spatiotemporal breakpoint search of a benchmark model, timed without JMH (issue 18 item 1:
 * the 720-leaf × 100-slice {@code phases} model, a few tens of seconds a run, too long for JMH's
 * forks). Each run times {@code Qualities.of} and {@code breakpoints()} apart, wall and process
 * CPU (all threads), and splits the search into its stages as {@link Work} reports them: the
 * programme's evaluations that find where the whole model becomes optimal, the envelopes of the
 * root's subtrees, the root's own envelopes, and the search on the root's envelope. CPU / wall
 * is the number of cores kept busy; on a machine shared with other work it is lower than what the
 * search could use, so a sampler also counts, every millisecond, the search's threads that are
 * runnable (running, or waiting for a core), up to the number of cores: its mean per stage,
 * "wanted", is how many cores the search would keep busy on a quiet machine.
 *
 * <p>The digest is of every breakpoint's p, gain and loss (their bits) and size: two builds with
 * the same digest found the same breakpoints, bit for bit. Uses the public API only, so that it
 * runs against the core classes of any build (bench/st_search.sh puts those first on the class
 * path).
 */
@Command(name = "st-search", mixinStandardHelpOptions = true,
    description = "Times Qualities.of and breakpoints() of a spatiotemporal benchmark model.")
public final class SpatiotemporalSearch implements Callable<Integer> {
  @Option(names = "--kind", defaultValue = "phases", description = "iid or phases (default: ${DEFAULT-VALUE})")
  String kind;

  @Option(names = "--slices", defaultValue = "100", description = "time slices (default: ${DEFAULT-VALUE})")
  int slices;

  @Option(names = "--fanout", split = ",",
      description = "children per level, root first, e.g. 4,8,12,2 (default: 3,30,8, the 720-leaf platform)")
  int[] fanout = {3, 30, 8};

  @Option(names = "--runs", defaultValue = "2",
      description = "runs in this JVM, the first one cold (default: ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--label", defaultValue = "", description = "printed at the start of each line")
  String label;

  @Option(names = "--trade-off",
      description = "time Qualities.tradeOff (the page's first answer) and one programme instead of the search")
  boolean tradeOff;

  @Option(names = "--new-p",
      description = "time a loop of best(p).parts() over 10 p in 0.001–0.7 (a p picked far away) instead of the search")
  boolean newP;

  public static void main(String[] args) {
    System.exit(new CommandLine(new SpatiotemporalSearch()).execute(args));
  }

  @Override
  public Integer call() {
    ProducerTree tree = BenchModels.levels(fanout); // by default AggregationBenchmark's st-720xN
    MicroscopicModel model = BenchModels.model(kind, tree, slices, 10, 2024);
    for (int run = 1; run <= runs && tradeOff; run++) {
      System.gc();
      timedTradeOff(model, run);
    }
    for (int run = 1; run <= runs && newP; run++) {
      System.gc();
      timedNewP(model, run);
    }
    for (int run = 1; run <= runs && !tradeOff && !newP; run++) {
      System.gc(); // the previous run's qualities and envelopes are not this run's to collect
      resetPeaks();
      Stages stages = new Stages(tree.size());
      Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL, stages);
      stages.searching();
      List<Breakpoint> breakpoints = qualities.breakpoints();
      stages.done();
      System.out.printf("%srun %d: %s; %d breakpoints, default p %.17g, digest %016x, peak heap %,d MiB%n",
          label, run, stages, breakpoints.size(), Breakpoint.defaultP(breakpoints), digest(breakpoints),
          peakHeap() >> 20);
    }
    return 0;
  }

  /** The p of {@code --new-p}: spread over the range where the partitions of the benchmark models change. */
  private static final double[] NEW_P = {0.001, 0.003, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7};

  /**
   * One run of a p picked far away: the qualities, then {@code best(p).parts()} at each of {@link #NEW_P},
   * wall and process CPU of each programme; the median of each, and a digest of every part (node,
   * first and last slice) of every partition: two builds with the same digest gave the same parts.
   */
  private void timedNewP(MicroscopicModel model, int run) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    double[] wall = new double[NEW_P.length];
    double[] cpu = new double[NEW_P.length];
    long hash = 0xcbf29ce484222325L;
    int parts = 0;
    for (int k = 0; k < NEW_P.length; k++) {
      long start = System.nanoTime();
      long startCpu = os.getProcessCpuTime();
      List<org.ocelotl.aggregation.Part> found = qualities.best(NEW_P[k]).parts();
      wall[k] = (System.nanoTime() - start) / 1e6;
      cpu[k] = (os.getProcessCpuTime() - startCpu) / 1e6;
      for (org.ocelotl.aggregation.Part part : found) {
        for (long word : new long[] {part.node(), part.first(), part.last()}) {
          hash = (hash ^ word) * 0x100000001b3L;
        }
      }
      parts += found.size();
    }
    System.out.printf("%srun %d: new p, %d programmes: median %.0f ms wall, %.0f ms CPU (CPU by p: %s); %d parts,"
        + " digest %016x%n", label, run, NEW_P.length, median(wall), median(cpu), java.util.Arrays.toString(
            java.util.Arrays.stream(cpu).mapToLong(Math::round).toArray()), parts, hash);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    return (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]) / 2;
  }

  /** One run of the page's first answer: the qualities, the trade-off's programmes, then one more. */
  private long timedTradeOff(MicroscopicModel model, int run) {
    java.util.concurrent.atomic.AtomicLong programmes = new java.util.concurrent.atomic.AtomicLong();
    Work counted = new Work() {
      @Override
      public void advanced(long done, long total) {
        if (total == 0) { // the programme's evaluations count with no total
          programmes.set(done);
        }
      }
    };
    long start = System.nanoTime();
    Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL, counted);
    long built = System.nanoTime();
    Breakpoint chosen = qualities.tradeOff();
    long found = System.nanoTime();
    qualities.best(chosen.p());
    long again = System.nanoTime();
    System.out.printf("%srun %d: qualities %.2f s, trade-off %.2f s (%d programmes: %.0f ms each), default p %.17g,"
        + " %d parts; one more programme %.0f ms%n", label, run, (built - start) / 1e9, (found - built) / 1e9,
        programmes.get(), (found - built) / 1e6 / programmes.get(), chosen.p(), chosen.partition().size(),
        (again - found) / 1e6);
    return programmes.get();
  }

  /**
   * Wall and CPU at each stage's start. Stages are told apart by what {@link Work#advanced}
   * receives: the qualities and the envelopes both count nodes (total = tree size), the
   * evaluations of the search count with total 0; between the qualities and the first envelope
   * node are the programme's evaluations.
   */
  private static final class Stages implements Work {
    private static final String[] NAMES = {"qualities", "search", "programme", "subtrees", "root", "lines"};
    private static final OperatingSystemMXBean OS =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final int nodes;
    private final long[] wall = new long[NAMES.length + 1];
    private final long[] cpu = new long[NAMES.length + 1];
    private final long[] samples = new long[NAMES.length + 1];
    private final long[] runnable = new long[NAMES.length + 1];
    private final Sampler sampler = new Sampler(this);
    private int stage; // the stage under way; written under the lock, stages only move forward

    Stages(int nodes) {
      this.nodes = nodes;
      mark(0);
      sampler.start();
    }

    /** One sample: this many of the search's threads were runnable. */
    synchronized void sampled(int threads) {
      samples[stage]++;
      runnable[stage] += threads;
    }

    @Override
    public synchronized void advanced(long done, long total) {
      if (stage == 2 && total == nodes) {
        mark(3); // the first envelope node: the programme's evaluations are over
      }
      if (stage == 3 && done == nodes - 1) {
        mark(4); // every node but the root
      }
      if (stage == 4 && total == 0) {
        mark(5); // the search's first evaluation on the root's envelope
      }
    }

    synchronized void searching() {
      mark(1);
      stage = 2; // the search starts with the programme's evaluations
      wall[2] = wall[1];
      cpu[2] = cpu[1];
    }

    synchronized void done() {
      for (int s = stage + 1; s < NAMES.length; s++) { // stages that did not happen take no time
        wall[s] = wall[stage];
        cpu[s] = cpu[stage];
      }
      mark(NAMES.length);
      sampler.interrupt();
    }

    private void mark(int next) {
      wall[next] = System.nanoTime();
      cpu[next] = OS.getProcessCpuTime();
      stage = next;
    }

    /** qualities and search (its end minus its start), then the search's stages. */
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder();
      text.append(span("qualities", 0, 1)).append(", ").append(span("search", 1, NAMES.length)).append(" [");
      for (int s = 2; s < NAMES.length; s++) {
        text.append(s > 2 ? ", " : "").append(span(NAMES[s], s, s + 1));
      }
      return text.append(']').toString();
    }

    private String span(String name, int from, int to) {
      double seconds = (wall[to] - wall[from]) / 1e9;
      double cpuSeconds = (cpu[to] - cpu[from]) / 1e9;
      long sampled = 0;
      long threads = 0;
      for (int s = from; s < to; s++) {
        sampled += samples[s];
        threads += runnable[s];
      }
      return String.format("%s %.2f s wall %.2f s CPU (%.2f cores, %.2f wanted)", name, seconds, cpuSeconds,
          seconds > 0 ? cpuSeconds / seconds : 0, sampled > 0 ? (double) threads / sampled : 0);
    }
  }

  /**
   * Counts the runnable threads of the search (the main thread and the fork/join pools' workers)
   * every millisecond, capped at the cores: a thread waiting for a core held by another process
   * is runnable too, so the count does not depend on the machine's load.
   */
  private static final class Sampler extends Thread {
    private final Stages stages;
    private final int cores = Runtime.getRuntime().availableProcessors();

    Sampler(Stages stages) {
      super("sampler");
      this.stages = stages;
      setDaemon(true);
    }

    @Override
    public void run() {
      List<Thread> threads = List.of();
      for (long tick = 0; !isInterrupted(); tick++) {
        if (tick % 100 == 0) { // pools start and retire workers
          threads = searchThreads();
        }
        int count = 0;
        for (Thread thread : threads) {
          count += thread.getState() == Thread.State.RUNNABLE ? 1 : 0;
        }
        stages.sampled(Math.min(cores, count));
        try {
          Thread.sleep(1);
        } catch (InterruptedException stop) {
          return;
        }
      }
    }

    private static List<Thread> searchThreads() {
      List<Thread> threads = new ArrayList<>();
      for (Thread thread : Thread.getAllStackTraces().keySet()) {
        if (thread.getName().equals("main") || thread instanceof ForkJoinWorkerThread) {
          threads.add(thread);
        }
      }
      return threads;
    }
  }

  /** FNV-1a over the bits of every breakpoint's p, gain, loss and size. */
  private static long digest(List<Breakpoint> breakpoints) {
    long hash = 0xcbf29ce484222325L;
    for (Breakpoint b : breakpoints) {
      for (long word : new long[] {Double.doubleToLongBits(b.p()), Double.doubleToLongBits(b.partition().gain()),
          Double.doubleToLongBits(b.partition().loss()), b.partition().size()}) {
        hash = (hash ^ word) * 0x100000001b3L;
      }
    }
    return hash;
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      pool.resetPeakUsage();
    }
  }

  /** The sum of the heap pools' peaks since the last reset: an upper bound of the heap in use at once. */
  private static long peakHeap() {
    long bytes = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        bytes += pool.getPeakUsage().getUsed();
      }
    }
    return bytes;
  }
}
