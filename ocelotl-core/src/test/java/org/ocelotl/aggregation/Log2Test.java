package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class Log2Test {
  @Test
  void matchesMathLogOverTheWholeRange() {
    Random random = new Random(42);
    for (int k = 0; k < 1_000_000; k++) {
      double x = Math.exp(random.nextDouble() * 1453 - 744); // subnormals up to 8e307
      double expected = Math.log(x) / Math.log(2);
      double error = Math.abs(Log2.log2(x) - expected) / Math.max(1, Math.abs(expected));
      assertTrue(error < 1e-15, "log2(" + x + ") = " + Log2.log2(x) + " vs " + expected);
    }
  }

  @Test
  void exactAtPowersOfTwoAndZero() {
    for (int e = -1074; e <= 1023; e++) {
      assertEquals(e, Log2.log2(Math.scalb(1.0, e)), 1e-15 * Math.max(1, Math.abs(e)), "2^" + e);
    }
    assertEquals(0, Log2.xlog2x(0));
    assertEquals(3 * 8, Log2.xlog2x(8), 1e-13);
  }
}
