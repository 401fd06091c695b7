package org.ocelotl.format.otf2;

import java.util.Arrays;

/**
 * The message sides waiting for their other side, per channel (sender, receiver, tag), oldest
 * first: what {@link Otf2Events} must hold between the event files it reads one after the other.
 * A channel holds only sides of one direction (sends or receives: a side of the other direction
 * matches the oldest one instead), and is forgotten once its last side is matched.
 *
 * <p>In primitive arrays, not a map of objects: a side costs 21 bytes (time, length, kind, next)
 * and a channel with sides about 50 (its slot at a load of at most 1/2); nothing is kept of a
 * channel whose sides all matched. The map of records it replaces kept every channel ever met
 * with its own queue, about 250 bytes each: 114,000 channels (a tag per iteration) held 40 MB of
 * a 990,000-record archive's import.
 */
final class PendingSides {
  private static final int EMPTY = -1;

  // The channel table: open addressing, linear probing; a slot is free when its head is EMPTY.
  private int[] from = new int[16];
  private int[] to = new int[16];
  private long[] tag = new long[16];
  private boolean[] sends = new boolean[16];
  private int[] head = emptySlots(16);
  private int[] tail = new int[16];
  private int channels;

  // The sides: singly linked lists through next, the free ones too (from freeSide).
  private double[] times = new double[16];
  private long[] lengths = new long[16];
  private byte[] kinds = new byte[16];
  private int[] next = new int[16];
  private int usedSides;
  private int freeSide = EMPTY;
  private int sides;

  /** The slot of channel (from, to, tag), or -1. */
  int find(int from, int to, long tag) {
    int mask = head.length - 1;
    for (int slot = home(from, to, tag, mask); head[slot] != EMPTY; slot = (slot + 1) & mask) {
      if (this.from[slot] == from && this.to[slot] == to && this.tag[slot] == tag) {
        return slot;
      }
    }
    return -1;
  }

  /** Whether the sides of the channel in {@code slot} are sends. */
  boolean sends(int slot) {
    return sends[slot];
  }

  double oldestTime(int slot) {
    return times[head[slot]];
  }

  long oldestLength(int slot) {
    return lengths[head[slot]];
  }

  /** Forgets the oldest side of the channel in {@code slot}, and the channel with its last side. */
  void removeOldest(int slot) {
    int side = head[slot];
    head[slot] = next[side];
    next[side] = freeSide;
    freeSide = side;
    sides--;
    if (head[slot] == EMPTY) {
      removeSlot(slot);
    }
  }

  /** Appends a side to channel (from, to, tag), whose sides are all of the same direction or none. */
  void add(int from, int to, long tag, boolean send, double time, int kind, long length) {
    int side = newSide(time, kind, length);
    int slot = find(from, to, tag);
    if (slot >= 0) {
      next[tail[slot]] = side;
      tail[slot] = side;
      return;
    }
    if (2 * (channels + 1) > head.length) {
      growTable();
    }
    int mask = head.length - 1;
    slot = home(from, to, tag, mask);
    while (head[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    this.from[slot] = from;
    this.to[slot] = to;
    this.tag[slot] = tag;
    sends[slot] = send;
    head[slot] = side;
    tail[slot] = side;
    channels++;
  }

  /** Sides held. */
  int sides() {
    return sides;
  }

  /** Channels with sides held. */
  int channels() {
    return channels;
  }

  /** What {@link #forEach} gives: one waiting side, with its channel. */
  @FunctionalInterface
  interface SideVisitor {
    void side(int from, int to, long tag, boolean sends, double time, int kind);
  }

  /**
   * Every side held, channel by channel in the order of (from, to, tag) — an order that depends
   * only on the channels, not on the table's history, so that a reader that met them otherwise
   * (the Spark import's plan) finds the same — each channel's oldest first.
   */
  void forEach(SideVisitor visitor) {
    Integer[] slots = new Integer[channels];
    int n = 0;
    for (int slot = 0; slot < head.length; slot++) {
      if (head[slot] != EMPTY) {
        slots[n++] = slot;
      }
    }
    Arrays.sort(slots, (a, b) -> from[a] != from[b] ? Integer.compare(from[a], from[b])
        : to[a] != to[b] ? Integer.compare(to[a], to[b]) : Long.compare(tag[a], tag[b]));
    for (int slot : slots) {
      for (int side = head[slot]; side != EMPTY; side = next[side]) {
        visitor.side(from[slot], to[slot], tag[slot], sends[slot], times[side], kinds[side] & 0xFF);
      }
    }
  }

  private int newSide(double time, int kind, long length) {
    int side;
    if (freeSide != EMPTY) {
      side = freeSide;
      freeSide = next[side];
    } else {
      if (usedSides == times.length) {
        int length2 = times.length * 2;
        times = Arrays.copyOf(times, length2);
        lengths = Arrays.copyOf(lengths, length2);
        kinds = Arrays.copyOf(kinds, length2);
        next = Arrays.copyOf(next, length2);
      }
      side = usedSides++;
    }
    times[side] = time;
    lengths[side] = length;
    kinds[side] = (byte) kind;
    next[side] = EMPTY;
    sides++;
    return side;
  }

  private static int home(int from, int to, long tag, int mask) {
    long h = (((long) from << 32) | (to & 0xFFFF_FFFFL)) * 0x9E37_79B9_7F4A_7C15L + tag * 0xC2B2_AE3D_27D4_EB4FL;
    return (int) (h ^ (h >>> 29) ^ (h >>> 47)) & mask;
  }

  /**
   * Frees {@code slot} and moves back the entries after it that probing would no longer find
   * (deletion without tombstones, so that a table of channels met and forgotten stays short).
   */
  private void removeSlot(int slot) {
    int mask = head.length - 1;
    int gap = slot;
    for (int j = (gap + 1) & mask; head[j] != EMPTY; j = (j + 1) & mask) {
      int k = home(from[j], to[j], tag[j], mask);
      // Entry j may fill the gap unless its home lies cyclically in (gap, j].
      boolean stays = gap <= j ? gap < k && k <= j : gap < k || k <= j;
      if (!stays) {
        moveSlot(j, gap);
        gap = j;
      }
    }
    head[gap] = EMPTY;
    channels--;
  }

  private void moveSlot(int source, int target) {
    from[target] = from[source];
    to[target] = to[source];
    tag[target] = tag[source];
    sends[target] = sends[source];
    head[target] = head[source];
    tail[target] = tail[source];
  }

  private void growTable() {
    int[] oldFrom = from;
    int[] oldTo = to;
    long[] oldTag = tag;
    boolean[] oldSends = sends;
    int[] oldHead = head;
    int[] oldTail = tail;
    int size = oldHead.length * 2;
    from = new int[size];
    to = new int[size];
    tag = new long[size];
    sends = new boolean[size];
    head = emptySlots(size);
    tail = new int[size];
    int mask = size - 1;
    for (int old = 0; old < oldHead.length; old++) {
      if (oldHead[old] != EMPTY) {
        int slot = home(oldFrom[old], oldTo[old], oldTag[old], mask);
        while (head[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        from[slot] = oldFrom[old];
        to[slot] = oldTo[old];
        tag[slot] = oldTag[old];
        sends[slot] = oldSends[old];
        head[slot] = oldHead[old];
        tail[slot] = oldTail[old];
      }
    }
  }

  private static int[] emptySlots(int size) {
    int[] slots = new int[size];
    Arrays.fill(slots, EMPTY);
    return slots;
  }
}