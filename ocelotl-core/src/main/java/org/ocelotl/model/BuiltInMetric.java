package org.ocelotl.model;

/**
 * Ocelotl's own metrics (SPEC.md §3). The scan kernels switch on these, so each has its own loop
 * with no call per record; a plug-in's metric (org.ocelotl.scan.PluginMetric) is not one of them.
 */
public enum BuiltInMetric implements Metric {
  /** Σ overlap(state, slice): the time spent in the state during the slice. */
  STATE_DURATION("state-duration", "state total duration", EventCategory.STATE),
  /** Total duration / number of states touching the slice (0 where none does). */
  STATE_AVERAGE("state-average", "state average duration", EventCategory.STATE),
  /** Punctual events whose time lies in the slice. */
  EVENT_COUNT("event-count", "event occurrences", EventCategory.EVENT),
  /** Σ value × overlap(step, slice) / slice width: the time-weighted mean, 0 where undefined. */
  VARIABLE_MEAN("variable-mean", "variable mean", EventCategory.VARIABLE),
  /**
   * A resource's use over its capacity ({@link Utilization}): the variable means of each
   * capacity and its use (speed and speed_used, bandwidth and bandwidth_used), divided; one type.
   */
  UTILIZATION("utilization", "utilization (use / capacity)", EventCategory.VARIABLE),
  /** Links leaving the producer (by their start time) in the slice. */
  LINK_COUNT("link-count", "link count", EventCategory.LINK),
  /**
   * Σ volume of the links leaving the producer (by their start time) in the slice: the bytes
   * sent, where the trace gives links a size (OTF2 message lengths, Pajé Size fields); links
   * without one add nothing.
   */
  LINK_VOLUME("link-volume", "link volume", EventCategory.LINK);

  private final String cliName;
  private final String label;
  private final EventCategory category;

  BuiltInMetric(String cliName, String label, EventCategory category) {
    this.cliName = cliName;
    this.label = label;
    this.category = category;
  }

  @Override
  public String cliName() {
    return cliName;
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public EventCategory category() {
    return category;
  }

  @Override
  public String unit(String timeUnit) {
    return switch (this) {
      case STATE_DURATION, STATE_AVERAGE -> timeUnit;
      case EVENT_COUNT -> "events";
      case VARIABLE_MEAN -> "value"; // traces do not say; a one-variable model names its variable
      case UTILIZATION -> "use / capacity";
      case LINK_COUNT -> "links";
      case LINK_VOLUME -> "bytes";
    };
  }

  @Override
  public String toString() {
    return cliName;
  }
}
