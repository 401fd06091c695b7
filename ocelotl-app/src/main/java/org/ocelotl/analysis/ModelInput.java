package org.ocelotl.analysis;

import java.nio.file.Path;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.TraceStore;

/** Where the microscopic model of an analysis comes from. */
public sealed interface ModelInput {
  /** A model built from an imported trace (or taken from its model cache). */
  record FromTrace(TraceStore store, ModelRequest request) implements ModelInput {}

  /**
   * A model read from files (docs/models.md): {@code model} in the long CSV form, {@code tree}
   * the producer hierarchy or null, {@code slices} 0 to take the highest slice + 1. Its time
   * axis is the slice index.
   */
  record FromFiles(Path model, Path tree, int slices) implements ModelInput {}
}
