package org.ocelotl.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.ocelotl.aggregation.Work;

/**
 * A model's scan cut in bands of slices, one thread each (the records' scan, and the summary's
 * edges: decision 077): each band owns its slices' cells, so the bands need no lock.
 */
final class Bands {
  private Bands() {}

  /**
   * Runs {@code band} for 0 … count − 1, each on a thread of its own ({@code name} and its number),
   * or in the caller when there is one; waits for all, then throws the first band's failure as
   * itself.
   */
  static void run(int count, String name, IntConsumer band) {
    if (count == 1) {
      band.accept(0);
      return;
    }
    List<Thread> workers = new ArrayList<>();
    Throwable[] failures = new Throwable[count];
    for (int b = 0; b < count; b++) {
      int k = b;
      Thread worker = new Thread(() -> {
        try {
          band.accept(k);
        } catch (Throwable t) {
          failures[k] = t;
        }
      }, name + b);
      worker.start();
      workers.add(worker);
    }
    for (Thread worker : workers) {
      try {
        worker.join();
      } catch (InterruptedException e) {
        workers.forEach(Thread::interrupt);
        Thread.currentThread().interrupt();
        throw new IllegalStateException("model build interrupted", e);
      }
    }
    for (Throwable failure : failures) {
      if (failure instanceof RuntimeException r) {
        throw r;
      } else if (failure instanceof Error e) {
        throw e;
      }
    }
  }

  /**
   * The chunks the bands have read, of {@code total}, told to the request's work (its progress, and
   * its cancellation checked) before each next one. Held at the total: the summary's edge between two
   * bands is read by both, so its count may pass the total by a few.
   */
  record Progress(Work work, AtomicLong done, long total) {
    void next() {
      work.check();
      work.advanced(Math.min(done.incrementAndGet(), total), total);
    }
  }
}
