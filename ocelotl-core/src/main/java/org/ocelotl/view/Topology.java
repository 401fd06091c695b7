package org.ocelotl.view;

import java.util.List;

/**
 * Everything a topology graph draws, independent of pixels: nodes at positions in [0, 1]², edges
 * between them. Built by {@link TopologyGeometry}.
 *
 * @param note a one-line remark for the reader (no topology in the trace, no capacities), or ""
 */
public record Topology(List<Node> nodes, List<Edge> edges, boolean capacities, String note) {
  public Topology {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  public enum Shape { SQUARE, DIAMOND, CIRCLE }

  /**
   * One shown node: a producer, or the members of one kind in a collapsed group.
   *
   * @param node     the tree node (the group's, for an aggregate)
   * @param members  leaves it stands for (1 for a producer)
   * @param size     radius as a fraction of the picture's shorter side, from the capacity
   *                 (square root, relative to the largest of the same kind)
   * @param fill     use / capacity in [0, 1]
   */
  public record Node(int node, String name, String path, String kind, Shape shape, boolean aggregate, int members,
      double x, double y, double size, double capacity, double use, double fill) {}

  /**
   * An edge between shown nodes (indices into the node list), with what it aggregates: platform
   * links, messages, and the bytes they carried where the trace says (0 where it never does).
   */
  public record Edge(int a, int b, int topology, long messages, double volume) {}
}
