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
   * axis is the slice index, so its window [{@code from}, {@code to}) is a range of whole
   * slices, as a trace's window is a range of its time (NaN: the model's first slice, its end).
   * The analysis of a window is that of a model file holding only those slices (a zoom).
   */
  record FromFiles(Path model, Path tree, int slices, double from, double to) implements ModelInput {
    /** The whole model of the files. */
    public FromFiles(Path model, Path tree, int slices) {
      this(model, tree, slices, Double.NaN, Double.NaN);
    }

    /** The same files, whole: what is read once for every window of them. */
    FromFiles whole() {
      return new FromFiles(model, tree, slices);
    }
  }
}
