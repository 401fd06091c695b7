package org.ocelotl.format.paje;

import java.util.Arrays;

/**
 * Gives each (producer, Pajé type) pair a dense slot number, so that state stacks and
 * variable values live in plain arrays indexed by slot. Open addressing on the packed pair.
 */
final class SlotMap {
  private long[] keys = new long[1024];
  private int[] slots = new int[1024];
  private int size;

  SlotMap() {
    Arrays.fill(slots, -1);
  }

  /** The slot of the pair, or -1. */
  int get(int producer, int type) {
    long key = pack(producer, type);
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (slots[i] < 0) {
        return -1;
      }
      if (keys[i] == key) {
        return slots[i];
      }
    }
  }

  /** The slot of the pair, given the next free number if it had none. */
  int getOrAdd(int producer, int type) {
    int slot = get(producer, type);
    if (slot >= 0) {
      return slot;
    }
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    slot = size++;
    insert(pack(producer, type), slot);
    return slot;
  }

  int size() {
    return size;
  }

  private void insert(long key, int slot) {
    int mask = keys.length - 1;
    int i = mix(key) & mask;
    while (slots[i] >= 0) {
      i = (i + 1) & mask;
    }
    keys[i] = key;
    slots[i] = slot;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldSlots = slots;
    // By hand: a container's slot, looked up per line (Pajé import, hot; fastutil no faster, decision 032).
    keys = new long[oldKeys.length * 2];
    slots = new int[oldSlots.length * 2];
    Arrays.fill(slots, -1);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldSlots[i] >= 0) {
        insert(oldKeys[i], oldSlots[i]);
      }
    }
  }

  private static long pack(int producer, int type) {
    return ((long) producer << 32) | (type & 0xFFFFFFFFL);
  }

  private static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32);
  }
}
