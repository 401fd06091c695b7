package org.ocelotl.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Metric#UTILIZATION} of a resource: its use over its capacity, per slice, from the
 * time-weighted means of the variables a simulator traces for it (SimGrid: a host's
 * {@code speed} and {@code speed_used}, a link's {@code bandwidth} and {@code bandwidth_used}).
 * Unitless, so hosts and links share one type and one scale, where the raw variables (flop/s
 * beside byte/s) cannot be compared.
 */
public final class Utilization {
  /** Capacities and their uses, pair by pair. */
  public static final List<String> CAPACITIES = List.of("speed", "power", "bandwidth");
  public static final List<String> USES = List.of("speed_used", "power_used", "bandwidth_used");
  /** The one type of a utilization model. */
  public static final String TYPE = "utilization";

  private Utilization() {}

  /**
   * The variables a utilization model reads: both of every pair that {@code filter} names by its
   * capacity or its use (every pair when the filter is empty), among {@code present}.
   */
  public static List<String> variables(List<String> present, List<String> filter) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < CAPACITIES.size(); i++) {
      boolean wanted = filter.isEmpty() || filter.contains(CAPACITIES.get(i)) || filter.contains(USES.get(i));
      if (wanted && present.contains(CAPACITIES.get(i)) && present.contains(USES.get(i))) {
        kept.add(CAPACITIES.get(i));
        kept.add(USES.get(i));
      }
    }
    return kept;
  }

  /**
   * Per leaf and slice, use over capacity of the first pair whose capacity is not 0 there (a
   * resource has one pair); 0 where none has a capacity. Never capped: where a trace's use
   * exceeds its capacity the value says so.
   *
   * @param means  a variable-mean model's values, (leaf, slice, type) as {@link MicroscopicModel} lays them
   * @param types  its type names; a name may be qualified by its group ("LINK/bandwidth")
   */
  public static double[] of(double[] means, int leaves, int slices, List<String> types) {
    int n = types.size();
    int[] capacity = new int[CAPACITIES.size()];
    int[] use = new int[USES.size()];
    java.util.Arrays.fill(capacity, -1);
    java.util.Arrays.fill(use, -1);
    for (int u = 0; u < n; u++) {
      String name = types.get(u).substring(types.get(u).lastIndexOf('/') + 1);
      if (CAPACITIES.contains(name)) {
        capacity[CAPACITIES.indexOf(name)] = u;
      } else if (USES.contains(name)) {
        use[USES.indexOf(name)] = u;
      }
    }
    double[] values = new double[leaves * slices];
    for (int cell = 0; cell < values.length; cell++) {
      int at = cell * n;
      for (int i = 0; i < capacity.length; i++) {
        if (capacity[i] >= 0 && use[i] >= 0 && means[at + capacity[i]] != 0) {
          values[cell] = means[at + use[i]] / means[at + capacity[i]];
          break;
        }
      }
    }
    return values;
  }
}
