package org.ocelotl.format.perfetto;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.format.TypeIds;
import org.ocelotl.format.perfetto.proto.TrackDescriptor;
import org.ocelotl.format.perfetto.proto.TrackEvent;
import org.ocelotl.format.perfetto.proto.TrackEventDefaults;
import org.ocelotl.model.EventCategory;
import org.ocelotl.primitive.DoubleColumn;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.primitive.LongIntMap;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceSink;

/**
 * Track events → records: slices (begin/end on a track's stack) → states typed by the slice's
 * name (group: its categories), instants → punctual events, counter values → variables named
 * by the counter track. Each track writes on one producer: a thread track on its thread, a
 * process track on its process, a counter track on its thread or on the {@code counters} leaf of
 * its parent, any other track on a producer of its own under its parent's.
 */
final class TrackEvents {
  private static final String UNNAMED = "(unnamed)";
  private final TraceSink sink;
  private final TypeIds types;
  private final Descriptors descriptors;
  private final Producers producers;
  private final Warnings warnings;
  private final Bounds bounds;
  /** Tracks by index: the described ones first, then those that events name without a descriptor. */
  private final List<Track> tracks = new ArrayList<>();
  private final LongIntMap undescribed = new LongIntMap();
  private final long maxDepth = Limit.TREE_DEPTH.value();

  /** The state of one track while the trace is read. */
  private static final class Track {
    final long uuid;
    /** Its index among the described tracks, or -1. */
    final int described;
    final int kind;
    int producer = -1;
    int variableType = -1;
    double value;
    /** Where an incremental counter's value was accumulated: deltas from another sequence or generation start from 0. */
    Sequence valueSequence;
    int valueGeneration;
    final DoubleColumn starts = new DoubleColumn(4);
    final IntColumn types = new IntColumn(4);

    Track(long uuid, int described, int kind) {
      this.uuid = uuid;
      this.described = described;
      this.kind = kind;
    }
  }

  TrackEvents(TraceSink sink, TypeIds types, Descriptors descriptors, Producers producers, Warnings warnings,
      Bounds bounds) {
    this.bounds = bounds;
    this.sink = sink;
    this.types = types;
    this.descriptors = descriptors;
    this.producers = producers;
    this.warnings = warnings;
    for (int i = 0; i < descriptors.trackCount(); i++) {
      tracks.add(new Track(descriptors.descriptor(i).getUuid(), i, descriptors.kind(i)));
    }
  }

  /** Writes what {@code event}, at {@code time} (ns), says. */
  void event(Sequence sequence, TrackEvent event, double time) {
    bounds.see(time);
    TrackEventDefaults defaults = sequence.trackEventDefaults();
    boolean onTrack = event.hasTrackUuid() || defaults.hasTrackUuid();
    Track track = onTrack ? track(event.hasTrackUuid() ? event.getTrackUuid() : defaults.getTrackUuid()) : null;
    if (track == null) {
      warnings.add("track events without a track_uuid, on a sequence without a default track (ignored)");
    } else {
      switch (event.getType()) {
        case TYPE_SLICE_BEGIN -> {
          track.starts.add(time);
          track.types.add(type(sequence, event, true));
        }
        case TYPE_SLICE_END -> end(track, time);
        case TYPE_INSTANT -> sink.event(producer(track, time), type(sequence, event, false), time);
        case TYPE_COUNTER -> counter(sequence, track,
            event.hasDoubleCounterValue() ? event.getDoubleCounterValue() : event.getCounterValue(), time);
        default -> warnings.add("track events of type " + event.getType() + " (ignored: not a slice, instant or counter)");
      }
    }
    extraCounters(sequence, event, defaults, time);
  }

  /** Ends the innermost open slice of the track. */
  private void end(Track track, double time) {
    int depth = track.starts.size() - 1;
    if (depth < 0) {
      warnings.add("slice ends without a begin on their track (ignored)");
      return;
    }
    if (time < track.starts.get(depth)) {
      warnings.add("slices ending before they begin (dropped)");
    } else {
      sink.state(producer(track, time), track.types.get(depth), track.starts.get(depth), time, depth,
          depth == 0 ? -1 : track.types.get(depth - 1));
    }
    track.starts.removeLast();
    track.types.removeLast();
  }

  /** The values an event carries for other counter tracks (a writer's way to sample several counters at once). */
  private void extraCounters(Sequence sequence, TrackEvent event, TrackEventDefaults defaults, double time) {
    int values = event.getExtraCounterValuesCount();
    if (values > 0) {
      List<Long> uuids = event.getExtraCounterTrackUuidsCount() > 0 ? event.getExtraCounterTrackUuidsList()
          : defaults.getExtraCounterTrackUuidsList();
      for (int i = 0; i < values; i++) {
        if (i < uuids.size()) {
          counter(sequence, track(uuids.get(i)), event.getExtraCounterValues(i), time);
        } else {
          warnings.add("extra counter values without a track (ignored)");
        }
      }
    }
    values = event.getExtraDoubleCounterValuesCount();
    if (values > 0) {
      List<Long> uuids = event.getExtraDoubleCounterTrackUuidsCount() > 0 ? event.getExtraDoubleCounterTrackUuidsList()
          : defaults.getExtraDoubleCounterTrackUuidsList();
      for (int i = 0; i < values; i++) {
        if (i < uuids.size()) {
          counter(sequence, track(uuids.get(i)), event.getExtraDoubleCounterValues(i), time);
        } else {
          warnings.add("extra counter values without a track (ignored)");
        }
      }
    }
  }

  private void counter(Sequence sequence, Track track, double raw, double time) {
    int index = track.described;
    double value = raw;
    if (index >= 0 && descriptors.descriptor(index).hasCounter()) {
      var counter = descriptors.descriptor(index).getCounter();
      if (counter.hasUnitMultiplier()) {
        value *= counter.getUnitMultiplier();
      }
      // A writer that clears its incremental state sends an absolute value next (as Perfetto's
      // trace processor reads it), and a sequence accumulates its own deltas.
      if (counter.getIsIncremental() && track.valueSequence == sequence && track.valueGeneration == sequence.generation()) {
        value += track.value;
      }
    }
    if (!Double.isFinite(value)) {
      warnings.add("counter values that are not finite numbers (ignored)");
      return;
    }
    track.value = value;
    track.valueSequence = sequence;
    track.valueGeneration = sequence.generation();
    if (track.variableType < 0) {
      String name = index >= 0 ? descriptors.name(index) : null;
      track.variableType = types.id(name == null ? "counter " + Long.toUnsignedString(track.uuid) : name,
          EventCategory.VARIABLE, "counter");
    }
    sink.variable(producer(track, time), track.variableType, time, value);
  }

  /** The type of a slice ({@code state}) or instant named by the event, declared at first use. */
  private int type(Sequence sequence, TrackEvent event, boolean state) {
    EventCategory category = state ? EventCategory.STATE : EventCategory.EVENT;
    if (event.getNameFieldCase() == TrackEvent.NameFieldCase.NAME_IID) {
      int slot = sequence.nameSlot(event.getNameIid());
      if (slot == LongIntMap.ABSENT) {
        warnings.add("track events naming an interned name their sequence did not intern (typed \"" + UNNAMED + "\")");
        return types.id(UNNAMED, category, group(sequence, event));
      }
      List<Long> categoryIids = event.getCategoryIidsList();
      int type = sequence.cachedType(slot, state, categoryIids);
      if (type < 0) {
        type = types.id(sequence.name(slot), category, group(sequence, event));
        sequence.cacheType(slot, state, categoryIids, type);
      }
      return type;
    }
    String name = event.getNameFieldCase() == TrackEvent.NameFieldCase.NAME ? event.getName() : UNNAMED;
    return types.id(name, category, group(sequence, event));
  }

  /** The event's categories, comma-separated as Chrome's JSON writes them; null when it has none. */
  private static String group(Sequence sequence, TrackEvent event) {
    if (event.getCategoriesCount() == 1) {
      return event.getCategories(0);
    }
    if (event.getCategoriesCount() > 1) {
      return String.join(",", event.getCategoriesList());
    }
    StringBuilder names = new StringBuilder();
    for (long iid : event.getCategoryIidsList()) {
      String name = sequence.category(iid);
      names.append(names.length() > 0 ? "," : "").append(name == null ? "category " + iid : name);
    }
    return names.length() == 0 ? null : names.toString();
  }

  private Track track(long uuid) {
    int index = descriptors.track(uuid);
    if (index != LongIntMap.ABSENT) {
      return tracks.get(index);
    }
    index = undescribed.get(uuid);
    if (index == LongIntMap.ABSENT) {
      warnings.add("tracks without a descriptor (a producer of their own under the root)");
      index = tracks.size();
      undescribed.put(uuid, index);
      tracks.add(new Track(uuid, -1, Descriptors.OTHER));
    }
    return tracks.get(index);
  }

  private int producer(Track track, double time) {
    if (track.producer < 0) {
      track.producer = declare(track, time, 0);
    }
    return track.producer;
  }

  /**
   * The producer a track writes on, its parent tracks' declared first. {@code depth} counts them:
   * past the number of tracks they loop, past the tree's depth limit they could not be stored,
   * and in both cases the chain is cut there (the track hangs on the root).
   */
  private int declare(Track track, double time, int depth) {
    int index = track.described;
    if (index < 0) {
      return producers.declare("track " + Long.toUnsignedString(track.uuid), "track", 0, time);
    }
    TrackDescriptor descriptor = descriptors.descriptor(index);
    Track parent = null;
    if (descriptor.hasParentUuid() && descriptors.track(descriptor.getParentUuid()) != LongIntMap.ABSENT) {
      if (depth < Math.min(descriptors.trackCount(), maxDepth)) {
        parent = tracks.get(descriptors.track(descriptor.getParentUuid()));
      } else {
        warnings.add("tracks whose parents loop or nest too deep (hung on the root)");
      }
    }
    int parentProducer = parent == null ? 0 : parent.producer >= 0 ? parent.producer : (parent.producer = declare(parent, time, depth + 1));
    return switch (track.kind) {
      case Descriptors.THREAD -> producers.thread(descriptor.getThread().getTid(), descriptor.getThread().getThreadName(), time);
      case Descriptors.PROCESS -> producers.process(descriptor.getProcess().getPid(), time);
      case Descriptors.COUNTER -> parent != null && parent.kind == Descriptors.THREAD ? parentProducer
          : producers.counters(parentProducer, time);
      default -> {
        String name = descriptors.name(index);
        yield producers.declare(name == null ? "track " + Long.toUnsignedString(track.uuid) : name, "track", parentProducer, time);
      }
    };
  }

  /** Closes the slices still open at {@code end}, the end of the trace. */
  void finish(double end) {
    for (Track track : tracks) {
      for (int depth = track.starts.size() - 1; depth >= 0; depth--) {
        // Every begin was seen by the bounds: end is not before it.
        sink.state(producer(track, end), track.types.get(depth), track.starts.get(depth), end, depth,
            depth == 0 ? -1 : track.types.get(depth - 1));
        warnings.add("slices still open at the end of the trace (closed there)");
      }
      track.starts.clear();
      track.types.clear();
    }
  }
}
