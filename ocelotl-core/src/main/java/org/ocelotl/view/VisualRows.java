package org.ocelotl.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.ProducerTree;

/**
 * The rows of a spatiotemporal overview after visual aggregation: walking down from the root, a
 * node's children are shown when every one of them is at least the threshold tall; otherwise
 * the node itself is one row. Rows are in leaf order and each covers a contiguous band of leaves
 * (ProducerTree numbers leaves depth-first), so they are a cut of the tree.
 *
 * <p>Because a node is only expanded when all its children are tall enough, every row is at
 * least the threshold tall (except a lone root), so there are at most height/threshold rows.
 */
final class VisualRows {
  private final int[] rowNodes;
  private final int[] rowOfLeaf;
  private final int[] visible;

  private VisualRows(int[] rowNodes, int[] rowOfLeaf, int[] visible) {
    this.rowNodes = rowNodes;
    this.rowOfLeaf = rowOfLeaf;
    this.visible = visible;
  }

  static VisualRows of(ProducerTree tree, double pixelsPerLeaf, double thresholdPx) {
    int[] rows = new int[tree.leafCount()];
    int[] visible = new int[tree.size()];
    int rowCount = 0;
    int visibleCount = 0;
    int[] stack = new int[tree.size()];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      int node = stack[--top];
      visible[visibleCount++] = node;
      if (isRow(tree, node, pixelsPerLeaf, thresholdPx)) {
        rows[rowCount++] = node;
      } else {
        for (int c = tree.childCount(node) - 1; c >= 0; c--) {
          stack[top++] = tree.child(node, c);
        }
      }
    }
    int[] rowOfLeaf = new int[tree.leafCount()];
    for (int r = 0; r < rowCount; r++) {
      int first = tree.firstLeaf(rows[r]);
      Arrays.fill(rowOfLeaf, first, first + tree.leafCount(rows[r]), r);
    }
    return new VisualRows(Arrays.copyOf(rows, rowCount), rowOfLeaf, Arrays.copyOf(visible, visibleCount));
  }

  private static boolean isRow(ProducerTree tree, int node, double pixelsPerLeaf, double thresholdPx) {
    for (int c = 0; c < tree.childCount(node); c++) {
      if (tree.leafCount(tree.child(node, c)) * pixelsPerLeaf < thresholdPx) {
        return true;
      }
    }
    return tree.isLeaf(node);
  }

  int count() {
    return rowNodes.length;
  }

  int node(int row) {
    return rowNodes[row];
  }

  int rowOfLeaf(int leaf) {
    return rowOfLeaf[leaf];
  }

  /** The producer axis: every visible node, parents before children. */
  List<AxisNode> axis(ProducerTree tree, Mark[] rowMarks) {
    double leaves = tree.leafCount();
    List<AxisNode> axis = new ArrayList<>(visible.length);
    for (int node : visible) {
      int first = tree.firstLeaf(node);
      int row = rowOfLeaf[first];
      boolean isRow = rowNodes[row] == node;
      axis.add(new AxisNode(node, tree.name(node), tree.depth(node), first / leaves,
          (first + tree.leafCount(node)) / leaves, tree.leafCount(node), isRow,
          isRow && !tree.isLeaf(node), isRow ? rowMarks[row] : Mark.NONE));
    }
    return axis;
  }
}
