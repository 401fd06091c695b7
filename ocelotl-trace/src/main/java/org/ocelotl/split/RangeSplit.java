package org.ocelotl.split;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import org.ocelotl.trace.TraceSink;

/**
 * A text trace read over byte ranges of its body (Pajé; the phases in {@link
 * org.ocelotl.split}): ranges are summarised, the driver plans, each range routes its lines to
 * the partition that interprets them, each partition records its share, the driver orders the
 * partitions' types, and each partition assembles its part.
 *
 * @param <S> a range's summary
 * @param <P> the plan, broadcast to every task
 * @param <R> a partition's recording
 * @param <T> event types: a partition's own declarations, and the order of every partition's
 */
public interface RangeSplit<S, P, R, T> extends Serializable {
  /** How messages name the trace. */
  String file();

  /** The body's first byte, after the header the driver read; the first range starts there. */
  long bodyStart();

  /**
   * The lines of the byte range [start, end) of the text {@code in} holds from {@code start - 1}
   * on (from {@code start} for the body's first range): a range owns the lines that start in it.
   */
  InputStream range(InputStream in, long start, long end, boolean first) throws IOException;

  /** Pass one over a range ({@link #range}): what the plan needs of it. */
  S summarize(InputStream range) throws IOException;

  /** The driver's plan, from every range's summary in trace order, for {@code partitions} partitions. */
  P plan(List<S> summaries, int partitions) throws IOException;

  /** Pass two over range {@code r}: its lines, each with the partition that interprets it; the exchange. */
  RoutedLines route(InputStream range, int r, P plan) throws IOException;

  /** A partition's lines, batches in trace order ({@link LineBatch#take}), read into its recording. */
  R interpret(P plan, Iterator<byte[]> batches) throws IOException;

  /** The types a partition declared, small, for the driver's {@link #typeOrder}. */
  T types(R recording);

  /** The types of every partition, numbered as the sequential read numbers them. */
  T typeOrder(List<T> types);

  /**
   * Replays a partition's recording into {@code sink} as a store of its own, its types numbered by
   * {@code order}; its warnings go to {@code warnings}, to be {@link SplitWarnings#merged merged}.
   */
  void assemblePart(T order, R recording, TraceSink sink, Collection<String> warnings) throws IOException;
}
