package org.ocelotl.view;

import java.util.List;

/**
 * Everything an overview draws, independent of pixels: blocks in [0, 1]² (x across the window,
 * y from top to bottom), the producer axis, the legend. Built by {@link OverviewGeometry}; drawn
 * by the SVG/PNG exporters and, through {@link #toJson()}, by the web UI.
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

  /** The geometry as one JSON object; field names are the record components'. */
  public String toJson() {
    JsonWriter json = new JsonWriter();
    json.open()
        .field("view", view.name())
        .field("aggregation", view.aggregation())
        .field("start", window.start())
        .field("end", window.end())
        .field("unit", window.unit())
        .field("leaves", leaves)
        .field("slices", slices)
        .field("valueMax", valueMax);
    json.array("legend", legend, (j, e) -> j.open()
        .field("type", e.type()).field("name", e.name()).field("colour", e.colour()).close());
    json.array("producers", producers, (j, a) -> j.open()
        .field("node", a.node()).field("name", a.name()).field("depth", a.depth())
        .field("y0", a.y0()).field("y1", a.y1()).field("leaves", a.leaves())
        .field("row", a.row()).field("collapsed", a.collapsed()).field("mark", a.mark().name())
        .close());
    json.array("blocks", blocks, Overview::writeBlock);
    return json.close().toString();
  }

  private static void writeBlock(JsonWriter j, Block b) {
    j.open()
        .field("x0", b.x0()).field("y0", b.y0()).field("x1", b.x1()).field("y1", b.y1())
        .field("colour", b.colour()).field("opacity", b.opacity()).field("mark", b.mark().name())
        .field("node", b.node()).field("first", b.first()).field("last", b.last())
        .field("part", b.part()).field("type", b.type());
    Tooltip t = b.tooltip();
    j.key("tooltip").open()
        .field("start", t.start()).field("end", t.end()).field("unit", t.unit())
        .field("producer", t.producer()).field("leaves", t.leaves()).field("slices", t.slices())
        .field("hiddenParts", t.hiddenParts());
    j.array("types", t.types(), (k, s) -> k.open()
        .field("type", s.type()).field("value", s.value()).field("share", s.share()).close());
    j.array("merged", t.merged(), JsonWriter::value);
    j.close();
    j.close();
  }
}
