package org.ocelotl.store;

import org.ocelotl.model.EventCategory;

/**
 * One chunk of a category: {@code size} records sorted by producer (source for links), then by
 * start (time for punctual events), every record lying within [{@code minTime}, {@code maxTime}]
 * (min start, max end).
 *
 * @param index     position among the category's chunks
 * @param producers how many distinct producers the chunk holds records of
 * @param offset    byte offset of the chunk in its file
 */
public record Chunk(EventCategory category, int index, int size, int producers, double minTime, double maxTime,
    long offset) {
  /**
   * Whether a record of this chunk can touch the window [from, to): bounds are inclusive so
   * that an instantaneous record at {@code from} is kept.
   */
  public boolean overlaps(double from, double to) {
    return minTime < to && maxTime >= from;
  }
}
