package org.ocelotl.model;

/**
 * What a microscopic model measures per (leaf, slice, type) (SPEC.md §3). Each metric reads one
 * category and is computed from additive sums (what the model cache keeps), its value derived
 * at the end. Ocelotl's own are {@link BuiltInMetric}; a jar on the class path adds others
 * (org.ocelotl.scan.PluginMetric, docs/plugins.md).
 *
 * <p>The constants name the built-in metrics as {@code Metric.STATE_DURATION}, as code said when
 * this was the enum. No default method here: a class initialised through an interface with
 * default methods initialises the interface first, and these constants would then read the enum
 * before its constants exist (JLS 12.4.2).
 */
public interface Metric {
  Metric STATE_DURATION = BuiltInMetric.STATE_DURATION;
  Metric STATE_AVERAGE = BuiltInMetric.STATE_AVERAGE;
  Metric EVENT_COUNT = BuiltInMetric.EVENT_COUNT;
  Metric VARIABLE_MEAN = BuiltInMetric.VARIABLE_MEAN;
  Metric UTILIZATION = BuiltInMetric.UTILIZATION;
  Metric LINK_COUNT = BuiltInMetric.LINK_COUNT;
  Metric LINK_VOLUME = BuiltInMetric.LINK_VOLUME;

  /** The name on the command line, in URLs and in cache headers. */
  String cliName();

  /** What the reader sees in captions, legends and axes: "state total duration", …. */
  String label();

  /** The category of the records (and event types) the metric reads. */
  EventCategory category();

  /** The unit of the model's values for a trace whose times are in {@code timeUnit}. */
  String unit(String timeUnit);
}
