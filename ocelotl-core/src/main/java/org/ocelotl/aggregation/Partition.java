package org.ocelotl.aggregation;

import java.util.List;

/** A set of parts tiling the model, with its total gain and loss (SPEC.md §4). */
public record Partition(List<Part> parts, double gain, double loss) {
  public Partition {
    parts = List.copyOf(parts);
  }

  public int size() {
    return parts.size();
  }

  /** p·gain − (1−p)·loss. */
  public double pic(double p) {
    return p * gain - (1 - p) * loss;
  }
}
