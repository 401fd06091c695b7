package org.ocelotl.aggregation;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reservations of computations running at once (issue 31): two that each fit the free heap but
 * not together are not both granted; the second is told to try again (Busy) and is granted once
 * the first is done; one larger than the heap is refused for good. Nothing is allocated: the
 * sizes are fractions of the heap this JVM has left.
 */
class HeapBudgetTest {
  @Test
  void twoComputationsNeverTakeTheSameFreeHeap() throws Exception {
    Runtime runtime = Runtime.getRuntime();
    long left = runtime.maxMemory() - (runtime.totalMemory() - runtime.freeMemory());
    long share = left / 10 * 6;
    CountDownLatch firstHolds = new CountDownLatch(1);
    CountDownLatch firstMayEnd = new CountDownLatch(1);
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
      try (HeapBudget.Scope scope = HeapBudget.open()) {
        HeapBudget.reserve(share, "the first computation's arrays");
        firstHolds.countDown();
        firstMayEnd.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertTrue(firstHolds.await(60, TimeUnit.SECONDS));
    try (HeapBudget.Scope scope = HeapBudget.open()) {
      HeapBudget.Busy busy = assertThrows(HeapBudget.Busy.class,
          () -> HeapBudget.reserve(share, "the second computation's arrays"));
      assertTrue(busy.getMessage().startsWith("the second computation's arrays need " + String.format("%,d", share >> 20)
          + " MiB of the server's heap, which the computations running hold ("), busy.getMessage());
      assertTrue(busy.getMessage().endsWith("MiB reserved); try again when one is done"), busy.getMessage());
      firstMayEnd.countDown();
      first.get(60, TimeUnit.SECONDS);
      HeapBudget.reserve(share, "the second computation's arrays"); // granted: the first gave its share back
      IllegalArgumentException never = assertThrows(IllegalArgumentException.class,
          () -> HeapBudget.reserve(2 * runtime.maxMemory(), "arrays larger than the heap"));
      assertTrue(never.getMessage().startsWith("arrays larger than the heap need "), never.getMessage());
    }
    assertTrue(HeapBudget.unreserved() == runtime.maxMemory(), "every scope closed: nothing reserved");
  }
}
