package org.ocelotl.analysis;

import java.util.List;
import java.util.Set;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.model.Utilization;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.store.StoreMetadata;

/**
 * A topology graph question (docs/views.md): the spatial analysis of a model, the cut (the
 * partition at p or a depth) with the groups the user expanded or collapsed, and the time step.
 *
 * @param analysis the model and p; spatial aggregation, no overview
 * @param depth    the hierarchy depth to cut at, or -1 for the spatial partition at p
 * @param slice    the one slice shown, or -1 for the whole window
 * @param toggles  applied in order to the cut: "+path" expands a shown group, "-path" collapses a group
 * @param side     the side of the square the graph is drawn in, in pixels (the picture's or the
 *                 page's smaller side): nodes and labels are laid out not to overlap at it
 * @param mapping  the variables of each node kind's size and fill
 */
public record TopologyRequest(AnalysisRequest analysis, int depth, int slice, List<String> toggles, int side,
    NodeMapping mapping) {
  /** The smallest side a graph is laid out for: below, its labels could not be read anyway. */
  public static final int MIN_SIDE = 100;

  public TopologyRequest {
    toggles = List.copyOf(toggles);
    if (analysis.aggregation() != Aggregation.SPATIAL || analysis.view() != null) {
      throw new IllegalArgumentException("a topology graph shows a spatial aggregation and no overview");
    }
    if (depth < -1) {
      throw new IllegalArgumentException("the cut depth must be ≥ 0, got " + depth);
    }
    if (slice < -1) {
      throw new IllegalArgumentException("the time step must be a slice index ≥ 0, got " + slice);
    }
    if (side < MIN_SIDE) {
      throw new IllegalArgumentException("the graph's side must be at least " + MIN_SIDE + " pixels, got " + side);
    }
    for (String t : toggles) {
      if (t.length() < 2 || t.charAt(0) != '+' && t.charAt(0) != '-') {
        throw new IllegalArgumentException("a toggle is +PATH (expand) or -PATH (collapse), got '" + t + "'");
      }
    }
  }

  /**
   * The model a topology graph shows by default: when the trace traces capacities (SimGrid's
   * speed, power, bandwidth and their use), the mean of those variables and of those the mapping
   * names, so that size and fill are capacity and use or the analyst's variables; otherwise the
   * request as given (size and fill from its metric).
   */
  public static ModelRequest capacityModel(StoreMetadata metadata, ModelRequest request, NodeMapping mapping) {
    Set<String> variables = new java.util.HashSet<>();
    for (StoreMetadata.EventType t : metadata.types()) {
      if (t.category() == EventCategory.VARIABLE) {
        variables.add(t.name());
      }
    }
    List<String> kept = new java.util.ArrayList<>();
    for (String name : Utilization.CAPACITIES) {
      if (variables.contains(name)) {
        kept.add(name);
      }
    }
    if (kept.isEmpty() && mapping.isDefault()) {
      return request;
    }
    for (String name : Utilization.USES) {
      if (variables.contains(name)) {
        kept.add(name);
      }
    }
    for (String name : mapping.variables()) {
      if (!kept.contains(name)) {
        kept.add(name);
      }
    }
    return new ModelRequest(Metric.VARIABLE_MEAN, request.from(), request.to(), request.slices(), request.producers(),
        kept, request.exact());
  }
}
