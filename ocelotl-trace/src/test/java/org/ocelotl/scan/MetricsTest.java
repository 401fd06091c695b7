package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.store.Columns;

/** Plug-in metrics that every command must refuse, each in one line naming the plug-in. */
class MetricsTest {
  /** A plug-in metric as a test needs one: every field given. */
  record Plugin(String cliName, String label, EventCategory category, int version, int sums) implements PluginMetric {
    @Override
    public String unit(String timeUnit) {
      return "things";
    }

    @Override
    public void add(Columns columns, int record, Contributions into) {
      into.at(0, 0, 1);
    }

    @Override
    public double value(double[][] sums, int cell, double sliceWidth) {
      return sums[0][cell];
    }
  }

  static Plugin plugin(String name) {
    return new Plugin(name, "things", EventCategory.STATE, 1, 1);
  }

  private static String refusal(PluginMetric... plugins) {
    return assertThrows(IllegalArgumentException.class, () -> Metrics.withPlugins(List.of(plugins))).getMessage();
  }

  @Test
  void pluginsComeAfterOcelotlsOwn() {
    List<Metric> all = Metrics.withPlugins(List.of(plugin("things")));
    assertEquals(8, all.size());
    assertEquals(Metric.STATE_DURATION, all.get(0));
    assertEquals("things", all.get(7).cliName());
  }

  @Test
  void badPluginsAreRefusedInOneLine() {
    String name = Plugin.class.getName();
    assertEquals("metric plug-in " + name + " names its metric 'state-duration', which is one of Ocelotl's own; rename it",
        refusal(plugin("state-duration")));
    assertEquals("two metric plug-ins on the class path name their metric 'things' (" + name + " is one); remove one",
        refusal(plugin("things"), plugin("things")));
    assertEquals("metric plug-in " + name + " names its metric 'Things/2': a name is 1 to 40 lower-case letters, digits "
        + "and '-', starting with a letter or digit", refusal(plugin("Things/2")));
    assertEquals("metric plug-in " + name + " gives its metric things the version 0; versions start at 1",
        refusal(new Plugin("things", "things", EventCategory.STATE, 0, 1)));
    assertEquals("metric plug-in " + name + " gives its metric things 9 sums a cell; a metric has 1 to 8",
        refusal(new Plugin("things", "things", EventCategory.STATE, 1, 9)));
    assertEquals("metric plug-in " + name + " gives its metric things no label or no category",
        refusal(new Plugin("things", " ", EventCategory.STATE, 1, 1)));
  }

  @Test
  void anUnknownNameListsTheKnownOnes() {
    assertEquals("unknown metric 'durations'; expected one of state-duration, state-average, event-count, variable-mean, "
        + "utilization, link-count, link-volume", assertThrows(IllegalArgumentException.class,
            () -> Metrics.parse("durations")).getMessage());
  }
}
