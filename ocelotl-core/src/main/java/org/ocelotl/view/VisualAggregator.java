package org.ocelotl.view;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.aggregation.Part;
import org.ocelotl.model.ProducerTree;

/**
 * Replaces the parts inside one row (a node drawn in place of its children) by marked blocks.
 *
 * <p>Within the row, the slices covered by inner parts form maximal runs (elsewhere a part
 * covering the whole row is drawn as it is). A slice boundary where every leaf of the row starts
 * a part is a cut common to all leaves; the run is split there, since no part crosses it. In each
 * piece, if no leaf starts a part inside it, every leaf has the same single interval: the leaves
 * share one temporal partition and the hidden split is spatial only — a diagonal. Otherwise some
 * leaves are cut where others are not — a cross.
 *
 * <p>Counting leaves that start a part at each slice ({@code starts}) needs only the inner parts
 * themselves, never the leaves one by one: parts tile the row, so at most one part per leaf
 * starts at a given slice.
 */
final class VisualAggregator {
  record Segment(int first, int last, Mark mark, int hiddenParts) {}

  private final int[] leavesStarting;
  private final int[] partsStarting;
  private final boolean[] covered;

  VisualAggregator(int slices) {
    leavesStarting = new int[slices];
    partsStarting = new int[slices];
    covered = new boolean[slices];
  }

  List<Segment> segments(ProducerTree tree, int rowNode, List<Part> parts, List<Integer> inner) {
    int rowLeaves = tree.leafCount(rowNode);
    int from = Integer.MAX_VALUE;
    int to = -1;
    for (int k : inner) {
      Part part = parts.get(k);
      leavesStarting[part.first()] += tree.leafCount(part.node());
      partsStarting[part.first()]++;
      for (int t = part.first(); t <= part.last(); t++) {
        covered[t] = true;
      }
      from = Math.min(from, part.first());
      to = Math.max(to, part.last());
    }
    List<Segment> segments = new ArrayList<>();
    int start = -1;
    boolean crossed = false;
    int hidden = 0;
    for (int t = from; t <= to + 1; t++) {
      boolean inside = t <= to && covered[t];
      boolean commonCut = inside && start >= 0 && leavesStarting[t] == rowLeaves;
      if (start >= 0 && (!inside || commonCut)) {
        segments.add(new Segment(start, t - 1, crossed ? Mark.CROSS : Mark.DIAGONAL, hidden));
        start = -1;
      }
      if (inside && start < 0) {
        start = t;
        crossed = false;
        hidden = 0;
      } else if (inside && leavesStarting[t] > 0) {
        crossed = true;
      }
      if (inside) {
        hidden += partsStarting[t];
      }
    }
    for (int t = from; t <= to; t++) {
      leavesStarting[t] = 0;
      partsStarting[t] = 0;
      covered[t] = false;
    }
    return segments;
  }
}
