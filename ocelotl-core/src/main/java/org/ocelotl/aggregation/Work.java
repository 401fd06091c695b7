package org.ocelotl.aggregation;

/**
 * What a long computation tells its caller and asks it: how far it has come, and whether its
 * result is still wanted. The engine calls {@link #check} between units of work (a row of
 * intervals, a node, an evaluation), so a cancelled request stops within one such unit — a few
 * milliseconds — instead of running to its end.
 */
public interface Work {
  /** Never cancelled, tells nobody. */
  Work NONE = new Work() {};

  /**
   * Throws an unchecked exception of the caller's choice when the result is no longer wanted.
   * Called often, from several threads: must be cheap and thread-safe.
   */
  default void check() {}

  /** {@code done} of {@code total} units of the current stage; {@code total} ≤ 0 when unknown. */
  default void advanced(long done, long total) {}
}
