package org.ocelotl.analysis;

import org.ocelotl.view.Topology;

/**
 * The answer to a {@link TopologyRequest}: the spatial analysis, the graph drawn from it and what
 * its shown nodes hide, with one JSON form.
 *
 * @param start the start of the time shown (the window, or the step)
 * @param end   its end
 */
public record TopologyResult(TopologyRequest request, AnalysisResult result, Topology topology, double start,
    double end, HiddenNodes hidden) {
  public byte[] json() {
    return JsonForm.bytes(JsonForm.topologyResult(this));
  }

  public String title() {
    return result.analysis().trace() != null ? result.analysis().trace().name() : "model";
  }

  public String fileStem() {
    return (title() + "-topology").replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
