package org.ocelotl.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Seeded random models for the benchmarks, of two kinds: "iid" (every value uniform in [0, 1),
 * nothing to find: few distinct optima) and "phases" (the window cut into random phases, the
 * leaves into 8 groups, each group × phase with its own random type profile (30% zero types),
 * each value that profile times 1 ± 10% noise: many distinct optima, like a real trace).
 */
final class BenchModels {
  private BenchModels() {}

  /** A root with the given producers as leaves. */
  static ProducerTree flat(int leaves) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      names.add("p" + i);
    }
    return ProducerTree.flat("root", names);
  }

  /** root › clusters › machines › cores. */
  static ProducerTree platform(int clusters, int machines, int cores) {
    List<String> names = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    names.add("root");
    parents.add(-1);
    for (int c = 0; c < clusters; c++) {
      int cluster = names.size();
      names.add("c" + c);
      parents.add(0);
      for (int m = 0; m < machines; m++) {
        int machine = names.size();
        names.add("c" + c + "m" + m);
        parents.add(cluster);
        for (int k = 0; k < cores; k++) {
          names.add("c" + c + "m" + m + "k" + k);
          parents.add(machine);
        }
      }
    }
    return new ProducerTree(names.toArray(new String[0]), parents.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * A tree with the given fan-out per level, the root first: {4, 8, 12, 2} is issue 28's platform
   * of 4 sites › 8 cabinets › 12 hosts › 2 ranks (768 leaves).
   */
  static ProducerTree levels(int... fanout) {
    List<String> names = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    names.add("root");
    parents.add(-1);
    addChildren(names, parents, 0, "n", fanout, 0);
    return new ProducerTree(names.toArray(new String[0]), parents.stream().mapToInt(Integer::intValue).toArray());
  }

  private static void addChildren(List<String> names, List<Integer> parents, int parent, String prefix, int[] fanout,
      int level) {
    if (level == fanout.length) {
      return;
    }
    for (int i = 0; i < fanout[level]; i++) {
      int node = names.size();
      names.add(prefix + "." + i);
      parents.add(parent);
      addChildren(names, parents, node, prefix + "." + i, fanout, level + 1);
    }
  }

  static MicroscopicModel model(String kind, ProducerTree tree, int slices, int types, long seed) {
    Random random = new Random(seed);
    int leaves = tree.leafCount();
    double[] values = new double[leaves * slices * types];
    if (kind.equals("iid")) {
      for (int i = 0; i < values.length; i++) {
        values[i] = random.nextDouble();
      }
    } else if (kind.equals("phases")) {
      int phases = 1 + slices / 10;
      int[] phaseOf = phases(random, slices, phases);
      int groups = 8;
      double[][][] profile = new double[groups][phases][types];
      for (double[][] group : profile) {
        for (double[] phase : group) {
          for (int u = 0; u < types; u++) {
            phase[u] = random.nextDouble() < 0.3 ? 0 : random.nextDouble();
          }
        }
      }
      for (int leaf = 0; leaf < leaves; leaf++) {
        int group = leaf * groups / leaves;
        for (int t = 0; t < slices; t++) {
          for (int u = 0; u < types; u++) {
            double noise = Math.max(0, 1 + 0.1 * random.nextGaussian());
            values[(leaf * slices + t) * types + u] = profile[group][phaseOf[t]][u] * noise;
          }
        }
      }
    } else {
      throw new IllegalArgumentException("model kind must be iid or phases, got " + kind);
    }
    List<String> typeNames = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      typeNames.add("type" + u);
    }
    return new MicroscopicModel(tree, slices, typeNames, values);
  }

  private static int[] phases(Random random, int slices, int phases) {
    int[] cuts = random.ints(phases - 1, 1, Math.max(2, slices)).sorted().toArray();
    int[] phaseOf = new int[slices];
    for (int t = 0, k = 0; t < slices; t++) {
      while (k < cuts.length && cuts[k] <= t) {
        k++;
      }
      phaseOf[t] = k;
    }
    return phaseOf;
  }
}
