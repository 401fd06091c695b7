package org.ocelotl.aggregation;

/**
 * One aggregate of a partition: a node of the producer tree over the slices [first, last].
 * Temporal partitions use the root as node; spatial partitions cover every slice.
 */
public record Part(int node, int first, int last) {
  public Part {
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("a part needs 0 ≤ first ≤ last, got [" + first + ", " + last + "]");
    }
  }

  public int sliceCount() {
    return last - first + 1;
  }
}
