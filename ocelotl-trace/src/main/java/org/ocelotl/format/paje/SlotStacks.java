package org.ocelotl.format.paje;

import java.util.Arrays;
import org.ocelotl.trace.TraceSink;

/**
 * The hot data of a Pajé import, one slot per (producer, Pajé type) in use: the stack of open
 * states (values and start dates), the variable's latest value not yet sent, the latest date
 * (and its line) to check time order, and the chain of a producer's slots. Parallel primitive
 * arrays indexed by slot, read and written on every record line; the reader owns their meaning.
 */
final class SlotStacks {
  private final SlotMap slotOf = new SlotMap();
  int[] next = new int[256];
  int[] producer = new int[256];
  int[] type = new int[256];
  double[] last = new double[256];
  long[] lastLine = new long[256];
  int[] depth = new int[256];
  int[][] stackValue = new int[256][];
  double[][] stackStart = new double[256][];
  boolean[] hasValue = new boolean[256];
  double[] valueTime = new double[256];
  double[] value = new double[256];

  int count() {
    return slotOf.size();
  }

  /** The slot of (producer, type), a new one (no state open, no value, no date) if it has none. */
  int slot(int producer, int type) {
    int before = slotOf.size();
    int slot = slotOf.getOrAdd(producer, type);
    if (slot == before) {
      if (slot == next.length) {
        grow(slot * 2);
      }
      this.producer[slot] = producer;
      this.type[slot] = type;
      last[slot] = Double.NEGATIVE_INFINITY;
    }
    return slot;
  }

  /** Opens a state of {@code valueType} at {@code time} on top of the slot's stack. */
  void push(int slot, int valueType, double time) {
    int d = depth[slot];
    if (stackValue[slot] == null) {
      stackValue[slot] = new int[4];
      stackStart[slot] = new double[4];
    } else if (d == stackValue[slot].length) {
      // By hand: a container's state stack, per state line (Pajé import, hot; fastutil 3.4x slower, decision 032).
      stackValue[slot] = Arrays.copyOf(stackValue[slot], d * 2);
      stackStart[slot] = Arrays.copyOf(stackStart[slot], d * 2);
    }
    stackValue[slot][d] = valueType;
    stackStart[slot][d] = time;
    depth[slot] = d + 1;
  }

  /**
   * Records the slot's new date and its line; false, leaving them, when the date goes back in
   * time (records of one (producer, type) must come in time order, as pj_dump requires).
   */
  boolean advance(int slot, double time, long line) {
    if (time < last[slot]) {
      return false;
    }
    last[slot] = time;
    lastLine[slot] = line;
    return true;
  }

  /** Ends the states of the stack from the top down to {@code toDepth} (inclusive) at {@code time}. */
  void close(int slot, int toDepth, double time, TraceSink sink) {
    int p = producer[slot];
    int[] values = stackValue[slot];
    double[] starts = stackStart[slot];
    for (int d = depth[slot] - 1; d >= toDepth; d--) {
      sink.state(p, values[d], starts[d], time, d, d == 0 ? -1 : values[d - 1]);
    }
    depth[slot] = Math.min(depth[slot], toDepth);
  }

  /**
   * The variable takes {@code v} from {@code time} on. The previous value is sent once its date
   * is passed; changes at the same date collapse into the last one, as in pj_dump.
   */
  void set(int slot, double time, double v, int sinkType, TraceSink sink) {
    if (hasValue[slot] && valueTime[slot] != time) {
      sink.variable(producer[slot], sinkType, valueTime[slot], value[slot]);
    }
    hasValue[slot] = true;
    valueTime[slot] = time;
    value[slot] = v;
  }

  /** Sends the variable's last value, if any. */
  void flush(int slot, int sinkType, TraceSink sink) {
    if (hasValue[slot]) {
      sink.variable(producer[slot], sinkType, valueTime[slot], value[slot]);
      hasValue[slot] = false;
    }
  }

  private void grow(int n) {
    next = Arrays.copyOf(next, n);
    producer = Arrays.copyOf(producer, n);
    type = Arrays.copyOf(type, n);
    last = Arrays.copyOf(last, n);
    lastLine = Arrays.copyOf(lastLine, n);
    depth = Arrays.copyOf(depth, n);
    stackValue = Arrays.copyOf(stackValue, n);
    stackStart = Arrays.copyOf(stackStart, n);
    hasValue = Arrays.copyOf(hasValue, n);
    valueTime = Arrays.copyOf(valueTime, n);
    value = Arrays.copyOf(value, n);
  }
}
