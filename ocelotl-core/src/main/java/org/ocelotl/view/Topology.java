package org.ocelotl.view;

import java.util.List;

/**
 * Everything a topology graph draws, independent of pixels: nodes at positions in [0, 1]², their
 * labels, edges between them. Built by {@link TopologyGeometry}, which lays the nodes and the
 * labels out so that no two overlap and none leaves the unit square.
 *
 * @param labelHeight a label's font size as a fraction of the picture's side (the labels were
 *                    placed at this size)
 * @param note        a one-line remark for the reader (no topology in the trace, no capacities), or ""
 */
public record Topology(List<Node> nodes, List<Edge> edges, boolean capacities, double labelHeight, String note) {
  public Topology {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  public enum Shape { SQUARE, DIAMOND, CIRCLE }

  /** The nodes whose use exceeds their capacity: drawn full and marked, never silently. */
  public List<Node> overCapacity() {
    return nodes.stream().filter(Node::overCapacity).toList();
  }

  /**
   * One shown node: a producer, or the members of one kind in a collapsed group.
   *
   * @param node         the tree node (the group's, for an aggregate)
   * @param members      leaves it stands for (1 for a producer)
   * @param size         half the side of the node's box (its shape fits in it) as a fraction of
   *                     the picture's side, from the capacity (square root, relative to the
   *                     largest of the same kind)
   * @param capacityVariable the variable its capacity was read from (speed, bandwidth…), "" without
   * @param useVariable  the variable its use was read from (speed_used…), "" without
   * @param fill         use / capacity, drawn in [0, 1]
   * @param overCapacity use exceeds capacity: fill is 1 and the node is marked
   * @param labelled     whether its label is drawn: only where it collides with no node and no other label
   * @param labelX       the label's centre
   * @param labelY       the label's baseline
   */
  public record Node(int node, String name, String path, String kind, Shape shape, boolean aggregate, int members,
      double x, double y, double size, String capacityVariable, String useVariable, double capacity, double use,
      double fill, boolean overCapacity, boolean labelled, double labelX, double labelY) {}

  /**
   * An edge between shown nodes (indices into the node list), with what it aggregates: platform
   * links, messages, and the bytes they carried where the trace says (0 where it never does).
   */
  public record Edge(int a, int b, int topology, long messages, double volume) {}
}
