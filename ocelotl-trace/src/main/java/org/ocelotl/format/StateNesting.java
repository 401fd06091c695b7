package org.ocelotl.format;

import java.util.Arrays;
import org.ocelotl.trace.TraceSink;

/**
 * The states of one producer, gathered in any order, written with their depth: sorted by start
 * (the longer first when two start together), each state sits on top of those still open at its
 * start. For properly nested states this is the stack depth; overlapping ones are stacked too.
 * For formats whose states come as complete intervals out of order (Chrome X events, JFR).
 */
public final class StateNesting {
  private double[] starts = new double[16];
  private double[] ends = new double[16];
  private int[] types = new int[16];
  private int size;

  public void add(double start, double end, int type) {
    if (size == starts.length) {
      starts = Arrays.copyOf(starts, size * 2);
      ends = Arrays.copyOf(ends, size * 2);
      types = Arrays.copyOf(types, size * 2);
    }
    starts[size] = start;
    ends[size] = end;
    types[size] = type;
    size++;
  }

  public int size() {
    return size;
  }

  /** Writes every state to {@code sink} for {@code producer}, then forgets them. */
  public void emit(TraceSink sink, int producer) {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> starts[a] != starts[b] ? Double.compare(starts[a], starts[b])
        : Double.compare(ends[b], ends[a]));
    double[] openEnds = new double[16];
    int depth = 0;
    for (int i : order) {
      while (depth > 0 && openEnds[depth - 1] <= starts[i]) {
        depth--;
      }
      sink.state(producer, types[i], starts[i], ends[i], depth);
      if (depth == openEnds.length) {
        openEnds = Arrays.copyOf(openEnds, depth * 2);
      }
      openEnds[depth++] = ends[i];
    }
    size = 0;
  }
}
