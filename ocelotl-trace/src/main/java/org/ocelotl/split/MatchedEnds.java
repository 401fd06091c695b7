package org.ocelotl.split;

import java.util.List;
import java.util.Map;

/** What matching a group of channels gives ({@link MessageSplit#match}). */
public interface MatchedEnds<C> {
  /** The channels' summaries, for the driver's plan. */
  List<C> channels();

  /** The links and unmatched sides, as bytes, by the location whose part writes them. */
  Map<Integer, byte[]> byLocation();
}
