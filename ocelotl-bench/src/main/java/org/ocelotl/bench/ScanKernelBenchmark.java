package org.ocelotl.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.ocelotl.scan.ModelLayout;
import org.ocelotl.scan.ScanKernels;
import org.ocelotl.scan.SliceGrid;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The scan kernel, the design's hot path ({@link ScanKernels#stateDurations}), on one thread over
 * in-memory columns: seeded states of 700 leaves × 10 types, each lasting up to 1/500 of the
 * window (a few slices at N = 1 000), into a model of N slices (zeroed per call, as a build
 * allocates a fresh one). {@code time}: exclusive reads the outer-type column, all −1 here (no
 * nesting, as in a SimGrid trace), inclusive does not: the cost of exclusive time where there is
 * nothing to subtract. States per second = {@code states} / the time per call. The whole
 * pipeline on a store (mapped chunks, threads) is bench/scan.sh.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ScanKernelBenchmark {
  static final int LEAVES = 700;
  static final int TYPES = 10;

  @Param({"100", "1000", "10000"})
  public int slices;

  @Param({"5000000"})
  public int states;

  @Param({"exclusive", "inclusive"})
  public String time;

  private ModelLayout layout;
  private int[] producer;
  private int[] type;
  private int[] outer;
  private double[] start;
  private double[] end;
  private double[] cells;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(2024);
    producer = new int[states];
    type = new int[states];
    outer = new int[states];
    java.util.Arrays.fill(outer, -1);
    start = new double[states];
    end = new double[states];
    double time = 0;
    double step = 1.0 / states;
    for (int i = 0; i < states; i++) {
      producer[i] = random.nextInt(LEAVES);
      type[i] = random.nextInt(TYPES);
      time += random.nextDouble(2 * step);
      start[i] = time;
      end[i] = time + random.nextDouble(1.0 / 500);
    }
    int[] leafOf = new int[LEAVES];
    int[] typeOf = new int[TYPES];
    for (int i = 0; i < LEAVES; i++) {
      leafOf[i] = i;
    }
    for (int i = 0; i < TYPES; i++) {
      typeOf[i] = i;
    }
    layout = new ModelLayout(leafOf, typeOf, LEAVES, TYPES, new SliceGrid(0, time + 1.0 / 500, slices));
    cells = new double[layout.cells()];
  }

  @Benchmark
  public double[] stateDurations() {
    java.util.Arrays.fill(cells, 0);
    ScanKernels.stateDurations(layout, 0, slices, states, producer, type, time.equals("inclusive") ? null : outer,
        start, end, cells, null, null);
    return cells;
  }
}
