package org.ocelotl.scan;

import org.ocelotl.model.Metric;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;

/**
 * A microscopic model with what a view must say about it.
 *
 * @param model       M[leaf][slice][type], in the metric's unit
 * @param grid        the window and its slices, in the trace's time unit
 * @param metric      what the cells measure; null for a model read from a file, which does not say
 * @param timeUnit    the trace's time unit
 * @param exact       false when rebuilt from a cached model whose slices straddle this grid's
 *                    boundaries (their content split in proportion to the overlap): the
 *                    values are then estimates, and the user must be told
 * @param typeColours the trace's colour of each model type ("r g b" in [0, 1], as Pajé writes
 *                    it), or null where the trace gives none
 * @param inclusive   a state metric's inclusive time rather than its exclusive time ({@link ModelRequest#inclusive})
 */
public record BuiltModel(MicroscopicModel model, SliceGrid grid, Metric metric, String timeUnit,
    boolean exact, List<String> typeColours, boolean inclusive) {
  /** The time unit of a model read from a file: its slices are its only time axis. */
  public static final String SLICE_UNIT = "slice";

  public BuiltModel {
    if (typeColours.size() != model.typeCount()) {
      throw new IllegalArgumentException(model.typeCount() + " types but " + typeColours.size() + " colours");
    }
    if (grid.slices() != model.slices()) {
      throw new IllegalArgumentException("a grid of " + grid.slices() + " slices for a model of " + model.slices());
    }
    typeColours = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(typeColours));
  }

  /** "exclusive" or "inclusive" for a state metric, as the request parameter says it; null for the others. */
  public String time() {
    if (metric == null || !ModelRequest.timed(metric)) {
      return null;
    }
    return inclusive ? "inclusive" : "exclusive";
  }

  /** The metric's command-line name, a state metric's with its time: "state-duration (exclusive time)". */
  public String metricName() {
    return metric == null ? "null" : time() == null ? metric.cliName() : metric.cliName() + " (" + time() + " time)";
  }

  /**
   * What the reader sees in captions, legends and axes: "state total duration (exclusive time)",
   * "event occurrences", …; "value" when the metric is unknown.
   */
  public String label() {
    return metric == null ? "value" : time() == null ? metric.label() : metric.label() + " (" + time() + " time)";
  }

  /**
   * The unit of the values: the time unit for durations, "events", "links"; for a variable mean
   * the variable's name when the model holds one variable (traces give no units), else "value";
   * "value" when the metric is unknown.
   */
  public String unit() {
    if (metric == Metric.VARIABLE_MEAN && model.typeCount() == 1) {
      return model.types().get(0);
    }
    return metric == null ? "value" : metric.unit(timeUnit);
  }
}
