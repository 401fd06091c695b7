package org.ocelotl.scan;

import java.util.List;

/**
 * Which producers a model covers.
 *
 * @param include names (or '/'-separated paths from below the root) of the nodes whose subtrees
 *                are kept; empty keeps everything
 * @param exclude nodes whose subtrees are removed, after {@code include}
 * @param depth   when positive, nodes at this depth become the model's leaves, each summing its
 *                subtree (a coarser model of a deep hierarchy); 0 keeps every level;
 *                {@link #AUTO_DEPTH} asks for the deepest cut whose leaves fit the rows a view
 *                has ({@link ModelBuilder#withDepthFor}), resolved before a model is built
 */
// Serializable: the Spark job ships requests to its executors.
public record ProducerSelection(List<String> include, List<String> exclude, int depth)
    implements java.io.Serializable {
  public static final ProducerSelection ALL = new ProducerSelection(List.of(), List.of(), 0);
  public static final int AUTO_DEPTH = -1;

  public ProducerSelection {
    include = List.copyOf(include);
    exclude = List.copyOf(exclude);
    if (depth < AUTO_DEPTH) {
      throw new IllegalArgumentException("the producer depth must be ≥ 0 (0 keeps every level) or auto, got " + depth);
    }
  }

  public ProducerSelection withDepth(int newDepth) {
    return new ProducerSelection(include, exclude, newDepth);
  }
}
