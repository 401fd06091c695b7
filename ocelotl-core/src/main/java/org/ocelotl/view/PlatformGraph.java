package org.ocelotl.view;

import java.util.List;
import org.ocelotl.model.ProducerTree;

/**
 * The platform as the topology graph sees it: the producer tree, each node's kind (its container
 * type: HOST, LINK, rank…), each leaf's time-integrated capacity and use over the shown slices,
 * and the edges between leaves.
 *
 * @param kinds      per tree node
 * @param capacity   per leaf: time-integrated capacity (speed, bandwidth), or the metric's value
 *                   when the trace has no capacities
 * @param use        per leaf: time-integrated use (speed_used, bandwidth_used); equal to
 *                   capacity when the trace has no capacities
 * @param capacities whether capacity and use come from the trace's capacity variables
 * @param edges      between leaves: platform links and communications, each pair once
 * @param capacityVariables per leaf: the variable its capacity was read from (speed, bandwidth), "" if none
 * @param useVariables      per leaf: the variable its use was read from (speed_used…), "" if none
 * @param fillByLargest     the kinds whose fill is not their size's use but a variable of another
 *                          unit: filled by its share of the largest of the kind, never over capacity
 */
public record PlatformGraph(ProducerTree tree, List<String> kinds, double[] capacity, double[] use,
    boolean capacities, List<Edge> edges, List<String> capacityVariables, List<String> useVariables,
    java.util.Set<String> fillByLargest) {
  public PlatformGraph {
    fillByLargest = java.util.Set.copyOf(fillByLargest);
    kinds = List.copyOf(kinds);
    edges = List.copyOf(edges);
    capacityVariables = List.copyOf(capacityVariables);
    useVariables = List.copyOf(useVariables);
    if (kinds.size() != tree.size() || capacity.length != tree.leafCount() || use.length != tree.leafCount()
        || capacityVariables.size() != tree.leafCount() || useVariables.size() != tree.leafCount()) {
      throw new IllegalArgumentException("a platform graph needs a kind per node and a capacity and use per leaf");
    }
  }

  /** A graph whose variables are not named (a metric's values, or tests). */
  public PlatformGraph(ProducerTree tree, List<String> kinds, double[] capacity, double[] use, boolean capacities,
      List<Edge> edges) {
    this(tree, kinds, capacity, use, capacities, edges, java.util.Collections.nCopies(tree.leafCount(), ""),
        java.util.Collections.nCopies(tree.leafCount(), ""), java.util.Set.of());
  }

  /**
   * An edge between two leaves (a &lt; b).
   *
   * @param topology how many platform links join them (SimGrid platform tracing), 0 if none
   * @param messages how many communications of the window go between them, either way
   * @param volume   what those communications carried (bytes), summed over those whose trace says
   */
  public record Edge(int a, int b, int topology, long messages, double volume) {}
}
