package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.Contributions;
import org.ocelotl.scan.PluginMetric;
import org.ocelotl.store.Columns;
import org.ocelotl.store.StateColumns;

/**
 * ocelotl-spark follows ocelotl's rule for exit codes (decision 049): a value refused for its
 * option's type is bad input, status 1, one line; the option without its value is usage, status 2.
 * Both are found while the command line is parsed, before any Spark session starts.
 */
class SparkExitCodesTest {
  record Result(int status, String err) {}

  static Result run(String... args) {
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      int status = SparkMain.run(args);
      return new Result(status, bytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
    }
  }

  @Test
  void aRefusedValueIsBadInputAMissingOneUsage() {
    Result bad = run("import", "t.trace", "--out", "d", "--range-bytes", "abc");
    assertEquals(new Result(1, "ocelotl-spark: --range-bytes: expected an integer, found 'abc'\n"), bad);
    assertEquals(2, run("import", "t.trace", "--out", "d", "--range-bytes").status());
  }

  /** A plug-in's metric (decision 054) is refused in one line, which says how to build its model instead. */
  @Test
  void aPluginsMetricIsRefused() {
    PluginMetric plugin = new PluginMetric() {
      public String cliName() {
        return "state-count";
      }

      public String label() {
        return "states begun";
      }

      public EventCategory category() {
        return EventCategory.STATE;
      }

      public String unit(String timeUnit) {
        return "states";
      }

      public int version() {
        return 1;
      }

      public int sums() {
        return 1;
      }

      public void add(Columns columns, int record, Contributions into) {
        into.at(0, ((StateColumns) columns).start()[record], 1);
      }

      public double value(double[][] sums, int cell, double sliceWidth) {
        return sums[0][cell];
      }
    };
    assertEquals("the metric state-count is a plug-in's, which ocelotl-spark model does not run; build its model on "
        + "the dataset with ocelotl model DATASET --metric state-count",
        assertThrows(IllegalArgumentException.class, () -> ModelJob.checkBuiltIn(plugin)).getMessage());
    ModelJob.checkBuiltIn(Metric.STATE_AVERAGE);
  }
}
