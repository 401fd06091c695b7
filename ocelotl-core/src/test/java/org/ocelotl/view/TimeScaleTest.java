package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Times since the trace's start, in a unit that suits the span on screen. */
class TimeScaleTest {
  private static void assertScale(String unit, double factor, TimeScale scale) {
    assertEquals(unit, scale.unit(), scale.toString());
    assertEquals(factor, scale.factor(), factor * 1e-15, scale.toString());
  }

  @Test
  void theUnitSuitsTheSpan() {
    assertScale("s", 1, TimeScale.of("s", 0, 13.56));
    assertScale("ms", 1e3, TimeScale.of("s", 0, 0.85));
    assertScale("µs", 1e-3, TimeScale.of("ns", 0, 42_000));
    assertScale("s", 1e-9, TimeScale.of("ns", 32_078_927, 3_790_922_091.0)); // the OTF2 sample
    assertScale("s", 1e-6, TimeScale.of("µs", 927_200_000, 2_500_000)); // the Chrome sample: 2.5 s
    assertScale("s", 1e-6, TimeScale.of("us", 0, 2_500_000));
    assertScale("min", 1.0 / 60, TimeScale.of("s", 0, 900));
    assertScale("h", 1.0 / 3600, TimeScale.of("s", 0, 86_400));
    assertScale("ns", 1, TimeScale.of("ns", 0, 0.5));
  }

  @Test
  void timesAreRelativeToTheTracesStart() {
    TimeScale chrome = TimeScale.of("µs", 927_200_000, 2_500_000);
    assertEquals(0, chrome.at(927_200_000), 0);
    assertEquals(1.5, chrome.at(928_700_000), 1e-12);
  }

  @Test
  void anUnknownUnitIsKeptRelativeToTheStart() {
    TimeScale slices = TimeScale.of("slice", 0, 30);
    assertScale("slice", 1, slices);
    assertEquals(30, slices.at(30), 0);
    assertScale("ticks", 1, TimeScale.of("ticks", 5, 0));
  }
}
