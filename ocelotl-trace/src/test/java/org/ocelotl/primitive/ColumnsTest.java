package org.ocelotl.primitive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Growable columns: every value back in order, across every doubling of the capacity. */
class ColumnsTest {
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 15, 16, 17, 31, 32, 33, 1000, 4097})
  void valuesComeBackInOrderAcrossGrowth(int count) {
    long seed = 7L * count;
    Random random = new Random(seed);
    double[] doubles = new double[count];
    int[] ints = new int[count];
    DoubleColumn d = new DoubleColumn(1);
    IntColumn i = new IntColumn();
    for (int k = 0; k < count; k++) {
      doubles[k] = random.nextDouble();
      ints[k] = random.nextInt();
      d.add(doubles[k]);
      i.add(ints[k]);
    }
    assertEquals(count, d.size(), "seed " + seed);
    assertArrayEquals(doubles, d.toArray(), "seed " + seed);
    assertArrayEquals(ints, i.toArray(), "seed " + seed);
    for (int k = 0; k < count; k++) {
      assertEquals(ints[k], i.get(k), "seed " + seed + " at " + k);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 17})
  void aColumnIsAlsoAStack(int count) {
    IntColumn stack = new IntColumn(2);
    for (int k = 0; k < count; k++) {
      stack.add(k);
    }
    for (int k = count - 1; k >= 0; k--) {
      assertEquals(k, stack.get(stack.size() - 1));
      stack.removeLast();
    }
    assertEquals(0, stack.size());
    assertThrows(IllegalStateException.class, stack::removeLast);
    stack.add(5);
    stack.clear();
    assertEquals(0, stack.toArray().length);
  }
}
