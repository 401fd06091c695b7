package org.ocelotl.format.chrome;

import java.util.Arrays;

/**
 * What one thread (or one async lane) recorded, buffered as parallel primitive columns until the
 * whole file is read: the input is not sorted, so begins and ends can only be matched afterwards
 * (about 25 bytes per record). Kinds: {@link #BEGIN}, {@link #END}, {@link #COMPLETE} (time and
 * end), {@link #INSTANT}.
 */
final class Track {
  static final byte BEGIN = 0;
  static final byte END = 1;
  static final byte COMPLETE = 2;
  static final byte INSTANT = 3;

  final boolean async;
  int producer = -1;

  byte[] kinds = new byte[16];
  double[] times = new double[16];
  double[] ends = new double[16];
  int[] types = new int[16];
  int size;

  Track(boolean async) {
    this.async = async;
  }

  void add(byte kind, double time, double end, int type) {
    if (size == kinds.length) {
      int capacity = size * 2;
      kinds = Arrays.copyOf(kinds, capacity);
      times = Arrays.copyOf(times, capacity);
      ends = Arrays.copyOf(ends, capacity);
      types = Arrays.copyOf(types, capacity);
    }
    kinds[size] = kind;
    times[size] = time;
    ends[size] = end;
    types[size] = type;
    size++;
  }

  /** Record indices sorted by time; equal times keep file order (a stable sort). */
  Integer[] byTime() {
    Integer[] order = new Integer[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(times[a], times[b]));
    return order;
  }
}
