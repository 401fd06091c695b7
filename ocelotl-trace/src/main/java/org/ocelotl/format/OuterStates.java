package org.ocelotl.format;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.trace.TraceSink;

/**
 * Finds the state each state lies in, for a reader whose states come with their depth but not
 * their stack (pj_dump's imbrication column): the state of the same producer one level down that
 * contains it. Works for states in start order (the outer one comes first: it is the last seen at
 * that depth) and in end order (the outer one comes after: the nested state waits for it), as a
 * Pajé tool writes them. A nested state that no state of the level below contains, once the input
 * ends, lies in none.
 */
public final class OuterStates {
  private final TraceSink sink;
  private final List<Producer> producers = new ArrayList<>();

  public OuterStates(TraceSink sink) {
    this.sink = sink;
  }

  /** The states of one producer: per depth, the last seen, and those waiting for their outer state. */
  private static final class Producer {
    final IntColumn lastType = new IntColumn();
    final DoubleColumn lastStart = new DoubleColumn();
    final DoubleColumn lastEnd = new DoubleColumn();
    final List<Waiting> waiting = new ArrayList<>();
  }

  /** States of one depth waiting for a state of the level below that contains them. */
  private static final class Waiting {
    final IntColumn types = new IntColumn();
    final DoubleColumn starts = new DoubleColumn();
    final DoubleColumn ends = new DoubleColumn();
  }

  /** A state: written now when its outer state is known, later when that state comes. */
  public void state(int producer, int type, double start, double end, int depth) {
    Producer p = producer(producer);
    if (depth > 0 && p.lastType.size() >= depth && p.lastStart.get(depth - 1) <= start
        && end <= p.lastEnd.get(depth - 1)) {
      sink.state(producer, type, start, end, depth, p.lastType.get(depth - 1));
    } else if (depth > 0) {
      Waiting w = waiting(p, depth);
      w.types.add(type);
      w.starts.add(start);
      w.ends.add(end);
    } else {
      sink.state(producer, type, start, end, 0, -1);
    }
    release(producer, p, type, start, end, depth + 1);
    while (p.lastType.size() <= depth) {
      p.lastType.add(-1);
      p.lastStart.add(0);
      p.lastEnd.add(0);
    }
    p.lastType.set(depth, type);
    p.lastStart.set(depth, start);
    p.lastEnd.set(depth, end);
  }

  /** Writes the states still waiting as lying in none; returns how many there were. */
  public long finish() {
    long orphans = 0;
    for (int producer = 0; producer < producers.size(); producer++) {
      Producer p = producers.get(producer);
      if (p == null) {
        continue;
      }
      for (int d = 0; d < p.waiting.size(); d++) {
        Waiting w = p.waiting.get(d);
        for (int i = 0; i < w.types.size(); i++) {
          sink.state(producer, w.types.get(i), w.starts.get(i), w.ends.get(i), d, -1);
          orphans++;
        }
      }
    }
    producers.clear();
    return orphans;
  }

  /** Writes the states of {@code depth} waiting for one that [start, end] contains; keeps the others. */
  private void release(int producer, Producer p, int type, double start, double end, int depth) {
    if (depth >= p.waiting.size()) {
      return;
    }
    Waiting w = p.waiting.get(depth);
    int kept = 0;
    for (int i = 0; i < w.types.size(); i++) {
      double s = w.starts.get(i);
      double e = w.ends.get(i);
      if (start <= s && e <= end) {
        sink.state(producer, w.types.get(i), s, e, depth, type);
      } else {
        w.types.set(kept, w.types.get(i));
        w.starts.set(kept, s);
        w.ends.set(kept, e);
        kept++;
      }
    }
    while (w.types.size() > kept) {
      w.types.removeLast();
      w.starts.removeLast();
      w.ends.removeLast();
    }
  }

  private Producer producer(int id) {
    while (producers.size() <= id) {
      producers.add(null);
    }
    Producer p = producers.get(id);
    if (p == null) {
      p = new Producer();
      producers.set(id, p);
    }
    return p;
  }

  private static Waiting waiting(Producer p, int depth) {
    while (p.waiting.size() <= depth) {
      p.waiting.add(new Waiting());
    }
    return p.waiting.get(depth);
  }
}
