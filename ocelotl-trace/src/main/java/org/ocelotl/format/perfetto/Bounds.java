package org.ocelotl.format.perfetto;

/** The first and last time of the trace's records, as they are read. */
final class Bounds {
  private double first = Double.POSITIVE_INFINITY;
  private double last = Double.NEGATIVE_INFINITY;

  void see(double time) {
    if (time < first) {
      first = time;
    }
    if (time > last) {
      last = time;
    }
  }

  boolean empty() {
    return first > last;
  }

  double first() {
    return first;
  }

  double last() {
    return last;
  }
}
