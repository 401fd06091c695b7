package org.ocelotl.scan;

import org.ocelotl.model.Metric;
import org.ocelotl.store.Columns;

/**
 * The service interface of a metric plug-in (docs/plugins.md): a jar on Ocelotl's class path that
 * names an implementation in {@code META-INF/services/org.ocelotl.scan.PluginMetric} adds a metric
 * to every command ({@code --metric NAME}), the API's {@code metric} key and the web page's menu.
 * Found with {@link java.util.ServiceLoader}, so the implementation needs a public constructor
 * without arguments.
 *
 * <p>A plug-in metric is what a built-in one is: it reads the records of one
 * {@link #category()} and adds, per record, to additive sums per (leaf, slice, type), from which
 * each cell's value is derived at the end ({@link #value}). Additive means that the sums of a run
 * of slices are the sums of its slices: the model cache keeps the sums of a fine grid and sums
 * them into coarser ones (splitting a slice in proportion where a new boundary cuts it, the model
 * then marked approximate), as it does for the built-in metrics.
 *
 * <p>The model's leaves and types are the producers and event types of the category after the
 * request's filters, exactly as for a built-in metric of that category; Ocelotl resolves the
 * record's cell before calling {@link #add}, and skips records of filtered producers or types.
 * Calls come from several threads at once, each with its own {@link Contributions}: an
 * implementation keeps no mutable state.
 */
public interface PluginMetric extends Metric {
  /**
   * The version of the sums' meaning, 1 or more, written in the cached model files: change it
   * when {@link #add} or {@link #sums} changes, so that models cached by the older code are not
   * used.
   */
  int version();

  /** How many sums each cell holds (1 to {@value Metrics#MAX_SUMS}). */
  int sums();

  /**
   * Adds record {@code record} of {@code columns} to its cells through {@code into}. The columns
   * are the category's: {@link org.ocelotl.store.StateColumns}, {@link org.ocelotl.store.EventColumns},
   * {@link org.ocelotl.store.VariableColumns} or {@link org.ocelotl.store.LinkColumns} (a link's
   * cell is its start producer's).
   */
  void add(Columns columns, int record, Contributions into);

  /**
   * The model's value of one cell from its sums ({@code sums[s][cell]}, s &lt; {@link #sums()});
   * {@code sliceWidth} is the slice's width in the trace's time unit. Must be finite and ≥ 0.
   */
  double value(double[][] sums, int cell, double sliceWidth);
}
