package org.ocelotl.scan;

import java.util.List;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;

/**
 * What model to build from a trace.
 *
 * @param metric    what the cells measure
 * @param from      window start in the trace's time unit; NaN = the trace's start
 * @param to        window end (exclusive); NaN = the trace's end
 * @param slices    number of equal slices, 1 to {@value SliceGrid#MAX_SLICES}
 * @param producers which producers become the model's leaves
 * @param types     event type names or group names (e.g. a Pajé state type) to keep; empty = all
 *                  types of the metric's category that have records
 * @param exact     true: never a proportional split; a cached model is used only when it holds
 *                  this very grid, else the trace is scanned again
 * @param inclusive the state metrics' time: true, each state's whole time (a nested state counts in
 *                  its own type and again in the one around it); false, exclusive (self) time, each
 *                  instant once (decision 037). Always false for the other metrics, which have no
 *                  nesting, so that one model has one request
 */
// Serializable: the Spark job ships requests to its executors.
public record ModelRequest(Metric metric, double from, double to, int slices,
    ProducerSelection producers, List<String> types, boolean exact, boolean inclusive)
    implements java.io.Serializable {

  public ModelRequest {
    if (metric == null) {
      throw new IllegalArgumentException("a model request needs a metric (" + Metrics.names() + ")");
    }
    if (slices < 1 || slices > SliceGrid.MAX_SLICES) {
      throw new IllegalArgumentException("the number of slices must be between 1 and "
          + SliceGrid.MAX_SLICES + ", got " + slices);
    }
    if (Double.isInfinite(from) || Double.isInfinite(to)) {
      throw new IllegalArgumentException("the window [" + from + ", " + to + ") must have finite bounds");
    }
    producers = producers == null ? ProducerSelection.ALL : producers;
    types = List.copyOf(types == null ? List.of() : types);
    inclusive = inclusive && timed(metric);
  }

  /**
   * Whether the metric measures the states' time, so that exclusive and inclusive time differ: the
   * built-in state metrics (a plug-in's state metric counts what it counts).
   */
  public static boolean timed(Metric metric) {
    return metric instanceof org.ocelotl.model.BuiltInMetric && metric.category() == EventCategory.STATE;
  }

  /** Exclusive time for the state metrics, the default. */
  public ModelRequest(Metric metric, double from, double to, int slices, ProducerSelection producers,
      List<String> types, boolean exact) {
    this(metric, from, to, slices, producers, types, exact, false);
  }

  /** The whole trace, every producer and type, approximate rebuilds allowed. */
  public static ModelRequest of(Metric metric, int slices) {
    return new ModelRequest(metric, Double.NaN, Double.NaN, slices, ProducerSelection.ALL, List.of(), false);
  }

  public ModelRequest withWindow(double from, double to) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  public ModelRequest withSlices(int slices) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  public ModelRequest withProducers(ProducerSelection producers) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  public ModelRequest withTypes(List<String> types) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  public ModelRequest withExact(boolean exact) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  public ModelRequest withInclusive(boolean inclusive) {
    return new ModelRequest(metric, from, to, slices, producers, types, exact, inclusive);
  }

  /** The state metrics' time, as the request parameter names it: "exclusive" or "inclusive". */
  public String time() {
    return inclusive ? "inclusive" : "exclusive";
  }

  /**
   * A plug-in's metric crosses to Spark's executors by its name and version, found there again by
   * {@link Metrics} (the plug-in's jar on their class path): the plug-in's object need not be
   * serializable. Ocelotl's own metrics are an enum, serialized as themselves.
   */
  private Object writeReplace() {
    return metric instanceof PluginMetric plugin
        ? new ByName(plugin.cliName(), plugin.version(), from, to, slices, producers, types, exact) : this;
  }

  /** A request whose metric is a plug-in's, as it is serialized. */
  private record ByName(String metric, int version, double from, double to, int slices, ProducerSelection producers,
      List<String> types, boolean exact) implements java.io.Serializable {
    private Object readResolve() {
      Metric found = Metrics.parse(metric);
      int here = found instanceof PluginMetric plugin ? plugin.version() : 0;
      if (here != version) {
        throw new IllegalArgumentException("the metric plug-in " + metric + " is version " + version
            + " where the request was made and " + here + " here: put the same jar on every class path");
      }
      return new ModelRequest(found, from, to, slices, producers, types, exact);
    }
  }
}
