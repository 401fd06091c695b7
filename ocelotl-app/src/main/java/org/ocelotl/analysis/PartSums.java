package org.ocelotl.analysis;

import org.ocelotl.aggregation.Part;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/** Per type, the sum of a part's cells: what its mode, shares and value are read from. */
final class PartSums {
  private PartSums() {}

  static double[] of(MicroscopicModel model, Part part) {
    ProducerTree tree = model.tree();
    int firstLeaf = tree.firstLeaf(part.node());
    int leaves = tree.leafCount(part.node());
    double[] sums = new double[model.typeCount()];
    for (int leaf = firstLeaf; leaf < firstLeaf + leaves; leaf++) {
      for (int t = part.first(); t <= part.last(); t++) {
        for (int u = 0; u < sums.length; u++) {
          sums[u] += model.value(leaf, t, u);
        }
      }
    }
    return sums;
  }
}
