package org.ocelotl.aggregation;

/** Which aggregates a partition may use (SPEC.md §4). */
public enum Aggregation {
  /** Intervals of slices; every (leaf, event type) series is a component. */
  TEMPORAL,
  /** Nodes of the producer tree over the whole window; every event type is a component. */
  SPATIAL,
  /** (node, interval) rectangles; every event type is a component. */
  SPATIOTEMPORAL
}
