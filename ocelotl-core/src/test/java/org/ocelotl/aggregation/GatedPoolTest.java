package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.MicroscopicModel;

/**
 * A spatiotemporal programme run in a {@link GatedPool} (decision 078): on several workers, the
 * one-worker programme's partition; stopped at its next node once the gate closes; and a chain of
 * parts ({@link PartsAhead}) built there, its programmes stopped now and then and run again, the
 * chain a one-worker pool builds, breakpoint for breakpoint.
 */
class GatedPoolTest {
  private static MicroscopicModel model(long seed) {
    return Models.phasesModel(new Random(seed), Models.platform(3, 3, 3), 24, 3, 3);
  }

  @Test
  void onSeveralWorkersAProgrammeGivesTheOneWorkersPartition() throws Exception {
    MicroscopicModel model = model(78);
    Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    ForkJoinPool one = new ForkJoinPool(1);
    GatedPool four = new GatedPool(4, "test", () -> true);
    for (double p : new double[] {0.05, 0.2, 0.5, 0.8}) {
      Partition serial = one.submit(() -> qualities.best(p)).get();
      Partition parallel = four.submit(() -> qualities.best(p)).get();
      assertEquals(serial.parts(), parallel.parts(), "p " + p);
      assertEquals(serial.gain(), parallel.gain(), "p " + p);
      assertEquals(serial.loss(), parallel.loss(), "p " + p);
    }
    one.shutdown();
    four.shutdown();
  }

  /** Fails without the gate's check in the programme: the programme would run to its end. */
  @Test
  void aProgrammeStopsOnceTheGateCloses() throws Exception {
    MicroscopicModel model = model(79);
    Qualities qualities = Qualities.of(model, Aggregation.SPATIOTEMPORAL);
    AtomicInteger asked = new AtomicInteger();
    GatedPool pool = new GatedPool(2, "test", () -> asked.incrementAndGet() <= 5); // closes at the 6th node
    ExecutionException stopped = assertThrows(ExecutionException.class, () -> pool.submit(() -> qualities.best(0.3))
        .get());
    assertInstanceOf(GatedPool.Closed.class, stopped.getCause());
    assertTrue(asked.get() < model.tree().size(), "stopped before the last node: asked " + asked.get() + " times");
    pool.shutdown();
  }

  @Test
  void aChainBuiltOnSeveralWorkersAndStoppedNowAndThenIsTheOneWorkersChain() throws Exception {
    Random seeds = new Random(78);
    for (int m = 0; m < 4; m++) {
      long seed = seeds.nextLong();
      MicroscopicModel model = Models.phasesModel(new Random(seed), Models.platform(2 + m % 2, 3, 2 + m % 3),
          16 + 4 * m, 2 + m % 3, 3);
      List<Breakpoint> serialList = Qualities.of(model, Aggregation.SPATIOTEMPORAL).breakpoints();
      List<Breakpoint> parallelList = Qualities.of(model, Aggregation.SPATIOTEMPORAL).breakpoints();
      int origin = serialList.size() / 3;
      PartsAhead serial = new PartsAhead(serialList, model, origin);
      PartsAhead parallel = new PartsAhead(parallelList, model, origin);
      ForkJoinPool one = new ForkJoinPool(1);
      while (one.submit(serial::extend).get()) {
        // one programme after the other, on one worker
      }
      // Closed at the 2nd, 4th, 8th… ask: the programmes under way then stop and are run again.
      AtomicInteger asked = new AtomicInteger();
      GatedPool four = new GatedPool(4, "test", () -> Integer.bitCount(asked.incrementAndGet()) != 1);
      int stops = 0;
      while (true) {
        try {
          if (!four.submit(parallel::extend).get()) {
            break;
          }
        } catch (ExecutionException e) {
          assertInstanceOf(GatedPool.Closed.class, e.getCause());
          stops++;
        }
      }
      assertTrue(stops > 0, "seed " + seed + ": some programmes stopped");
      assertEquals(serialList.size(), parallel.covered(), "seed " + seed);
      assertEquals(serial.bytes(), parallel.bytes(), "seed " + seed);
      for (int k = 0; k < serialList.size(); k++) {
        assertEquals(serialList.get(k).partition().parts(), parallelList.get(k).partition().parts(),
            "seed " + seed + ", breakpoint " + k);
      }
      one.shutdown();
      four.shutdown();
    }
  }
}
