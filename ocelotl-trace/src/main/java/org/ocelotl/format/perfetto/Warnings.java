package org.ocelotl.format.perfetto;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ocelotl.trace.TraceSink;

/** What the reader accepted but a strict one would not, counted by kind and reported once at the end. */
final class Warnings {
  private final Map<String, Long> counts = new LinkedHashMap<>();

  void add(String what) {
    add(what, 1);
  }

  void add(String what, long count) {
    counts.merge(what, count, Long::sum);
  }

  void report(TraceSink sink) {
    counts.forEach((what, count) -> sink.warning(String.format("%,d × %s", count, what)));
  }
}
