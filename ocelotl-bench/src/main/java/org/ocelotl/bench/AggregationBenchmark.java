package org.ocelotl.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
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
 * The aggregation engine on seeded random models (BenchModels):
 * <ul>
 *   <li>{@code all}: qualities + every breakpoint + the partition at the default p, from the model;
 *   <li>{@code moveP}: the optimal partition for a new p on already computed qualities (a full
 *       dynamic programme, what {@code Qualities.best} costs);
 *   <li>{@code lookupP}: the partition for a new p from already computed breakpoints.
 * </ul>
 * Cases: temporal-100x700x10 and temporal-1000x100x10 (slices × producers × types, flat tree);
 * st-720x30 and st-720x100 (3 clusters × 30 machines × 8 cores, slices, 10 types).
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgs = {"-Xmx6g"})
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class AggregationBenchmark {
  @Param({"temporal-100x700x10", "temporal-1000x100x10", "st-720x30", "st-720x100"})
  public String shape;

  @Param({"iid", "phases"})
  public String kind;

  private MicroscopicModel model;
  private Aggregation aggregation;
  private Qualities qualities;
  private List<Breakpoint> breakpoints;
  private int step;

  @Setup
  public void setUp() {
    String[] parts = shape.split("[-x]");
    if (parts[0].equals("temporal")) {
      aggregation = Aggregation.TEMPORAL;
      model = BenchModels.model(kind, BenchModels.flat(Integer.parseInt(parts[2])), Integer.parseInt(parts[1]),
          Integer.parseInt(parts[3]), 2024);
    } else {
      aggregation = Aggregation.SPATIOTEMPORAL;
      if (!parts[1].equals("720")) {
        throw new IllegalArgumentException("spatiotemporal shapes use the 720-leaf platform, got " + shape);
      }
      model = BenchModels.model(kind, BenchModels.platform(3, 30, 8), Integer.parseInt(parts[2]), 10, 2024);
    }
    qualities = Qualities.of(model, aggregation);
    breakpoints = qualities.breakpoints();
    System.out.printf("%n%s %s: %d breakpoints, default p %.6f%n", shape, kind, breakpoints.size(),
        Breakpoint.defaultP(breakpoints));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 1)
  @Measurement(iterations = 3)
  public Partition all() {
    Qualities fresh = Qualities.of(model, aggregation);
    return fresh.best(Breakpoint.defaultP(fresh.breakpoints()));
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 3, time = 3)
  public Partition moveP() {
    step = (step + 1) % 97;
    return qualities.best(step / 96.0);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @Warmup(iterations = 1, time = 1)
  @Measurement(iterations = 2, time = 1)
  public Partition lookupP() {
    step = (step + 1) % 97;
    return Breakpoint.at(breakpoints, step / 96.0);
  }
}
