package org.ocelotl.aggregation;

/**
 * The heap that computations running at once share. A computation reserves what its large arrays
 * will take before it allocates them ({@link #reserve}), and holds it until its {@link Scope}
 * closes; a reservation that the heap cannot hold beside the others is refused at once, before
 * anything is allocated. Looking at the free heap alone is not enough: two computations that
 * start together both see the same free heap, both go ahead, and together exhaust it.
 *
 * <p>What the reservations share is the heap left when the first of them opened: the heap's
 * maximum less what was in use then (kept results, the program itself; garbage too, which makes
 * the estimate err towards refusing). With no computation running, a refusal collects the garbage
 * and looks again, so that only a computation the heap truly cannot hold is refused for good.
 *
 * <p>Outside any scope (one command, one computation) a reservation is a check: refused when it
 * does not fit in the heap left, held by nobody.
 */
public final class HeapBudget {
  private HeapBudget() {}

  /** Refused because the computations already running hold the heap it needs: try again after them. */
  public static final class Busy extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Busy(String message) {
      super(message, null, false, false);
    }
  }

  private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();
  private static final Object LOCK = new Object();
  /** Bytes held by the open scopes. */
  private static long reserved;
  private static int openScopes;
  /** The heap in use, outside the scopes' reservations, when the first open scope opened. */
  private static long outside;

  /** What one computation holds; closing it gives back what it reserved. */
  public static final class Scope implements AutoCloseable {
    private final Scope enclosing;
    private long held;

    private Scope(Scope enclosing) {
      this.enclosing = enclosing;
    }

    @Override
    public void close() {
      synchronized (LOCK) {
        reserved -= held;
        held = 0;
        openScopes--;
      }
      if (enclosing == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(enclosing);
      }
    }
  }

  /** Opens the calling thread's computation: what it reserves is held until the scope closes. */
  public static Scope open() {
    Scope scope = new Scope(CURRENT.get());
    synchronized (LOCK) {
      if (openScopes == 0) {
        outside = used();
      }
      openScopes++;
    }
    CURRENT.set(scope);
    return scope;
  }

  /**
   * Reserves {@code bytes} for the calling thread's computation.
   *
   * @throws Busy when computations running hold what it needs (it would fit without them)
   * @throws IllegalArgumentException when the heap cannot hold it at all (the message says how much
   *     it needs, and what to do)
   */
  public static void reserve(long bytes, String what) {
    Scope scope = CURRENT.get();
    long max = Runtime.getRuntime().maxMemory();
    synchronized (LOCK) {
      long own = 0;
      int ownScopes = 0;
      for (Scope s = scope; s != null; s = s.enclosing) {
        own += s.held;
        ownScopes++;
      }
      boolean alone = openScopes == ownScopes;
      long left = openScopes == 0 ? max - used() : max - outside - reserved;
      if (bytes > left && alone) {
        System.gc(); // nobody else computing: what is in use may be mostly garbage
        left = max - used();
      }
      if (bytes > left) {
        if (!alone && bytes <= left + reserved - own) {
          throw new Busy(String.format("%s need %,d MiB of the server's heap, which the computations running "
              + "hold (%,d MiB reserved); try again when one is done", what, bytes >> 20, (reserved - own) >> 20));
        }
        throw new IllegalArgumentException(String.format(
            "%s need %,d MiB but the Java heap has %,d MiB left; use fewer slices or producers, "
                + "or give Java more memory (-Xmx, OCELOTL_JAVA_OPTS)", what, bytes >> 20, Math.max(0, left) >> 20));
      }
      if (scope != null) {
        scope.held += bytes;
        reserved += bytes;
      }
    }
  }

  /**
   * The heap the open scopes have not reserved: what a computation may still take beyond its
   * reservation (the breakpoint search's envelopes, which grow as they go); the whole heap when
   * no scope is open.
   */
  public static long unreserved() {
    long max = Runtime.getRuntime().maxMemory();
    synchronized (LOCK) {
      return openScopes == 0 ? max : max - outside - reserved;
    }
  }

  private static long used() {
    Runtime runtime = Runtime.getRuntime();
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
