package org.ocelotl.app;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;

/**
 * An overview of a trace before p is chosen: the model, its aggregation and every breakpoint.
 * Computed once; a partition for any p is then a look-up in the breakpoints.
 */
public record Overview(TraceStore store, BuiltModel built, Aggregation aggregation, List<Breakpoint> breakpoints) {
  public Overview {
    breakpoints = List.copyOf(breakpoints);
  }

  /** Builds (or takes from the cache) the model, then computes qualities and breakpoints. */
  public static Overview compute(TraceStore store, ModelRequest request, Aggregation aggregation, ModelCache cache)
      throws IOException {
    BuiltModel built = cache.build(store, request);
    return new Overview(store, built, aggregation, Qualities.of(built.model(), aggregation).breakpoints());
  }

  /** The best trade-off p (SPEC.md §5). */
  public double defaultP() {
    return Breakpoint.defaultP(breakpoints);
  }

  public Partition partition(double p) {
    return Breakpoint.at(breakpoints, p);
  }

  /**
   * The {@code --json} contract of {@code overview} (docs/cli.md): the shown partition with
   * times in the trace's unit, each part's mode and type proportions, and the breakpoint table.
   */
  public Map<String, Object> json(double p) {
    MicroscopicModel model = built.model();
    Partition partition = partition(p);
    Partition coarsest = breakpoints.get(breakpoints.size() - 1).partition();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("trace", store.metadata().name());
    json.put("metric", built.metric().cliName());
    json.put("unit", built.unit());
    json.put("timeUnit", built.timeUnit());
    json.put("aggregation", aggregation.name().toLowerCase(java.util.Locale.ROOT));
    json.put("start", built.grid().start());
    json.put("end", built.grid().end());
    json.put("slices", built.grid().slices());
    json.put("exact", built.exact());
    json.put("p", p);
    json.put("defaultP", defaultP());
    json.put("gain", partition.gain());
    json.put("loss", partition.loss());
    json.put("gainFraction", coarsest.gain() > 0 ? partition.gain() / coarsest.gain() : 0.0);
    json.put("lossFraction", coarsest.loss() > 0 ? partition.loss() / coarsest.loss() : 0.0);
    List<Object> parts = new ArrayList<>();
    for (Part part : partition.parts()) {
      parts.add(partJson(model, part));
    }
    json.put("parts", parts);
    List<Object> table = new ArrayList<>();
    for (Breakpoint b : breakpoints) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("p", b.p());
      row.put("gain", b.partition().gain());
      row.put("loss", b.partition().loss());
      row.put("parts", b.partition().size());
      table.add(row);
    }
    json.put("breakpoints", table);
    return json;
  }

  private Map<String, Object> partJson(MicroscopicModel model, Part part) {
    ProducerTree tree = model.tree();
    int firstLeaf = tree.firstLeaf(part.node());
    int leaves = tree.leafCount(part.node());
    double[] sums = new double[model.typeCount()];
    double total = 0;
    for (int leaf = firstLeaf; leaf < firstLeaf + leaves; leaf++) {
      for (int t = part.first(); t <= part.last(); t++) {
        for (int u = 0; u < sums.length; u++) {
          double v = model.value(leaf, t, u);
          sums[u] += v;
          total += v;
        }
      }
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("start", built.grid().boundary(part.first()));
    json.put("end", built.grid().boundary(part.last() + 1));
    json.put("firstSlice", part.first());
    json.put("lastSlice", part.last());
    if (aggregation != Aggregation.TEMPORAL) {
      json.put("producer", tree.name(part.node()));
      json.put("leaves", leaves);
    }
    int mode = -1;
    Map<String, Object> proportions = new LinkedHashMap<>();
    for (int u = 0; u < sums.length; u++) {
      if (sums[u] > 0) {
        proportions.put(model.types().get(u), sums[u] / total);
        if (mode < 0 || sums[u] > sums[mode]) {
          mode = u;
        }
      }
    }
    json.put("mode", mode < 0 ? null : model.types().get(mode));
    json.put("proportions", proportions);
    return json;
  }
}
