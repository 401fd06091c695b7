package org.ocelotl.view;

import java.util.List;

/**
 * Everything an overview draws, independent of pixels: blocks in [0, 1]² (x across the window,
 * y from top to bottom), the producer axis, the legend. Built by {@link OverviewGeometry}; drawn
 * by the SVG/PNG exporters and by the web UI (its JSON form is written by the application).
 *
 * @param valueMax  stacked bars: the metric value at the top of the y axis (y = 0); 0 otherwise
 * @param producers producer axis, parents before children; empty for temporal views, whose
 *                  blocks span every producer
 */
public record Overview(ViewKind view, TimeWindow window, int leaves, int slices,
    List<Block> blocks, List<AxisNode> producers, double valueMax, List<LegendEntry> legend) {
  public Overview {
    blocks = List.copyOf(blocks);
    producers = List.copyOf(producers);
    legend = List.copyOf(legend);
  }
}
