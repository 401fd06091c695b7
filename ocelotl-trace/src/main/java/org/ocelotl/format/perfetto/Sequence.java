package org.ocelotl.format.perfetto;

import java.util.ArrayList;
import java.util.Arrays;
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
  private final LongIntMap nameSlots = new LongIntMap();
  private final List<String> names = new ArrayList<>();
  /** Per name slot: the state and event type ids resolved for it (-1 until asked), and the category iid they were resolved with. */
  private final IntColumn stateTypes = new IntColumn();
  private final IntColumn eventTypes = new IntColumn();
  private final long[] noCategory = {};
  private final List<long[]> typeCategories = new ArrayList<>();
  private final LongIntMap categorySlots = new LongIntMap();
  private final List<String> categories = new ArrayList<>();
  private TrackEventDefaults defaults = TrackEventDefaults.getDefaultInstance();
  private int clockId;
  private final boolean[] clockKnown = new boolean[SEQUENCE_CLOCKS];
  private final boolean[] incremental = new boolean[SEQUENCE_CLOCKS];
  private final long[] multiplier = new long[SEQUENCE_CLOCKS];
  /** The clock's latest value, in its own units. */
  private final long[] latest = new long[SEQUENCE_CLOCKS];
  /** The clock's value at the latest snapshot, and the trace clock's (ns) at the same instant. */
  private final long[] snapshotValue = new long[SEQUENCE_CLOCKS];
  private final long[] snapshotTraceTime = new long[SEQUENCE_CLOCKS];

  void clear() {
    nameSlots.clear();
    names.clear();
    stateTypes.clear();
    eventTypes.clear();
    typeCategories.clear();
    categorySlots.clear();
    categories.clear();
    defaults = TrackEventDefaults.getDefaultInstance();
    clockId = 0;
    Arrays.fill(clockKnown, false);
  }

  void intern(InternedData data) {
    for (EventName name : data.getEventNamesList()) {
      int slot = nameSlots.get(name.getIid());
      if (slot == LongIntMap.ABSENT) {
        nameSlots.put(name.getIid(), names.size());
        names.add(name.getName());
        stateTypes.add(-1);
        eventTypes.add(-1);
        typeCategories.add(noCategory);
      } else {
        names.set(slot, name.getName());
        stateTypes.set(slot, -1);
        eventTypes.set(slot, -1);
      }
    }
    for (EventCategory category : data.getEventCategoriesList()) {
      int slot = categorySlots.get(category.getIid());
      if (slot == LongIntMap.ABSENT) {
        categorySlots.put(category.getIid(), categories.size());
        categories.add(category.getName());
      } else {
        categories.set(slot, category.getName());
      }
    }
  }

  void defaults(TracePacketDefaults packetDefaults) {
    defaults = packetDefaults.getTrackEventDefaults();
    clockId = packetDefaults.getTimestampClockId();
  }

  TrackEventDefaults trackEventDefaults() {
    return defaults;
  }

  /** The name slot of interned name {@code iid}, or {@link LongIntMap#ABSENT}. */
  int nameSlot(long iid) {
    return nameSlots.get(iid);
  }

  String name(int slot) {
    return names.get(slot);
  }

  /** The state (or event) type resolved for a name slot with these category iids, or -1. */
  int cachedType(int slot, boolean state, List<Long> categoryIids) {
    int type = (state ? stateTypes : eventTypes).get(slot);
    return type >= 0 && sameCategories(typeCategories.get(slot), categoryIids) ? type : -1;
  }

  void cacheType(int slot, boolean state, List<Long> categoryIids, int type) {
    if (!sameCategories(typeCategories.get(slot), categoryIids)) {
      // The name now comes with other categories: what was resolved for the old ones no longer holds.
      stateTypes.set(slot, -1);
      eventTypes.set(slot, -1);
      typeCategories.set(slot, categoryIids.stream().mapToLong(Long::longValue).toArray());
    }
    (state ? stateTypes : eventTypes).set(slot, type);
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
    int slot = categorySlots.get(iid);
    return slot == LongIntMap.ABSENT ? null : categories.get(slot);
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
        clockKnown[index] = traceClockSeen;
        incremental[index] = clock.getIsIncremental();
        multiplier[index] = clock.hasUnitMultiplierNs() ? clock.getUnitMultiplierNs() : 1;
        latest[index] = clock.getTimestamp();
        snapshotValue[index] = clock.getTimestamp();
        snapshotTraceTime[index] = traceTime;
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
    if (!clockKnown[index]) {
      return Double.NaN;
    }
    latest[index] = incremental[index] ? latest[index] + value : value;
    return snapshotTraceTime[index] + (double) (latest[index] - snapshotValue[index]) * multiplier[index];
  }
}
