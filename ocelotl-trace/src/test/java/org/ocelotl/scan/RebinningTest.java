package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RebinningTest {
  @Test
  void alignedCoarseningSumsWholeSlices() {
    Rebinning r = Rebinning.of(new SliceGrid(0, 12, 12), new SliceGrid(0, 12, 3));
    assertTrue(r.exact());
    double[] fine = new double[12 * 2];
    for (int j = 0; j < 12; j++) {
      fine[j * 2] = j;
      fine[j * 2 + 1] = 1;
    }
    assertArrayEquals(new double[] {0 + 1 + 2 + 3, 4, 4 + 5 + 6 + 7, 4, 8 + 9 + 10 + 11, 4}, r.apply(fine, 1, 12, 2));
  }

  @Test
  void alignedSubWindowIsExact() {
    Rebinning r = Rebinning.of(new SliceGrid(0, 100, 100), new SliceGrid(20, 60, 8));
    assertTrue(r.exact());
  }

  @Test
  void straddlingSlicesAreSplitInProportion() {
    Rebinning r = Rebinning.of(new SliceGrid(0, 4, 4), new SliceGrid(0.5, 2.5, 2));
    assertFalse(r.exact());
    // Fine slices hold 10, 20, 30, 40; target [0.5,1.5) = half of 10 + half of 20.
    assertArrayEquals(new double[] {15, 25}, r.apply(new double[] {10, 20, 30, 40}, 1, 4, 1), 1e-12);
  }

  /** An approximate rebuild keeps every row's total over the target window within the parts of straddled slices. */
  @Test
  void approximateRebuildsConserveMassOfWholeWindow() {
    for (long seed = 1; seed <= 30; seed++) {
      Random random = new Random(seed);
      int fineSlices = 10 + random.nextInt(200);
      int coarse = 1 + random.nextInt(fineSlices);
      Rebinning r = Rebinning.of(new SliceGrid(0, 1, fineSlices), new SliceGrid(0, 1, coarse));
      double[] fine = new double[fineSlices * 3];
      double total = 0;
      for (int i = 0; i < fine.length; i++) {
        fine[i] = random.nextInt(3) == 0 ? 0 : random.nextDouble();
        total += fine[i];
      }
      double[] result = r.apply(fine, 1, fineSlices, 3);
      double sum = 0;
      for (double v : result) {
        sum += v;
      }
      assertEquals(total, sum, 1e-9 * total, "seed " + seed);
      assertEquals(fineSlices % coarse == 0, r.exact(), "seed " + seed + ": " + fineSlices + " → " + coarse);
    }
  }

  @Test
  void boundariesThatDifferOnlyByRoundingAlign() {
    int misaligned = 0;
    for (int fine = 2; fine <= 60; fine++) {
      for (int coarse = 1; coarse <= fine; coarse++) {
        if (fine % coarse != 0) {
          continue;
        }
        SliceGrid f = new SliceGrid(0.1, 0.7, fine);
        SliceGrid c = new SliceGrid(0.1, 0.7, coarse);
        for (int k = 0; k <= coarse; k++) {
          misaligned += c.boundary(k) == f.boundary(k * (fine / coarse)) ? 0 : 1;
        }
        assertTrue(Rebinning.of(f, c).exact(), fine + " → " + coarse);
      }
    }
    assertTrue(misaligned > 0, "the test needs grids whose shared boundaries differ in the last bits");
  }

  @Test
  void crossingsComeFromTheFineSliceWhereATargetSliceBegins() {
    // Fine slices [0,1) [1,2) [2,3) [3,4): starts 1, 2, 3, 4; crossings 0, 10, 20, 30.
    double[] starts = {1, 2, 3, 4};
    double[] crossings = {0, 10, 20, 30};
    Rebinning aligned = Rebinning.of(new SliceGrid(0, 4, 4), new SliceGrid(1, 3, 2));
    assertArrayEquals(new double[] {10, 20}, aligned.crossings(crossings, starts, 1, 4, 1));
    Rebinning split = Rebinning.of(new SliceGrid(0, 4, 4), new SliceGrid(1.5, 3.5, 2));
    // A slice beginning halfway into fine slice 1 counts its crossings and the half of its starts before it.
    assertArrayEquals(new double[] {11, 21.5}, split.crossings(crossings, starts, 1, 4, 1));
  }
}
