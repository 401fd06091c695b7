package org.ocelotl.format.chrome;

import java.util.Arrays;
import org.ocelotl.primitive.ByteColumn;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;

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

  final ByteColumn kinds = new ByteColumn();
  final DoubleColumn times = new DoubleColumn();
  final DoubleColumn ends = new DoubleColumn();
  final IntColumn types = new IntColumn();

  Track(boolean async) {
    this.async = async;
  }

  void add(byte kind, double time, double end, int type) {
    kinds.add(kind);
    times.add(time);
    ends.add(end);
    types.add(type);
  }

  int size() {
    return kinds.size();
  }

  /** Record indices sorted by time; equal times keep file order (a stable sort). */
  Integer[] byTime() {
    Integer[] order = new Integer[size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(times.get(a), times.get(b)));
    return order;
  }
}
