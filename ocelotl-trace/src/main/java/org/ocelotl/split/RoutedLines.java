package org.ocelotl.split;

import java.io.IOException;

/** A range's routed lines, one at a time ({@link RangeSplit#route}); none is held. */
public interface RoutedLines {
  /** Moves to the next line; false at the end of the range, which is then closed. */
  boolean next() throws IOException;

  /** The partition that interprets the current line. */
  int partition();

  /** Adds the current line, with its number in the trace, to {@code batch}. */
  void addTo(LineBatch batch);
}
