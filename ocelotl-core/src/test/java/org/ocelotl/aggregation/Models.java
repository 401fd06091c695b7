package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/** Seeded random trees and models for the tests. */
final class Models {
  private Models() {}

  /** A random tree of the given node count: each node's parent drawn among the earlier ones. */
  static ProducerTree randomTree(Random random, int nodes) {
    String[] names = new String[nodes];
    int[] parents = new int[nodes];
    parents[0] = -1;
    names[0] = "n0";
    for (int i = 1; i < nodes; i++) {
      parents[i] = random.nextInt(i);
      names[i] = "n" + i;
    }
    return new ProducerTree(names, parents);
  }

  /**
   * Values from {0, 1, 2, 3, 7}, with zero slices, copies of the previous slice and copies of
   * the previous leaf so that ties and zero-loss merges occur.
   */
  static MicroscopicModel randomModel(Random random, ProducerTree tree, int slices, int types) {
    int leaves = tree.leafCount();
    double[] values = new double[leaves * slices * types];
    double[] palette = {0, 1, 2, 3, 7};
    for (int leaf = 0; leaf < leaves; leaf++) {
      for (int t = 0; t < slices; t++) {
        int draw = random.nextInt(10);
        for (int u = 0; u < types; u++) {
          int index = (leaf * slices + t) * types + u;
          if (draw == 0) {
            values[index] = 0;
          } else if (draw == 1 && t > 0) {
            values[index] = values[index - types];
          } else if (draw == 2 && leaf > 0) {
            values[index] = values[index - slices * types];
          } else {
            values[index] = palette[random.nextInt(palette.length)];
          }
        }
      }
    }
    List<String> typeNames = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      typeNames.add("u" + u);
    }
    return new MicroscopicModel(tree, slices, typeNames, values);
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
   * A trace-like model: the slices cut into random phases, the leaves into groups, each group ×
   * phase with its own type profile (30 % zero types), each value that profile × (1 ± 10 % noise):
   * many distinct optima, as on real traces, with every pruning of the envelopes at work.
   */
  static MicroscopicModel phasesModel(Random random, ProducerTree tree, int slices, int types, int groups) {
    int leaves = tree.leafCount();
    int phases = 1 + slices / 10;
    int[] cuts = random.ints(phases - 1, 1, Math.max(2, slices)).sorted().toArray();
    double[][][] profile = new double[groups][phases][types];
    for (double[][] group : profile) {
      for (double[] phase : group) {
        for (int u = 0; u < types; u++) {
          phase[u] = random.nextDouble() < 0.3 ? 0 : random.nextDouble();
        }
      }
    }
    double[] values = new double[leaves * slices * types];
    for (int leaf = 0; leaf < leaves; leaf++) {
      for (int t = 0, phase = 0; t < slices; t++) {
        while (phase < cuts.length && cuts[phase] <= t) {
          phase++;
        }
        for (int u = 0; u < types; u++) {
          double noise = Math.max(0, 1 + 0.1 * random.nextGaussian());
          values[(leaf * slices + t) * types + u] = profile[leaf * groups / leaves][phase][u] * noise;
        }
      }
    }
    List<String> typeNames = new ArrayList<>();
    for (int u = 0; u < types; u++) {
      typeNames.add("u" + u);
    }
    return new MicroscopicModel(tree, slices, typeNames, values);
  }
}
