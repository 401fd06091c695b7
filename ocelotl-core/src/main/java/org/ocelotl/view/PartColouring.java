package org.ocelotl.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.ocelotl.model.ProducerTree;

/**
 * Colours the parts of a spatiotemporal partition view so that no two touching parts share a
 * colour while the palette allows it: greedy in time order, each part taking the next palette
 * colour (in rotation, for variety) that none of its already coloured neighbours uses.
 *
 * <p>Neighbours are found row by row (rows of the visual aggregation): within a row, parts
 * following each other in time touch; between consecutive rows, parts whose slice ranges overlap
 * touch. That is linear in the number of (part, row) incidences, not quadratic in parts.
 */
final class PartColouring {
  private PartColouring() {}

  static List<Block> colour(List<Block> blocks, VisualRows rows, ProducerTree tree) {
    List<Integer> coloured = new ArrayList<>();
    for (int b = 0; b < blocks.size(); b++) {
      if (blocks.get(b).part() >= 0) {
        coloured.add(b);
      }
    }
    List<List<Integer>> perRow = new ArrayList<>();
    for (int r = 0; r < rows.count(); r++) {
      perRow.add(new ArrayList<>());
    }
    for (int b : coloured) {
      int node = blocks.get(b).node();
      int firstRow = rows.rowOfLeaf(tree.firstLeaf(node));
      int lastRow = rows.rowOfLeaf(tree.firstLeaf(node) + tree.leafCount(node) - 1);
      for (int r = firstRow; r <= lastRow; r++) {
        perRow.get(r).add(b);
      }
    }
    List<List<Integer>> neighbours = new ArrayList<>();
    for (int b = 0; b < blocks.size(); b++) {
      neighbours.add(new ArrayList<>());
    }
    Comparator<Integer> byTime = Comparator.comparingInt(b -> blocks.get(b).first());
    for (int r = 0; r < rows.count(); r++) {
      List<Integer> row = perRow.get(r);
      row.sort(byTime);
      for (int i = 1; i < row.size(); i++) {
        link(neighbours, row.get(i - 1), row.get(i));
      }
      if (r > 0) {
        linkOverlapping(blocks, neighbours, perRow.get(r - 1), row);
      }
    }
    int palette = Palette.PART_COLOURS.size();
    int[] colourOf = new int[blocks.size()];
    java.util.Arrays.fill(colourOf, -1);
    coloured.sort(byTime.thenComparingDouble(b -> blocks.get(b).y0()));
    int next = 0;
    for (int b : coloured) {
      boolean[] taken = new boolean[palette];
      for (int n : neighbours.get(b)) {
        if (colourOf[n] >= 0) {
          taken[colourOf[n]] = true;
        }
      }
      int choice = next % palette;
      for (int k = 0; k < palette; k++) {
        if (!taken[(next + k) % palette]) {
          choice = (next + k) % palette;
          break;
        }
      }
      colourOf[b] = choice;
      next = choice + 1;
    }
    List<Block> result = new ArrayList<>(blocks.size());
    for (int b = 0; b < blocks.size(); b++) {
      Block x = blocks.get(b);
      result.add(colourOf[b] < 0 ? x : new Block(x.x0(), x.y0(), x.x1(), x.y1(),
          Palette.PART_COLOURS.get(colourOf[b]), x.opacity(), x.mark(), x.node(), x.first(),
          x.last(), x.part(), x.type(), x.tooltip()));
    }
    return result;
  }

  private static void linkOverlapping(List<Block> blocks, List<List<Integer>> neighbours,
      List<Integer> above, List<Integer> below) {
    int i = 0;
    int j = 0;
    while (i < above.size() && j < below.size()) {
      Block a = blocks.get(above.get(i));
      Block b = blocks.get(below.get(j));
      if (a.first() <= b.last() && b.first() <= a.last() && !above.get(i).equals(below.get(j))) {
        link(neighbours, above.get(i), below.get(j));
      }
      if (a.last() < b.last()) {
        i++;
      } else {
        j++;
      }
    }
  }

  private static void link(List<List<Integer>> neighbours, int a, int b) {
    neighbours.get(a).add(b);
    neighbours.get(b).add(a);
  }
}
