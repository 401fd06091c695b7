package org.ocelotl.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.view.PlatformGraph;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.Topology;
import org.ocelotl.view.TopologyGeometry;
import org.ocelotl.view.Treemap;
import org.ocelotl.view.TreemapGeometry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The spatial views' redraw, on seeded random models (BenchModels):
 * <ul>
 *   <li>{@code treemapNewP}: the treemap of the window for another breakpoint's spatial partition
 *       (512 leaves: 4 clusters × 16 machines × 8 cores, 100 slices, 10 types);
 *   <li>{@code treemapStep}: the treemap of the next time slice, same cut;
 *   <li>{@code topologyRedraw}: the topology graph of 512 leaves for another cut, positions known;
 *   <li>{@code layout2000}: the force-directed positions of a 2 000-node tree with 1 000 random
 *       platform links (what a new trace or window costs once).
 * </ul>
 * What the service adds on top is a look-up in the kept analysis (a binary search) and the JSON.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SpatialViewsBenchmark {
  private MicroscopicModel model;
  private List<Breakpoint> breakpoints;
  private PlatformGraph graph512;
  private double[][] positions512;
  private PlatformGraph graph2000;
  private int next;

  @Setup
  public void setUp() {
    model = BenchModels.model("phases", BenchModels.platform(4, 16, 8), 100, 10, 2024);
    breakpoints = Qualities.of(model, Aggregation.SPATIAL).breakpoints();
    graph512 = graph(model.tree(), 42);
    positions512 = TopologyGeometry.positions(graph512);
    graph2000 = graph(BenchModels.platform(10, 20, 9), 7); // 1 + 10 + 200 + 1 800 = 2 011 nodes
  }

  /** Hosts and links alternating among the leaves, one random platform link per two leaves. */
  private static PlatformGraph graph(ProducerTree tree, long seed) {
    Random random = new Random(seed);
    List<String> kinds = new ArrayList<>(Collections.nCopies(tree.size(), "group"));
    double[] capacity = new double[tree.leafCount()];
    double[] use = new double[tree.leafCount()];
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      kinds.set(tree.leafNode(leaf), leaf % 2 == 0 ? "HOST" : "LINK");
      capacity[leaf] = 1 + random.nextInt(4);
      use[leaf] = random.nextDouble() * capacity[leaf];
    }
    List<PlatformGraph.Edge> edges = new ArrayList<>();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < tree.leafCount() / 2; i++) {
      int a = random.nextInt(tree.leafCount());
      int b = random.nextInt(tree.leafCount());
      if (a != b && seen.add((long) Math.min(a, b) * tree.leafCount() + Math.max(a, b))) {
        edges.add(new PlatformGraph.Edge(Math.min(a, b), Math.max(a, b), 1, random.nextInt(5), 0));
      }
    }
    edges.sort((x, y) -> x.a() != y.a() ? Integer.compare(x.a(), y.a()) : Integer.compare(x.b(), y.b()));
    return new PlatformGraph(tree, kinds, capacity, use, true, edges);
  }

  @Benchmark
  public Treemap treemapNewP() {
    Breakpoint b = breakpoints.get(next++ % breakpoints.size());
    return TreemapGeometry.build(model, TreemapGeometry.cutOf(model.tree(), b.partition()), 0, model.slices() - 1,
        new TimeWindow(0, 100, "s"), null, 1200, 700, 4);
  }

  @Benchmark
  public Treemap treemapStep() {
    int slice = next++ % model.slices();
    Breakpoint b = breakpoints.get(breakpoints.size() / 2);
    return TreemapGeometry.build(model, TreemapGeometry.cutOf(model.tree(), b.partition()), slice, slice,
        new TimeWindow(0, 100, "s"), null, 1200, 700, 4);
  }

  @Benchmark
  public Topology topologyRedraw() {
    Breakpoint b = breakpoints.get(next++ % breakpoints.size());
    return TopologyGeometry.build(graph512, TreemapGeometry.cutOf(model.tree(), b.partition()), positions512, 1000);
  }

  @Benchmark
  public double[][] layout2000() {
    return TopologyGeometry.positions(graph2000);
  }
}
