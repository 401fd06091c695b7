package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Times with a unit suffix: exact conversions, bare numbers left to the caller, clear refusals. */
class TimeTextTest {
  @Test
  void convertsExactlyIntoTheTracesUnit() {
    assertEquals(1e12 + 150_000_000, TimeText.time("150ms", 1e12, "ns"));
    assertEquals(2_500_000_000.0, TimeText.time("2.5s", 0, "ns"));
    assertEquals(300_000.0, TimeText.time("300us", 0, "ns"));
    assertEquals(300_000.0, TimeText.time("300µs", 0, "ns"));
    assertEquals(10.0, TimeText.time("10ns", 0, "ns"));
    assertEquals(90_000_000_000.0, TimeText.time("1.5min", 0, "ns"));
    // 0.15 s on a trace in seconds is the double nearest 0.15 (not 150 × 0.001 = 0.15000000000000002).
    assertEquals(0.15, TimeText.time("150ms", 0, "s"));
    assertEquals(7200.0 + 3, TimeText.time("2h", 3, "s"));
    assertEquals(150.0, TimeText.time("150ms", 0, "ms"));
    assertEquals(6.0, TimeText.time("2s", 0, "ticks@3/s"));
    assertEquals(2_000_000.0, TimeText.duration("2ms", "ns"));
    assertNull(TimeText.time("1.5e3", 0, "ns"));
    assertEquals(1500.0, TimeText.parse("1.5e3", 7, "ns"));
  }

  @Test
  void refusesWhatItCannotRead() {
    assertEquals("unknown time unit 'xs' in '150xs': expected a bare number (the trace's unit) or a number with ns, "
        + "us, ms, s, min or h (time since the trace's start)",
        assertThrows(IllegalArgumentException.class, () -> TimeText.time("150xs", 0, "ns")).getMessage());
    assertEquals("'2s': this trace's times are in slices, which has no length in seconds; give a bare number",
        assertThrows(IllegalArgumentException.class, () -> TimeText.time("2s", 0, "slices")).getMessage());
    assertEquals("expected a time (a number in the trace's unit, or since the trace's start with ns, us, ms, s, min "
        + "or h), found 'soon'", assertThrows(IllegalArgumentException.class, () -> TimeText.parse("soon", 0, "s"))
        .getMessage());
  }
}
