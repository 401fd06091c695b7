package org.ocelotl.spark;

import org.ocelotl.model.EventCategory;
import org.ocelotl.scan.Contributions;
import org.ocelotl.scan.PluginMetric;
import org.ocelotl.store.Columns;
import org.ocelotl.store.StateColumns;

/**
 * A metric plug-in on the tests' class path (META-INF/services in the test resources), for the Spark
 * job to run as it runs Ocelotl's own: the mean duration of the states begun in a slice, from two
 * sums (their durations and their number), so that both the partial sums and the derivation cross.
 */
public final class MeanDurationBegun implements PluginMetric {
  public static final String NAME = "test-mean-duration-begun";

  @Override
  public String cliName() {
    return NAME;
  }

  @Override
  public String label() {
    return "mean duration of the states begun";
  }

  @Override
  public EventCategory category() {
    return EventCategory.STATE;
  }

  @Override
  public String unit(String timeUnit) {
    return timeUnit;
  }

  @Override
  public int version() {
    return 1;
  }

  @Override
  public int sums() {
    return 2;
  }

  @Override
  public void add(Columns columns, int record, Contributions into) {
    StateColumns states = (StateColumns) columns;
    double start = states.start()[record];
    into.at(0, start, states.end()[record] - start);
    into.at(1, start, 1);
  }

  @Override
  public double value(double[][] sums, int cell, double sliceWidth) {
    return sums[1][cell] > 0 ? sums[0][cell] / sums[1][cell] : 0;
  }
}
