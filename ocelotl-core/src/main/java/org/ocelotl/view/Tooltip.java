package org.ocelotl.view;

import java.util.List;

/**
 * What a tooltip shows for a shape.
 *
 * @param start       start of the time range, trace unit
 * @param end         end of the time range, trace unit
 * @param unit        the trace's time unit
 * @param producer    the producer node, as its path from the root ("site/cluster1/m3")
 * @param leaves      leaves covered (part size in space)
 * @param slices      slices covered (part size in time)
 * @param types       every type with a non-zero value, largest first
 * @param merged      stacked bars: the types merged into this layer; empty otherwise
 * @param hiddenParts visual aggregates: how many parts of the partition this shape stands for; 1
 *                    for a part
 */
public record Tooltip(double start, double end, String unit, String producer, int leaves,
    int slices, List<TypeShare> types, List<String> merged, int hiddenParts) {
  public Tooltip {
    types = List.copyOf(types);
    merged = List.copyOf(merged);
  }
}
