package org.ocelotl.example;

import org.ocelotl.model.EventCategory;
import org.ocelotl.scan.Contributions;
import org.ocelotl.scan.PluginMetric;
import org.ocelotl.store.Columns;
import org.ocelotl.store.StateColumns;

/**
 * The "state-count" metric, a plug-in's metric (docs/plugins.md): per producer, slice and state
 * type, the number of states that begin in the slice — how many MPI_Send calls a rank started,
 * where state-duration says how long they took and state-average mixes both. A state is counted
 * once, in the slice of its start, however many slices it spans. Named in
 * {@code META-INF/services/org.ocelotl.scan.PluginMetric}.
 */
public final class StateCount implements PluginMetric {
  @Override
  public String cliName() {
    return "state-count";
  }

  @Override
  public String label() {
    return "states begun";
  }

  @Override
  public EventCategory category() {
    return EventCategory.STATE;
  }

  @Override
  public String unit(String timeUnit) {
    return "states";
  }

  @Override
  public int version() {
    return 1;
  }

  /** One sum: the starts, additive over slices, so a cached finer model sums into a coarser one. */
  @Override
  public int sums() {
    return 1;
  }

  @Override
  public void add(Columns columns, int record, Contributions into) {
    into.at(0, ((StateColumns) columns).start()[record], 1);
  }

  @Override
  public double value(double[][] sums, int cell, double sliceWidth) {
    return sums[0][cell];
  }
}
