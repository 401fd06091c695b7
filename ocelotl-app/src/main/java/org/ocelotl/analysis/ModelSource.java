package org.ocelotl.analysis;

import java.io.IOException;
import org.ocelotl.aggregation.Work;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;

/**
 * Where the analysis service gets its models from a trace: the project's model cache in production; tests put a slow
 * source in its place to watch cancellation.
 */
@FunctionalInterface
public interface ModelSource {
  /**
   * @throws IllegalArgumentException for a request the trace cannot satisfy (unknown producer,
   *     no type of the metric's category left); the message is shown to the user
   */
  BuiltModel build(TraceStore store, ModelRequest request, Work work) throws IOException;

  /** Models from {@link ModelCache#standard()}: cached next to each store, rebuilt from finer ones. */
  static ModelSource cached() {
    return ModelCache.standard()::build;
  }
}
