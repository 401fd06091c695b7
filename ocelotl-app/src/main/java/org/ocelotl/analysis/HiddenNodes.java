package org.ocelotl.analysis;

import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.aggregation.Outliers;
import org.ocelotl.aggregation.Part;
import org.ocelotl.model.MicroscopicModel;

/**
 * What the nodes a spatial view shows hide (docs/aggregation.md, "What each aggregate hides"): in
 * the treemap and the topology graph, each shown node is an aggregate over the time shown, and the
 * nodes merged into it that depart most from it are listed, highest score first.
 *
 * @param shown    the shown nodes that merge several leaves, each over the time shown: an outlier's
 *                 {@link Outlier#part()} indexes this list
 * @param outliers every departing node, highest score first
 */
public record HiddenNodes(List<Part> shown, List<Outlier> outliers) {
  /** Listed in the JSON forms: what fits beside the view (the count of all is always given). */
  public static final int LISTED = OutliersRequest.DEFAULT_LIMIT;

  public HiddenNodes {
    shown = List.copyOf(shown);
    outliers = List.copyOf(outliers);
  }

  /** The nodes of a view's cut over slices [first, last] and what they hide. */
  static HiddenNodes of(MicroscopicModel model, boolean[] cut, int first, int last, Progress progress) {
    progress.stage("ranking what the shown nodes hide");
    List<Part> shown = Outliers.shownParts(model.tree(), cut, first, last);
    return new HiddenNodes(shown, Outliers.of(model, shown, Aggregation.SPATIAL, progress));
  }

  /** The first {@link #LISTED}. */
  public List<Outlier> listed() {
    return outliers.subList(0, Math.min(LISTED, outliers.size()));
  }
}
