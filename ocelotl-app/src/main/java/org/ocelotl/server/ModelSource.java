package org.ocelotl.server;

import java.io.IOException;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.store.TraceStore;

/** Builds the microscopic model of a trace for a request: the server's only way to a model. */
public interface ModelSource {
  /**
   * @throws IllegalArgumentException for a request the trace cannot satisfy (unknown producer,
   *     no type of the metric's category left); the message is shown to the user
   */
  BuiltModel build(TraceStore store, ModelRequest request) throws IOException;

  /**
   * @param exact       false when the model was rebuilt from a cached one by splitting slices
   * @param typeColours one entry per type of the model: the trace's "r g b" colour, or null
   */
  record BuiltModel(MicroscopicModel model, boolean exact, List<String> typeColours) {}
}
