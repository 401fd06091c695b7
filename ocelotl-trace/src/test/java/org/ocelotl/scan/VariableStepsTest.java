package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VariableStepsTest {
  @Test
  void changesBecomeStepsUntilTheNextChangeOrTheProducerEnd() {
    // Store: 2 producers, 3 types; model: type 2 only (slot 0), producers 0 and 1 → leaves 0, 1.
    ModelLayout layout = new ModelLayout(new int[] {0, 1}, new int[] {-1, -1, 0}, 2, 1, new SliceGrid(0, 10, 5));
    double[] cells = new double[layout.cells()];
    VariableSteps steps = new VariableSteps(layout, cells);
    // Split over two calls, as chunks arrive; type 0 changes are not in the model.
    steps.accept(3, new int[] {0, 1, 0}, new int[] {2, 2, 0}, new double[] {1, 1, 2}, new double[] {4, 1, 99});
    steps.accept(3, new int[] {0, 0, 0}, new int[] {2, 2, 2}, new double[] {3, 3, 5}, new double[] {6, 2, 0});
    steps.finish(new double[] {10, 8});
    // Producer 0: 4 on [1,3), then 6 then 2 at 3 (the later wins: 6 holds for no time), 2 on [3,5), 0 after.
    assertEquals(4.0, cells[0], "slice [0,2): 4·1");
    assertEquals(4.0 + 2.0, cells[1], "slice [2,4): 4·1 + 2·1");
    assertEquals(2.0, cells[2], "slice [4,6): 2·1 + 0·1");
    assertEquals(0.0, cells[3] + cells[4]);
    // Producer 1: 1 on [1, 8).
    assertEquals(1.0, cells[5]);
    assertEquals(2.0, cells[6]);
    assertEquals(2.0, cells[7]);
    assertEquals(2.0, cells[8]);
    assertEquals(0.0, cells[9]);
  }
}
