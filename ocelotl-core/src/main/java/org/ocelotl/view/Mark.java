package org.ocelotl.view;

/**
 * How a shape tells the reader that it stands for more than one thing. Data aggregation (a part
 * of the partition) is never marked; every mark is visual aggregation, so the two can never be
 * confused.
 */
public enum Mark {
  /** A part of the partition, drawn as it is. */
  NONE,
  /**
   * A producer band too thin to show its children, whose leaves share one temporal partition
   * here: the hidden parts split the band in space only. Drawn as a diagonal line.
   */
  DIAGONAL,
  /**
   * A producer band too thin to show its children, whose leaves are cut differently in time
   * here. Drawn as a cross.
   */
  CROSS,
  /** Stacked bars: event types too thin to draw, merged into one layer that lists them. Hatched. */
  MERGED
}
