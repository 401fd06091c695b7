package org.ocelotl.view;

/**
 * One visible node of the producer axis: a band [y0, y1] of the overview (same coordinates as
 * {@link Block}).
 *
 * @param row       the node is a row of the overview (a leaf, or a node drawn in place of its
 *                  children); otherwise its children are shown below it
 * @param collapsed a row that stands for several leaves (its children are too thin to draw)
 * @param mark      for a collapsed row: CROSS if any of its blocks is crossed, else DIAGONAL if
 *                  any is diagonal, else NONE (it hides no part)
 */
public record AxisNode(int node, String name, int depth, double y0, double y1, int leaves,
    boolean row, boolean collapsed, Mark mark) {}
