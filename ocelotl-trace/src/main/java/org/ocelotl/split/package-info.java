/**
 * What a distributed import (ocelotl-spark) asks of a format's split reader, so that the engine
 * knows no reader package (docs/scale-out.md, docs/decisions/042-split-interfaces.md). The engine
 * only moves data between the steps; every step that reads or interprets the trace is here, and
 * the records a split produces are those of the local, sequential read.
 *
 * <p>The phases every split shares:
 *
 * <ol>
 *   <li><b>tasks</b>: the driver opens the split (the format registry, {@code Formats}, names the
 *       implementations) and learns its tasks: byte ranges of a Pajé text, locations of an OTF2
 *       archive;
 *   <li><b>a summary per task</b>: a few numbers and definitions, small enough to collect;
 *   <li><b>a plan made on the driver</b> from the summaries, broadcast to every task;
 *   <li><b>a recording per task</b>: its records, in bytes, with the task's own type numbers;
 *   <li><b>parts assembled into stores</b>: each task replays its recording into a store of its
 *       own (a sink), every part numbering the types alike; the parts' store warnings are
 *       {@link SplitWarnings#merged merged} as one writer would word them.
 * </ol>
 *
 * <p>Between them each format has one exchange of its own, and the two differ in where it falls,
 * so each has its own interface rather than one shape that would fit neither:
 *
 * <ul>
 *   <li>{@link RangeSplit} (Pajé): after the plan, every range {@linkplain RangeSplit#route routes}
 *       its event lines to the partition of their container or link ({@link RoutedLines}, carried
 *       in {@link LineBatch}es); a partition {@linkplain RangeSplit#interpret interprets} its lines
 *       into its recording; the driver then orders the partitions' types (a second, small plan);
 *   <li>{@link MessageSplit} (OTF2): the recording is made first (a location's events decoded);
 *       the exchange brings each channel's {@link MessageEnd}s together to be
 *       {@linkplain MessageSplit#match matched}; the plan, made after, needs the channels'
 *       summaries ({@link MatchedEnds}).
 * </ul>
 *
 * <p>The type parameters are the splits' own records (summaries, plans, recordings), which the
 * engine holds, serialises and hands back without looking inside.
 */
package org.ocelotl.split;
