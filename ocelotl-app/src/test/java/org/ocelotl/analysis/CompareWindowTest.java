package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The window of BASE matched with a window of OTHER's time ({@link AnalysisService#matching}): the
 * same offsets scaled by the ratio of the spans compared, and the spans' own bounds exactly.
 */
class CompareWindowTest {
  @Test
  void equalSpansKeepTheOffsets() {
    // Align start: both spans last 4; OTHER starts at 0, BASE at 10.
    assertArrayEquals(new double[] {11, 12.5}, AnalysisService.matching(new double[] {1, 2.5}, new double[] {0, 4},
        new double[] {10, 14}, "s"));
  }

  @Test
  void stretchedSpansScaleThem() {
    // Align stretch: OTHER's [0, 4) onto BASE's [0, 2): a window a quarter in is a quarter in.
    assertArrayEquals(new double[] {0.5, 1.5}, AnalysisService.matching(new double[] {1, 3}, new double[] {0, 4},
        new double[] {0, 2}, "s"));
  }

  /** 0.8 + (5 − 0.9) · (4.2 / 4.1) rounds to 4.999999999999999: the bound itself is given instead. */
  @Test
  void theWholeSpanIsBasesOwnSpanToTheBit() {
    assertArrayEquals(new double[] {0.8, 5.0}, AnalysisService.matching(new double[] {0.9, 5.0},
        new double[] {0.9, 5.0}, new double[] {0.8, 5.0}, "s"));
  }

  @Test
  void aWindowBeyondTheSpanIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AnalysisService.matching(
        new double[] {1, 5}, new double[] {0, 4}, new double[] {0, 4}, "ms"));
    assertEquals("the window compared, [1.0, 5.0) in OTHER's time, must lie within [0.0, 4.0) ms, the span the align "
        + "compares", e.getMessage());
  }
}
