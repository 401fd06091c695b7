package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.ocelotl.model.MicroscopicModel;

/** A cancelled computation stops with the caller's exception; progress is reported on the way. */
class WorkTest {
  static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  static MicroscopicModel model(long seed) {
    Random random = new Random(seed);
    return Models.randomModel(random, Models.randomTree(random, 20), 40, 2);
  }

  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void aCancelledComputationStops(Aggregation aggregation) {
    AtomicLong checks = new AtomicLong();
    AtomicBoolean cancelled = new AtomicBoolean();
    Work work = new Work() {
      @Override
      public void check() {
        checks.incrementAndGet();
        if (cancelled.get()) {
          throw new Stop();
        }
      }
    };
    Qualities qualities = Qualities.of(model(5), aggregation, work);
    cancelled.set(true);
    RuntimeException e = assertThrows(RuntimeException.class, qualities::breakpoints);
    assertTrue(e instanceof Stop || e.getCause() instanceof Stop, "the caller's exception: " + e);
    assertTrue(checks.get() > 0);
  }

  /**
   * Once the breakpoints are found the caller is released: parts built later, for another
   * request, must not answer to the first caller's cancellation (it had made a cached analysis
   * fail with another page's "request 5 was cancelled").
   */
  @ParameterizedTest
  @EnumSource(Aggregation.class)
  void partsBuiltLaterAnswerToNobody(Aggregation aggregation) {
    AtomicBoolean cancelled = new AtomicBoolean();
    Work work = new Work() {
      @Override
      public void check() {
        if (cancelled.get()) {
          throw new Stop();
        }
      }
    };
    var breakpoints = Qualities.of(model(7), aggregation, work).breakpoints();
    cancelled.set(true);
    for (Breakpoint b : breakpoints) {
      assertEquals(b.partition().size(), b.partition().parts().size());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Aggregation.class, names = {"TEMPORAL", "SPATIOTEMPORAL"})
  void progressIsReportedAndTheAnswerIsUnchanged(Aggregation aggregation) {
    AtomicLong lastTotal = new AtomicLong();
    AtomicLong reports = new AtomicLong();
    Work work = new Work() {
      @Override
      public void advanced(long done, long total) {
        reports.incrementAndGet();
        assertTrue(total <= 0 || done <= total, done + " of " + total);
        lastTotal.set(total);
      }
    };
    MicroscopicModel model = model(6);
    var watched = Qualities.of(model, aggregation, work).breakpoints();
    var plain = Qualities.of(model, aggregation).breakpoints();
    assertTrue(reports.get() > 0);
    assertEquals(plain.size(), watched.size());
    for (int k = 0; k < plain.size(); k++) {
      assertEquals(plain.get(k).p(), watched.get(k).p());
      assertEquals(plain.get(k).partition().gain(), watched.get(k).partition().gain());
    }
  }
}
