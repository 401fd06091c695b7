package org.ocelotl.view;

import java.util.List;

/**
 * Everything a treemap draws, independent of pixels (docs/views.md): cells in [0, 1]², groups
 * before their members, then the legend. Built by {@link TreemapGeometry}.
 *
 * @param firstSlice first slice shown
 * @param lastSlice  last slice shown (inclusive): the whole window, or one time step
 * @param cut        the nodes shown as they are (the spatial partition, or a depth)
 * @param note       a one-line remark for the reader (flat tree, nothing to show), or ""
 */
public record Treemap(TimeWindow window, int slices, int firstSlice, int lastSlice, double total,
    List<Integer> cut, List<TreemapCell> cells, List<LegendEntry> legend, String note) {
  public Treemap {
    cut = List.copyOf(cut);
    cells = List.copyOf(cells);
    legend = List.copyOf(legend);
  }
}
