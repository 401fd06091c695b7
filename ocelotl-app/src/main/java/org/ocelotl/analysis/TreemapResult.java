package org.ocelotl.analysis;

import org.ocelotl.view.Treemap;

/**
 * The answer to a {@link TreemapRequest}: the spatial analysis (breakpoints, curves, the
 * partition at p), the treemap drawn from it and what its shown nodes hide, with one JSON form.
 */
public record TreemapResult(TreemapRequest request, AnalysisResult result, Treemap treemap, HiddenNodes hidden) {
  /** The analysis result's JSON form with a {@code "treemap"} field: the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.treemapResult(this));
  }

  /** The trace's name, or "model". */
  public String title() {
    return result.analysis().trace() != null ? result.analysis().trace().name() : "model";
  }

  /** The file name stem of an export: trace, "treemap". */
  public String fileStem() {
    return (title() + "-treemap").replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
