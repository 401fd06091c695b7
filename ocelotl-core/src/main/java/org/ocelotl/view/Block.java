package org.ocelotl.view;

/**
 * One rectangle of an overview, in pixel-independent coordinates: x ∈ [0, 1] across the time
 * window, y ∈ [0, 1] from the top of the overview to its bottom.
 *
 * @param colour  fill as "#rrggbb"
 * @param opacity 0..1 (mode views: the mode's share)
 * @param mark    how a visual aggregate is marked; {@link Mark#NONE} for a part drawn as it is
 * @param node    the producer node drawn (the root for temporal views)
 * @param first   first slice
 * @param last    last slice
 * @param part    index in the partition's parts, or -1 for a visual aggregate
 * @param type    the event type shown (mode views, a stacked layer), or -1
 */
public record Block(double x0, double y0, double x1, double y1, String colour, double opacity,
    Mark mark, int node, int first, int last, int part, int type, Tooltip tooltip) {}
