package org.ocelotl.split;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.ocelotl.trace.TraceSink;

/**
 * An archive read one location per task (OTF2; the phases in {@link org.ocelotl.split}): each
 * task decodes its location (its recording and its summary at once), the message ends of every
 * location are brought together by channel and matched, the driver plans from the locations' and
 * the channels' summaries, and each location assembles its part with the links and unmatched
 * sides the matching sent it.
 *
 * @param <D> a location decoded: its recording and its summary
 * @param <S> a location's summary
 * @param <E> a message end, the exchange's key
 * @param <C> a channel's summary
 * @param <P> the plan, broadcast to every task
 */
public interface MessageSplit<D, S, E extends MessageEnd<E>, C, P> extends java.io.Serializable {
  /** The tasks: one per location, in definition order. */
  int tasks();

  /** Decodes task {@code task}'s location. */
  D decode(int task) throws IOException;

  /** A decoded location's summary, small, for the driver's plan. */
  S summary(D decoded);

  /** The task that decoded it. */
  int task(D decoded);

  /** A location's message ends, to be sorted and grouped by channel ({@link MessageEnd#channelHash}). */
  List<E> ends(D decoded);

  /** Matches one group of channels' ends, sorted. */
  MatchedEnds<C> match(Iterator<E> ends);

  /** The driver's plan, from every location's summary and every channel's. */
  P plan(List<S> locations, List<C> channels) throws IOException;

  /** The warnings of the sequential read, worded by the plan. */
  List<String> warnings(P plan);

  /**
   * Replays a location's recording, with the links and unmatched sides sent to it ({@link
   * MatchedEnds#byLocation}), into {@code sink} as a store of its own; {@code decoded} is null for
   * an archive without locations, whose one part holds the types and the bounds.
   */
  void assemblePart(P plan, D decoded, Iterator<byte[]> matched, TraceSink sink) throws IOException;
}
