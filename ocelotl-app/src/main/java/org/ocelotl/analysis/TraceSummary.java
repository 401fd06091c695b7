package org.ocelotl.analysis;

import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * What identifies an imported trace in an answer. {@code id} is the store's directory name: the
 * name a web client picks from the list, never a path. {@code origin}: what times since the
 * start count from ({@link StoreMetadata#origin()}).
 */
public record TraceSummary(String id, String name, String path, String format, double start, double origin,
    double end, String unit) {
  public static TraceSummary of(TraceStore store) {
    StoreMetadata m = store.metadata();
    return new TraceSummary(id(store), m.name(), m.source().path(), m.source().format(), m.start(), m.origin(),
        m.end(), m.timeUnit());
  }

  public static String id(TraceStore store) {
    return store.directory().getFileName().toString();
  }
}
