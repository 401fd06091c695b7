package org.ocelotl.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ocelotl.export.Format;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.export.TopologyPicture;
import org.ocelotl.view.Topology;

/**
 * The answer to a {@link TopologyRequest}: the spatial analysis and the graph drawn from it,
 * with one JSON form.
 *
 * @param start the start of the time shown (the window, or the step)
 * @param end   its end
 */
public record TopologyResult(TopologyRequest request, AnalysisResult result, Topology topology, double start,
    double end) {
  public byte[] json() {
    return JsonForm.bytes(JsonForm.topologyResult(this));
  }

  public void render(Format format, int width, int height, OutputStream out) throws IOException {
    TopologyPicture.render(topology, title(), caption(), width, height, format, out);
  }

  public List<String> caption() {
    List<String> items = new ArrayList<>();
    String unit = result.analysis().built().timeUnit();
    items.add("[" + OverviewPicture.number(start) + ", " + OverviewPicture.number(end) + ") " + unit);
    items.add(topology.nodes().size() + " nodes, " + topology.edges().size() + " edges");
    items.add(topology.capacities() ? "size = capacity, fill = use / capacity" : "size and fill: " + result.metricLabel());
    items.add(request.depth() >= 0 ? "cut at depth " + request.depth()
        : String.format(Locale.ROOT, "spatial partition at p = %.4g", result.p()));
    if (!request.toggles().isEmpty()) {
      items.add(request.toggles().size() + " groups expanded or collapsed");
    }
    return items;
  }

  public String title() {
    return result.analysis().trace() != null ? result.analysis().trace().name() : "model";
  }

  public String fileStem() {
    return (title() + "-topology").replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
