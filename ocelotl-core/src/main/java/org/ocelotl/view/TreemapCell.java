package org.ocelotl.view;

import java.util.List;

/**
 * One rectangle of a treemap, in [0, 1]² (y from top to bottom).
 *
 * @param node   the producer tree node
 * @param path   its names from below the root, '/'-joined ("lyon/lyon-c1/lyon-c1-2"); the root's own name
 * @param kind   what the rectangle stands for
 * @param value  the node's total value over the shown slices, every type
 * @param leaves leaf producers under the node
 * @param hidden visual aggregates: how many shown nodes (of the cut) it stands for; 1 otherwise
 * @param mode   the type with the largest value, or -1 when the value is 0
 * @param colour the mode's colour (groups: none, "")
 * @param opacity the mode's share of the value, in [1/|U|, 1]
 * @param types  every type with a non-zero value, largest first
 */
public record TreemapCell(int node, String name, String path, int depth, Kind kind, double x0, double y0,
    double x1, double y1, double value, int leaves, int hidden, int mode, String colour, double opacity,
    List<TypeShare> types) {
  public TreemapCell {
    types = List.copyOf(types);
  }

  /** What a rectangle stands for, so that data and visual aggregation never look alike. */
  public enum Kind {
    /** An expanded group: drawn as an outline around its children. */
    GROUP,
    /** One leaf producer. */
    PRODUCER,
    /** A node the cut aggregates (a part of the spatial partition, or the chosen depth): dashed outline and name. */
    AGGREGATE,
    /** A group whose children are too small to draw: one rectangle, hatched. */
    VISUAL
  }
}
