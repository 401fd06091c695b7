package org.ocelotl.server;

import java.util.List;
import org.ocelotl.scan.ProducerSelection;

/**
 * What a microscopic model is built from, besides the trace: the key of the server's caches.
 *
 * @param excludedTypes names of event types left out
 */
public record ModelRequest(Metric metric, double start, double end, int slices,
    ProducerSelection producers, List<String> excludedTypes) {
  public ModelRequest {
    excludedTypes = List.copyOf(excludedTypes);
  }
}
