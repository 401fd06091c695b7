package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A partial model's bytes added into a total give, bit for bit, the dense arrays added cell by cell;
 * the zero cells are left out of the bytes.
 */
class PartialSumsTest {
  /** Seeded arrays with zero runs of every length from 0 to 5 at the start, inside and at the end. */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void addingTheBytesIsAddingTheCells(long seed) {
    Random random = new Random(seed);
    double[][] partial = new double[1 + random.nextInt(3)][1 + random.nextInt(200)];
    for (double[] cells : partial) {
      for (int at = random.nextInt(6); at < cells.length; ) {
        for (int run = 1 + random.nextInt(8); run > 0 && at < cells.length; run--) {
          cells[at++] = random.nextInt(4) == 0 ? -0.0 : random.nextDouble() * 100 - 20;
        }
        at += random.nextInt(6);
      }
    }
    double[][] total = new double[partial.length][partial[0].length];
    for (double[] cells : total) {
      for (int i = 0; i < cells.length; i++) {
        cells[i] = random.nextInt(3) == 0 ? 0 : random.nextDouble();
      }
    }
    double[][] expected = new double[total.length][];
    for (int a = 0; a < total.length; a++) {
      expected[a] = total[a].clone();
      for (int i = 0; i < expected[a].length; i++) {
        expected[a][i] += partial[a][i];
      }
    }
    PartialSums.addInto(total, PartialSums.encode(partial));
    for (int a = 0; a < total.length; a++) {
      assertArrayEquals(bits(expected[a]), bits(total[a]), "seed " + seed + ", array " + a);
    }
  }

  @Test
  void zeroCellsAreLeftOut() {
    double[] cells = new double[1000];
    cells[10] = 1;
    cells[11] = 0; // a lone zero stays inside the run
    cells[12] = 2;
    cells[900] = 3;
    // header 8, runs count 4, two runs of 8 bytes of header: 3 values and 1 value
    assertEquals(8 + 4 + 2 * 8 + 4 * Double.BYTES, PartialSums.encode(new double[][] {cells}).length);
    assertEquals(8 + 4, PartialSums.encode(new double[][] {new double[1000]}).length);
  }

  @Test
  void sumAddsInTheIteratorsOrder() {
    double[][] a = {{1e16, 0, 0, 5}};
    double[][] b = {{1, 0, 2, 0}};
    double[][] c = {{-1e16, 3, 0, 0}};
    double[][] total = new double[1][4];
    PartialSums.addInto(total, PartialSums.sum(List.of(PartialSums.encode(a), PartialSums.encode(b),
        PartialSums.encode(c)).iterator()).next());
    // (1e16 + 1) - 1e16 = 0 in doubles: the order a, b, c, not another.
    assertArrayEquals(new double[] {0, 3, 2, 5}, total[0]);
    assertEquals(false, PartialSums.sum(List.<byte[]>of().iterator()).hasNext());
  }

  @Test
  void aPartialOfAnotherShapeIsRefused() {
    byte[] bytes = PartialSums.encode(new double[][] {new double[10]});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PartialSums.addInto(new double[1][11], bytes));
    assertEquals("partial sums of 1 × 10 cells for a model of 1 × 11", e.getMessage());
  }

  private static long[] bits(double[] values) {
    long[] bits = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Double.doubleToRawLongBits(values[i]);
    }
    return bits;
  }
}
