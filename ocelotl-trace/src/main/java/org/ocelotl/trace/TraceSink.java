package org.ocelotl.trace;

import org.ocelotl.model.EventCategory;

/**
 * Where an importer writes what it read, already resolved: producers and event types by int
 * id, states as complete intervals (the importer runs the state stacks), links as matched
 * pairs, variables as absolute values (the importer applies add/sub). Every format reader
 * writes into this one interface and knows nothing of the store, the engines or the views.
 *
 * <p>Ids are chosen by the importer: dense, from 0, each declared before first use. Producer
 * 0 is the root of the producer tree, declared by {@link #producer} with parent -1.
 * Records of one category arrive in the order the importer completes them (states when they
 * end), which is close to time order but not exactly: the store does not rely on it.
 */
public interface TraceSink {
  /** A producer (container); {@code kind} is its type name (e.g. "HOST", "rank"). */
  void producer(int id, String name, String kind, int parent, double created);

  /** The producer ends here (destroyed); producers never ended last until the end of the trace. */
  void producerEnd(int id, double destroyed);

  /**
   * An event type. {@code group} is the format's own type that holds it (for Pajé states and
   * events, the state/event type whose value this is, e.g. "MPI_STATE"), or null.
   * {@code color} is "r g b" in [0,1] as the trace gives it, or null.
   */
  void eventType(int id, String name, EventCategory category, String group, String color);

  /**
   * A state of a producer; {@code depth} is its depth in the producer's state stack (0 = bottom),
   * {@code outer} the type of the state it lies in (the one below it on the stack), −1 when it lies
   * in none: at depth 0, or stacked on a state it overlaps without lying inside it (intervals that
   * break their format's nesting rule). What the model subtracts from the outer state's type for
   * exclusive time (decision 037).
   */
  void state(int producer, int type, double start, double end, int depth, int outer);

  /** A punctual event. */
  void event(int producer, int type, double time);

  /** A variable takes {@code value} from {@code time} on. */
  void variable(int producer, int type, double time, double value);

  /**
   * The variable holds {@code value} over [start, end): a step already closed, as a store or a
   * Parquet dataset keeps them, which a reader of such steps hands over as they are (in their
   * order, so that the store it makes is the one they came from). Readers of changes call
   * {@link #variable}. The sinks that split an import over tasks take changes only.
   */
  default void variableStep(int producer, int type, double start, double end, double value) {
    throw new UnsupportedOperationException("this sink takes variable changes, not steps");
  }

  /**
   * A link (message) from one producer at {@code start} to another at {@code end}, carrying
   * {@code volume} (bytes for messages) where the trace says, else NaN.
   */
  void link(int type, int from, int to, double start, double end, double volume);

  /** Something was accepted that a strict reader would have refused; shown by {@code info}. */
  void warning(String message);

  /**
   * Times since the trace's start count from {@code time}, not from the start: the trace says it
   * is a part cut from a trace that started then ({@code ocelotl export}, decision 053). Called
   * before {@link #end}, by the readers of formats that can say it; a sink that keeps no
   * bounds ignores it.
   */
  default void origin(double time) {}

  /** The import is complete: trace bounds and the unit of every time above (e.g. "s", "ns"). */
  void end(double start, double end, String timeUnit);
}
