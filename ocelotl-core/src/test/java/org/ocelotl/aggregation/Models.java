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
}
