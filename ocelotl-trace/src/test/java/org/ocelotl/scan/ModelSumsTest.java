package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;
import org.ocelotl.model.Metric;

/** Variable means: rounding residues below zero become zero, real negative values stay. */
class ModelSumsTest {
  /** 1 leaf × 2 slices of width 2 × 2 types; sums are value × time. */
  private static double[] means(double... valueTime) {
    return new ModelSums(Metric.VARIABLE_MEAN, new SliceGrid(0, 4, 2), 1, 2, new double[][] {valueTime}).values();
  }

  @Test
  void aResidueOfAdditionsAndSubtractionsIsZero() {
    // type 0 reaches 1.25e8 (a bandwidth); −1.04e-7 is 8e-16 of it: the residue of +x … −x
    assertArrayEquals(new double[] {2.5e8 / 2, 3, 0, 1}, means(2.5e8, 6, -2.08e-7, 2));
  }

  @Test
  void aRealNegativeValueIsKeptForTheModelToRefuse() {
    // type 1 reaches 3: −0.5 is a sixth of it, no rounding residue
    assertArrayEquals(new double[] {1, 3, 1, -0.5}, means(2, 6, 2, -1));
  }
}
