package org.ocelotl.format.perfetto;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.format.perfetto.proto.ClockSnapshot;
import org.ocelotl.format.perfetto.proto.EventCategory;
import org.ocelotl.format.perfetto.proto.EventName;
import org.ocelotl.format.perfetto.proto.InternedData;
import org.ocelotl.format.perfetto.proto.TracePacket;
import org.ocelotl.format.perfetto.proto.TracePacketDefaults;
import org.ocelotl.format.perfetto.proto.TrackEventDefaults;
import org.ocelotl.primitive.IntColumn;
import org.ocelotl.primitive.LongIntMap;

/**
 * What one writer's packet sequence ({@code trusted_packet_sequence_id}) sets for its later
 * packets: interned event names and categories, the defaults (track, timestamp clock), and its
 * own clocks (ids 64 to 127) with their incremental timestamps. All of it starts anew when a
 * packet says the sequence's incremental state was cleared.
 */
final class Sequence {
  /** Clock ids a sequence defines for itself. */
  static final int FIRST_SEQUENCE_CLOCK = 64;
  private static final int SEQUENCE_CLOCKS = 64;
  private static final int BOOTTIME = 6;
  private static final long[] NO_CATEGORY = {};
  /** Interned names and categories, made at the first interned data: many sequences intern nothing. */
  private Interned interned;
  private TrackEventDefaults defaults = TrackEventDefaults.getDefaultInstance();
  private int clockId;
  /** How many times the incremental state was cleared: what was accumulated in an older generation no longer counts. */
  private int generation;
  /** The sequence's own clocks, made when a snapshot first defines one: most sequences have none. */
  private Clocks clocks;

  /** A sequence's interned event names (by slot, with the types resolved for them) and categories. */
  private static final class Interned {
    final LongIntMap nameSlots = new LongIntMap();
    final List<String> names = new ArrayList<>();
    /** Per name slot: the state and event type ids resolved for it (-1 until asked), and the category iids they were resolved with. */
    final IntColumn stateTypes = new IntColumn();
    final IntColumn eventTypes = new IntColumn();
    final List<long[]> typeCategories = new ArrayList<>();
    final LongIntMap categorySlots = new LongIntMap();
    final List<String> categories = new ArrayList<>();
  }

  /** Clocks 64 to 127 of a sequence, by id − 64. */
  private static final class Clocks {
    final boolean[] known = new boolean[SEQUENCE_CLOCKS];
    final boolean[] incremental = new boolean[SEQUENCE_CLOCKS];
    final long[] multiplier = new long[SEQUENCE_CLOCKS];
    /** The clock's latest value, in its own units. */
    final long[] latest = new long[SEQUENCE_CLOCKS];
    /** The clock's value at the latest snapshot, and the trace clock's (ns) at the same instant. */
    final long[] snapshotValue = new long[SEQUENCE_CLOCKS];
    final long[] snapshotTraceTime = new long[SEQUENCE_CLOCKS];
  }

  void clear() {
    generation++;
    interned = null;
    defaults = TrackEventDefaults.getDefaultInstance();
    clockId = 0;
    clocks = null;
  }

  void intern(InternedData data) {
    if (interned == null) {
      interned = new Interned();
    }
    Interned in = interned;
    for (EventName name : data.getEventNamesList()) {
      int slot = in.nameSlots.get(name.getIid());
      if (slot == LongIntMap.ABSENT) {
        in.nameSlots.put(name.getIid(), in.names.size());
        in.names.add(name.getName());
        in.stateTypes.add(-1);
        in.eventTypes.add(-1);
        in.typeCategories.add(NO_CATEGORY);
      } else {
        in.names.set(slot, name.getName());
        in.stateTypes.set(slot, -1);
        in.eventTypes.set(slot, -1);
      }
    }
    for (EventCategory category : data.getEventCategoriesList()) {
      int slot = in.categorySlots.get(category.getIid());
      if (slot == LongIntMap.ABSENT) {
        in.categorySlots.put(category.getIid(), in.categories.size());
        in.categories.add(category.getName());
      } else {
        in.categories.set(slot, category.getName());
      }
    }
  }

  void defaults(TracePacketDefaults packetDefaults) {
    defaults = packetDefaults.getTrackEventDefaults();
    clockId = packetDefaults.getTimestampClockId();
  }

  int generation() {
    return generation;
  }

  TrackEventDefaults trackEventDefaults() {
    return defaults;
  }

  /** The name slot of interned name {@code iid}, or {@link LongIntMap#ABSENT}. */
  int nameSlot(long iid) {
    return interned == null ? LongIntMap.ABSENT : interned.nameSlots.get(iid);
  }

  String name(int slot) {
    return interned.names.get(slot);
  }

  /** The state (or event) type resolved for a name slot with these category iids, or -1. */
  int cachedType(int slot, boolean state, List<Long> categoryIids) {
    int type = (state ? interned.stateTypes : interned.eventTypes).get(slot);
    return type >= 0 && sameCategories(interned.typeCategories.get(slot), categoryIids) ? type : -1;
  }

  void cacheType(int slot, boolean state, List<Long> categoryIids, int type) {
    if (!sameCategories(interned.typeCategories.get(slot), categoryIids)) {
      // The name now comes with other categories: what was resolved for the old ones no longer holds.
      interned.stateTypes.set(slot, -1);
      interned.eventTypes.set(slot, -1);
      interned.typeCategories.set(slot, categoryIids.stream().mapToLong(Long::longValue).toArray());
    }
    (state ? interned.stateTypes : interned.eventTypes).set(slot, type);
  }

  private static boolean sameCategories(long[] cached, List<Long> iids) {
    if (cached.length != iids.size()) {
      return false;
    }
    for (int i = 0; i < cached.length; i++) {
      if (cached[i] != iids.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** The name of interned category {@code iid}, or null. */
  String category(long iid) {
    int slot = interned == null ? LongIntMap.ABSENT : interned.categorySlots.get(iid);
    return slot == LongIntMap.ABSENT ? null : interned.categories.get(slot);
  }

  /** Learns the sequence's own clocks from a snapshot; the trace clock is boot time. */
  void clocks(ClockSnapshot snapshot) {
    long traceTime = 0;
    boolean traceClockSeen = false;
    for (ClockSnapshot.Clock clock : snapshot.getClocksList()) {
      if (clock.getClockId() == BOOTTIME) {
        traceTime = clock.getTimestamp();
        traceClockSeen = true;
      }
    }
    for (ClockSnapshot.Clock clock : snapshot.getClocksList()) {
      int index = clock.getClockId() - FIRST_SEQUENCE_CLOCK;
      if (index >= 0 && index < SEQUENCE_CLOCKS) {
        if (clocks == null) {
          clocks = new Clocks();
        }
        clocks.known[index] = traceClockSeen;
        clocks.incremental[index] = clock.getIsIncremental();
        clocks.multiplier[index] = clock.hasUnitMultiplierNs() ? clock.getUnitMultiplierNs() : 1;
        clocks.latest[index] = clock.getTimestamp();
        clocks.snapshotValue[index] = clock.getTimestamp();
        clocks.snapshotTraceTime[index] = traceTime;
      }
    }
  }

  /** The clock a packet's timestamp is in: its own, else the sequence's default, 0 when neither says (the trace clock). */
  int clock(TracePacket packet) {
    return packet.hasTimestampClockId() ? packet.getTimestampClockId() : clockId;
  }

  /**
   * The packet's time in ns of the trace clock, NaN for a clock of the sequence that no
   * snapshot with boot time defined. Times in the kernel's other clocks are taken as they are
   * (the caller warns): converting between them needs clock snapshots this reader does not use.
   */
  double time(TracePacket packet) {
    int clock = clock(packet);
    long value = packet.getTimestamp();
    int index = clock - FIRST_SEQUENCE_CLOCK;
    if (index < 0 || index >= SEQUENCE_CLOCKS) {
      return value;
    }
    if (clocks == null || !clocks.known[index]) {
      return Double.NaN;
    }
    clocks.latest[index] = clocks.incremental[index] ? clocks.latest[index] + value : value;
    return clocks.snapshotTraceTime[index]
        + (double) (clocks.latest[index] - clocks.snapshotValue[index]) * clocks.multiplier[index];
  }
}
