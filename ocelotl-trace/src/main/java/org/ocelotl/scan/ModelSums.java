package org.ocelotl.scan;

import org.ocelotl.model.BuiltInMetric;
import org.ocelotl.model.Metric;
import org.ocelotl.store.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.VariableColumns;

/**
 * The additive quantities behind a model, laid out like the model (leaf, slice, type): what a
 * scan produces, what the cache keeps and rebins, and what the metric's value is derived from.
 * <ul>
 *   <li>state-duration: durations;
 *   <li>state-average: durations, starts, crossings (see {@link ScanKernels#stateDurations});
 *   <li>event-count, link-count: counts;
 *   <li>variable-mean: Σ value × time;
 *   <li>utilization: Σ value × time of each capacity and its use (divided in {@link ModelBuilder#model});
 *   <li>a plug-in's metric: the sums it declares ({@link PluginMetric#sums}).
 * </ul>
 */
record ModelSums(Metric metric, SliceGrid grid, int leaves, int types, double[][] arrays) {
  static final int SUMS = 0;
  static final int STARTS = 1;
  static final int CROSSINGS = 2;

  static int arrayCount(Metric metric) {
    return metric instanceof PluginMetric plugin ? plugin.sums() : metric == Metric.STATE_AVERAGE ? 3 : 1;
  }

  static ModelSums zero(Metric metric, SliceGrid grid, int leaves, int types) {
    int cells = Math.multiplyExact(Math.multiplyExact(leaves, grid.slices()), types);
    double[][] arrays = new double[arrayCount(metric)][cells];
    return new ModelSums(metric, grid, leaves, types, arrays);
  }

  /**
   * Adds a batch of records of the metric's category, in the band of slices [lo, hi) of
   * {@code layout}'s grid: the one place that says which kernel, on which columns, serves which
   * metric, for every engine (a store's chunk, a Spark partition's rows). A built-in metric runs
   * its own loop, with no call per record; a plug-in's is called per record. {@code inclusive}: the
   * states' whole time, not their exclusive time (which reads the outer-type column).
   */
  void add(ModelLayout layout, boolean inclusive, int lo, int hi, Columns columns) {
    if (metric instanceof PluginMetric plugin) {
      addEach(plugin, layout, lo, hi, columns);
      return;
    }
    double[] cells = arrays[SUMS];
    int n = columns.size();
    switch ((BuiltInMetric) metric) {
      case STATE_DURATION, STATE_AVERAGE -> {
        StateColumns c = (StateColumns) columns;
        boolean average = metric == Metric.STATE_AVERAGE;
        ScanKernels.stateDurations(layout, lo, hi, n, c.producer(), c.type(), inclusive ? null : c.outer(),
            c.start(), c.end(), cells, average ? arrays[STARTS] : null, average ? arrays[CROSSINGS] : null);
      }
      case EVENT_COUNT -> {
        EventColumns c = (EventColumns) columns;
        ScanKernels.occurrences(layout, lo, hi, n, c.producer(), c.type(), c.time(), null, cells);
      }
      case VARIABLE_MEAN, UTILIZATION -> {
        VariableColumns c = (VariableColumns) columns;
        ScanKernels.steps(layout, lo, hi, n, c.producer(), c.type(), c.start(), c.end(), c.value(), cells);
      }
      case LINK_COUNT, LINK_VOLUME -> {
        LinkColumns c = (LinkColumns) columns;
        ScanKernels.occurrences(layout, lo, hi, n, c.from(), c.type(), c.start(),
            metric == Metric.LINK_VOLUME ? c.volume() : null, cells);
      }
    }
  }

  /** A plug-in's additions: each record of a kept producer and type, bound to its cell, cut to the band. */
  private void addEach(PluginMetric plugin, ModelLayout layout, int lo, int hi, Columns columns) {
    int[] producer;
    int[] type;
    if (columns instanceof StateColumns c) {
      producer = c.producer();
      type = c.type();
    } else if (columns instanceof EventColumns c) {
      producer = c.producer();
      type = c.type();
    } else if (columns instanceof VariableColumns c) {
      producer = c.producer();
      type = c.type();
    } else {
      LinkColumns c = (LinkColumns) columns;
      producer = c.from();
      type = c.type();
    }
    int[] leafOf = layout.leafOf();
    int[] typeOf = layout.typeOf();
    Contributions into = new Contributions(layout, lo, hi, arrays);
    for (int i = 0, n = columns.size(); i < n; i++) {
      int leaf = leafOf[producer[i]];
      int slot = typeOf[type[i]];
      if (leaf >= 0 && slot >= 0) {
        into.bind(leaf, slot);
        plugin.add(columns, i, into);
      }
    }
  }

  /** Adds {@code other}'s sums, of the same model, cell by cell. */
  void add(double[][] other) {
    if (other.length != arrays.length || other[0].length != arrays[0].length) {
      throw new IllegalArgumentException("partial sums of " + other.length + " × " + other[0].length
          + " cells for a model of " + arrays.length + " × " + arrays[0].length);
    }
    for (int a = 0; a < arrays.length; a++) {
      double[] into = arrays[a];
      double[] from = other[a];
      for (int i = 0; i < into.length; i++) {
        into[i] += from[i];
      }
    }
  }

  ModelSums copy() {
    double[][] copies = new double[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      copies[i] = arrays[i].clone();
    }
    return new ModelSums(metric, grid, leaves, types, copies);
  }

  int cells() {
    return arrays[0].length;
  }

  /**
   * The metric's values. For durations and counts this is the sums array itself (no copy):
   * the sums must not be used afterwards.
   */
  double[] values() {
    if (metric instanceof PluginMetric plugin) {
      return derived(plugin);
    }
    double[] sums = arrays[SUMS];
    return switch ((BuiltInMetric) metric) {
      case STATE_DURATION -> withoutResidues(sums);
      case EVENT_COUNT, LINK_COUNT, LINK_VOLUME -> sums;
      case STATE_AVERAGE -> averages(withoutResidues(sums), arrays[STARTS], arrays[CROSSINGS]);
      case VARIABLE_MEAN, UTILIZATION -> means(sums);
    };
  }

  /** A plug-in's values, each checked: a model holds finite values ≥ 0. */
  private double[] derived(PluginMetric plugin) {
    double[] values = new double[cells()];
    int slices = grid.slices();
    for (int k = 0; k < slices; k++) {
      double width = grid.boundary(k + 1) - grid.boundary(k);
      for (int leaf = 0; leaf < leaves; leaf++) {
        int at = (leaf * slices + k) * types;
        for (int u = 0; u < types; u++) {
          double value = plugin.value(arrays, at + u, width);
          if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("the metric plug-in " + plugin.cliName() + " (" + plugin.getClass().getName()
                + ") gave the value " + value + " to slice " + k + " of a cell; a model's values are finite and ≥ 0");
          }
          values[at + u] = value;
        }
      }
    }
    return values;
  }

  /**
   * The durations with rounding residues of exclusive time set to 0: a state's time less that of
   * the states nested in it is a sum of additions and subtractions, exactly 0 where nested states
   * fill the slice, and off by a few ulps of the durations involved (at most the slice's width per
   * producer, more where a depth cut merges producers). {@link #RESIDUE} of the larger of the
   * width and the type's largest duration covers that; inclusive durations are never negative.
   */
  private double[] withoutResidues(double[] durations) {
    int first = 0;
    while (first < durations.length && durations[first] >= 0) {
      first++;
    }
    if (first == durations.length) {
      return durations; // the common case, and every inclusive model: one pass
    }
    double[] largest = new double[types];
    for (int i = 0; i < durations.length; i++) {
      largest[i % types] = Math.max(largest[i % types], durations[i]);
    }
    int slices = grid.slices();
    for (int i = first; i < durations.length; i++) {
      if (durations[i] < 0) {
        int k = i / types % slices;
        double width = grid.boundary(k + 1) - grid.boundary(k);
        if (-durations[i] <= RESIDUE * Math.max(width, largest[i % types])) {
          durations[i] = 0;
        }
      }
    }
    return durations;
  }

  private static double[] averages(double[] durations, double[] starts, double[] crossings) {
    double[] values = new double[durations.length];
    for (int i = 0; i < values.length; i++) {
      double touches = starts[i] + crossings[i];
      values[i] = touches > 0 ? durations[i] / touches : 0;
    }
    return values;
  }

  /**
   * A negative mean this close to 0, relative to the largest magnitude of its type in the model,
   * is a rounding residue: traces build variables by sequences of additions and subtractions
   * (SimGrid's bandwidth_used: +x … −x), whose result carries an error of about n·2^-53 of the
   * magnitudes involved, n the number of operations; 1e-9 covers n up to 10^7 and stays far below
   * any value a reader could see. Larger negative values are real, and refused by the model.
   */
  static final double RESIDUE = 1e-9;

  private double[] means(double[] valueTime) {
    double[] values = new double[valueTime.length];
    double[] largest = new double[types];
    int slices = grid.slices();
    for (int k = 0; k < slices; k++) {
      double width = grid.boundary(k + 1) - grid.boundary(k);
      for (int leaf = 0; leaf < leaves; leaf++) {
        int at = (leaf * slices + k) * types;
        for (int u = 0; u < types; u++) {
          double mean = valueTime[at + u] / width;
          values[at + u] = mean;
          largest[u] = Math.max(largest[u], Math.abs(mean));
        }
      }
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] < 0 && -values[i] <= RESIDUE * largest[i % types]) {
        values[i] = 0;
      }
    }
    return values;
  }

  /** The sums of the same model on {@code target}, summed (and where needed split) from these. */
  ModelSums rebin(Rebinning rebinning, SliceGrid target) {
    int fine = grid.slices();
    double[][] result = new double[arrays.length][];
    for (int a = 0; a < arrays.length; a++) {
      // Crossings are the one sum that is not additive over slices (see ScanKernels#stateDurations).
      result[a] = metric == Metric.STATE_AVERAGE && a == CROSSINGS
          ? rebinning.crossings(arrays[CROSSINGS], arrays[STARTS], leaves, fine, types)
          : rebinning.apply(arrays[a], leaves, fine, types);
    }
    return new ModelSums(metric, target, leaves, types, result);
  }

  /**
   * These sums, of {@code fine} (every producer its own row, every type its own column), summed
   * into the rows and columns of {@code target}, a plan of the same metric and grid with producer
   * and type filters: each store producer's row goes where the target routes that producer's
   * records, so the result is what a scan with the filters sums, added in another order where the
   * target merges producers (a depth cut). Null when a row of {@code fine} is not one producer's.
   */
  ModelSums projected(ModelPlan fine, ModelPlan target) {
    int[] rowOf = new int[leaves];
    java.util.Arrays.fill(rowOf, -2);
    int[] fineLeafOf = fine.tree().leafOf();
    int[] leafOf = target.tree().leafOf();
    for (int p = 0; p < fineLeafOf.length; p++) {
      int row = fineLeafOf[p];
      if (row >= 0) {
        if (rowOf[row] != -2) {
          return null;
        }
        rowOf[row] = leafOf[p];
      }
    }
    int[] columnOf = new int[types];
    java.util.Arrays.fill(columnOf, -1);
    for (int t = 0; t < fine.typeOf().length; t++) {
      if (fine.typeOf()[t] >= 0) {
        columnOf[fine.typeOf()[t]] = target.typeOf()[t];
      }
    }
    int slices = grid.slices();
    int targetTypes = target.types();
    ModelSums result = zero(metric, grid, target.leaves(), targetTypes);
    for (int a = 0; a < arrays.length; a++) {
      double[] from = arrays[a];
      double[] to = result.arrays[a];
      for (int row = 0; row < leaves; row++) {
        int into = rowOf[row];
        if (into < 0) {
          continue;
        }
        for (int k = 0; k < slices; k++) {
          int at = (row * slices + k) * types;
          int out = (into * slices + k) * targetTypes;
          for (int u = 0; u < types; u++) {
            if (columnOf[u] >= 0) {
              to[out + columnOf[u]] += from[at + u];
            }
          }
        }
      }
    }
    return result;
  }
}
