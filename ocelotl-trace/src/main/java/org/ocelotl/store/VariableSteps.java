package org.ocelotl.store;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * Turns variable changes into steps: a change opens a step that the next change of the same
 * (producer, type) closes. Holds one open step per variable in an open-addressing table keyed
 * by (producer, type), so memory grows with the number of variables, never with the number
 * of changes.
 */
final class VariableSteps {
  /** Receives closed steps. */
  interface StepSink {
    void step(int producer, int type, double start, double end, double value);
  }

  private static final long EMPTY = -1L;
  private long[] keys = new long[64];
  private double[] starts = new double[64];
  private double[] values = new double[64];
  private int used;
  private long outOfOrder;

  VariableSteps() {
    Arrays.fill(keys, EMPTY);
  }

  /** Closes the open step of the variable, if any, at {@code time}; opens the next one. */
  void change(int producer, int type, double time, double value, StepSink sink) {
    long key = ((long) producer << 32) | (type & 0xffffffffL);
    int slot = find(key);
    if (keys[slot] == key) {
      double start = starts[slot];
      if (time < start) {
        outOfOrder++; // the step is cut to nothing rather than given a negative length
      }
      sink.step(producer, type, start, Math.max(start, time), values[slot]);
    } else {
      keys[slot] = key;
      if (++used * 2 > keys.length) {
        grow();
        slot = find(key);
      }
    }
    starts[slot] = time;
    values[slot] = value;
  }

  /** Changes that came earlier than the previous change of their variable. */
  long outOfOrder() {
    return outOfOrder;
  }

  /** Closes every open step at the end its producer gives ({@code endOf}: producer → time). */
  void closeAll(IntToDoubleFunction endOf, StepSink sink) {
    for (int slot = 0; slot < keys.length; slot++) {
      long key = keys[slot];
      if (key != EMPTY) {
        int producer = (int) (key >>> 32);
        double start = starts[slot];
        sink.step(producer, (int) key, start, Math.max(start, endOf.applyAsDouble(producer)), values[slot]);
      }
    }
  }

  // Linear probing on a power-of-two table; the multiplier spreads the low bits of both halves.
  private int find(long key) {
    int mask = keys.length - 1;
    int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    while (keys[slot] != EMPTY && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void grow() {
    long[] oldKeys = keys;
    double[] oldStarts = starts;
    double[] oldValues = values;
    // By hand: a variable's last step, per variable record (store writer, hot; fastutil no faster, decision 032).
    keys = new long[oldKeys.length * 2];
    starts = new double[keys.length];
    values = new double[keys.length];
    Arrays.fill(keys, EMPTY);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int slot = find(oldKeys[i]);
        keys[slot] = oldKeys[i];
        starts[slot] = oldStarts[i];
        values[slot] = oldValues[i];
      }
    }
  }
}
