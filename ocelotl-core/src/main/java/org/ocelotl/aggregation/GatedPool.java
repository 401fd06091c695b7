package org.ocelotl.aggregation;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.BooleanSupplier;

/**
 * A fork/join pool whose spatiotemporal dynamic programmes stop at their next node once its gate
 * closes (decision 078): a server builds every breakpoint's parts ahead on every core while it
 * answers nothing, and a request that arrives must get the cores within a node's solve (under a
 * millisecond at 768 leaves × 100 slices), not after the programme's 0.05–0.4 s of wall time.
 *
 * <p>Why the pool and not the programme's {@link Work}: the parts of a breakpoint are built by its
 * partition's source, which requests share and which answers to the work of the search that
 * found it (none once the search is done); a programme forks its subtrees into the pool it runs
 * in (decision 066), so the pool is what every one of its threads knows.
 */
public final class GatedPool extends ForkJoinPool {
  private final BooleanSupplier open;

  /**
   * @param parallelism its workers (daemons, so that the pool never keeps a process alive)
   * @param name        its workers' name
   * @param open        whether its programmes may go on: asked before each node they solve, from
   *                    several threads, so it must be cheap and thread-safe
   */
  public GatedPool(int parallelism, String name, BooleanSupplier open) {
    super(parallelism, pool -> {
      var thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
      thread.setName(name + "-" + thread.getPoolIndex());
      return thread;
    }, null, false);
    this.open = open;
  }

  /**
   * Throws {@link Closed} when the caller is a worker of a gated pool whose gate is closed; the
   * programmes call it before each node.
   */
  static void check() {
    if (ForkJoinTask.getPool() instanceof GatedPool pool && !pool.open.getAsBoolean()) {
      throw new Closed();
    }
  }

  /**
   * A programme stopped because its pool's gate closed: nothing it built is kept, and it runs
   * again from the start when asked again.
   */
  public static final class Closed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    // Not public: a fork/join task that rethrows it in the joining thread then gives this very
    // exception, not a copy made by reflection.
    Closed() {
      super("the pool's gate closed", null, false, false);
    }
  }
}
