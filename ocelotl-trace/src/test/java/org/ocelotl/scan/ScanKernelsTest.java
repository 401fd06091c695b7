package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScanKernelsTest {
  private static final int PRODUCERS = 5;
  private static final int TYPES = 3;

  /** Producer 4 and type 2 are filtered out; producer 3 maps to leaf 0, others to themselves. */
  private static ModelLayout layout(SliceGrid grid) {
    return new ModelLayout(new int[] {1, 2, 3, 0, -1}, new int[] {1, 0, -1}, 4, 2, grid);
  }

  /** Overlap of [s, e) with slice k, computed cell by cell: the definition, no cleverness. */
  private static double overlap(SliceGrid grid, int k, double s, double e) {
    return Math.max(0, Math.min(e, grid.boundary(k + 1)) - Math.max(s, grid.boundary(k)));
  }

  @Test
  void stateDurationsEqualCellByCellOverlaps() {
    for (long seed = 1; seed <= 50; seed++) {
      Random random = new Random(seed);
      int n = 200;
      int[] producer = new int[n];
      int[] type = new int[n];
      double[] start = new double[n];
      double[] end = new double[n];
      for (int i = 0; i < n; i++) {
        producer[i] = random.nextInt(PRODUCERS);
        type[i] = random.nextInt(TYPES);
        start[i] = random.nextInt(4) == 0 ? random.nextInt(11) : random.nextDouble() * 10;
        end[i] = start[i] + (random.nextInt(5) == 0 ? 0 : random.nextDouble() * random.nextInt(6));
      }
      SliceGrid grid = new SliceGrid(1 + random.nextInt(3) * 0.7, 7 + random.nextDouble(), 1 + random.nextInt(20));
      ModelLayout layout = layout(grid);
      double[] cells = new double[layout.cells()];
      double[] starts = new double[layout.cells()];
      double[] crossings = new double[layout.cells()];
      ScanKernels.stateDurations(layout, 0, grid.slices(), n, producer, type, null, start, end, cells, starts,
          crossings);
      double[] touches = new double[layout.cells()];
      Arrays.setAll(touches, c -> starts[c] + crossings[c]);

      double[] expected = new double[layout.cells()];
      double[] expectedTouches = new double[layout.cells()];
      for (int i = 0; i < n; i++) {
        int leaf = layout.leafOf()[producer[i]];
        int slot = layout.typeOf()[type[i]];
        if (leaf < 0 || slot < 0) {
          continue;
        }
        for (int k = 0; k < grid.slices(); k++) {
          int cell = layout.base(leaf, slot) + k * layout.types();
          double o = overlap(grid, k, start[i], end[i]);
          expected[cell] += o;
          boolean instantInSlice = start[i] == end[i] && start[i] >= grid.boundary(k) && start[i] < grid.boundary(k + 1);
          if (o > 0 || instantInSlice) {
            expectedTouches[cell] += 1;
          }
        }
      }
      for (int c = 0; c < cells.length; c++) {
        assertEquals(expected[c], cells[c], 1e-12, "seed " + seed + " cell " + c);
      }
      assertEquals(Arrays.toString(expectedTouches), Arrays.toString(touches), "seed " + seed);
    }
  }

  @Test
  void occurrencesFallInTheSliceOfTheirInstant() {
    SliceGrid grid = new SliceGrid(0, 1, 10);
    ModelLayout layout = layout(grid);
    double[] cells = new double[layout.cells()];
    // 0.3 is a boundary: it belongs to slice 3, even though 0.3 * 10 rounds below 3 in binary.
    double[] time = {0.0, 0.3, 0.3, 0.99, 1.0, -0.1, 0.5};
    int[] producer = {3, 0, 0, 1, 1, 1, 4};
    int[] type = {1, 0, 0, 1, 1, 1, 1};
    ScanKernels.occurrences(layout, 0, 10, time.length, producer, type, time, null, cells);
    assertEquals(1, cells[layout.base(0, 0) + 0 * 2]);
    assertEquals(2, cells[layout.base(1, 1) + 3 * 2]);
    assertEquals(1, cells[layout.base(2, 0) + 9 * 2]);
    assertEquals(4, Arrays.stream(cells).sum(), "1.0 is outside [0,1), -0.1 too, producer 4 is filtered");
    // Weighted (link volumes): each adds its weight; an unknown (NaN) one adds nothing.
    double[] weighted = new double[layout.cells()];
    double[] volume = {8, 16, Double.NaN, 32, 64, 128, 256};
    ScanKernels.occurrences(layout, 0, 10, time.length, producer, type, time, volume, weighted);
    assertEquals(8, weighted[layout.base(0, 0) + 0 * 2]);
    assertEquals(16, weighted[layout.base(1, 1) + 3 * 2]);
    assertEquals(32, weighted[layout.base(2, 0) + 9 * 2]);
    assertEquals(56, Arrays.stream(weighted).sum());
  }

  @Test
  void sliceOfAgreesWithBoundariesEverywhere() {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      SliceGrid grid = new SliceGrid(random.nextDouble() * 100, 100 + random.nextDouble() * 1e6, 1 + random.nextInt(10_000));
      ModelLayout layout = layout(grid);
      for (int k = 0; k < grid.slices(); k++) {
        assertEquals(k, grid.sliceOf(grid.boundary(k)), "seed " + seed + " boundary " + k);
        assertEquals(k, grid.sliceOf(Math.nextDown(grid.boundary(k + 1))), "seed " + seed + " before boundary " + (k + 1));
        assertEquals(k, layout.sliceOf(grid.boundary(k)), "layout, seed " + seed + " boundary " + k);
        assertEquals(k, layout.sliceOf(Math.nextDown(grid.boundary(k + 1))), "layout, seed " + seed + " before " + (k + 1));
        double inside = grid.boundary(k) + random.nextDouble() * grid.width();
        assertEquals(grid.sliceOf(inside), layout.sliceOf(inside), "seed " + seed + " at " + inside);
      }
    }
  }

  @Test
  void stepsWeighValuesByTime() {
    SliceGrid grid = new SliceGrid(0, 4, 4);
    ModelLayout layout = layout(grid);
    double[] cells = new double[layout.cells()];
    ScanKernels.steps(layout, 0, 4, 2, new int[] {1, 1}, new int[] {0, 0},
        new double[] {0.5, 2.0}, new double[] {2.0, 10.0}, new double[] {2.0, 3.0}, cells);
    int base = layout.base(2, 1);
    assertEquals(1.0, cells[base]);
    assertEquals(2.0, cells[base + 2]);
    assertEquals(3.0, cells[base + 4]);
    assertEquals(3.0, cells[base + 6]);
  }
}
