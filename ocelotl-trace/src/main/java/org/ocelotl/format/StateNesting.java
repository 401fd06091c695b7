package org.ocelotl.format;

import java.util.Arrays;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.trace.TraceSink;

/**
 * The states of one producer, gathered in any order, written with their depth: sorted by start
 * (the longer first when two start together), each state sits on top of those still open at its
 * start. For properly nested states this is the stack depth; overlapping ones are stacked too
 * (with no outer state: they do not lie in the one below).
 * For formats whose states come as complete intervals out of order (Chrome X events, JFR).
 */
public final class StateNesting {
  private final DoubleColumn starts = new DoubleColumn();
  private final DoubleColumn ends = new DoubleColumn();
  private final IntColumn types = new IntColumn();

  public void add(double start, double end, int type) {
    starts.add(start);
    ends.add(end);
    types.add(type);
  }

  public int size() {
    return starts.size();
  }

  /** Writes every state to {@code sink} for {@code producer}, then forgets them. */
  public void emit(TraceSink sink, int producer) {
    Integer[] order = new Integer[size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> starts.get(a) != starts.get(b) ? Double.compare(starts.get(a), starts.get(b))
        : Double.compare(ends.get(b), ends.get(a)));
    DoubleColumn openEnds = new DoubleColumn();
    IntColumn openTypes = new IntColumn();
    for (int i : order) {
      // The stack of states still open: those that ended at or before this start are closed.
      while (openEnds.size() > 0 && openEnds.get(openEnds.size() - 1) <= starts.get(i)) {
        openEnds.removeLast();
        openTypes.removeLast();
      }
      int top = openEnds.size() - 1;
      // Stacked on a state it outlasts, it does not lie in it: nothing to subtract from that one.
      int outer = top >= 0 && ends.get(i) <= openEnds.get(top) ? openTypes.get(top) : -1;
      sink.state(producer, types.get(i), starts.get(i), ends.get(i), openEnds.size(), outer);
      openEnds.add(ends.get(i));
      openTypes.add(types.get(i));
    }
    starts.clear();
    ends.clear();
    types.clear();
  }
}
