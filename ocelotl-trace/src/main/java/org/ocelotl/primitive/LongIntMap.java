package org.ocelotl.primitive;

import java.util.Arrays;

/**
 * A map from {@code long} keys to non-negative {@code int} values, without boxing: open
 * addressing with linear probing in two parallel arrays, at most half full. For look-ups on a
 * reader's hot path (a Perfetto track's uuid, an interned name's id, a thread id).
 */
public final class LongIntMap {
  /** The value of an empty slot, and what {@link #get} answers for an absent key. */
  public static final int ABSENT = -1;
  private long[] keys;
  private int[] values;
  private int size;

  public LongIntMap() {
    keys = new long[16];
    values = new int[16];
    Arrays.fill(values, ABSENT);
  }

  /** The value of {@code key}, or {@link #ABSENT}. */
  public int get(long key) {
    int mask = keys.length - 1;
    for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
      if (values[slot] == ABSENT) {
        return ABSENT;
      }
      if (keys[slot] == key) {
        return values[slot];
      }
    }
  }

  /** Sets the value of {@code key}, which must be {@code >= 0}. */
  public void put(long key, int value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative value " + value);
    }
    int mask = keys.length - 1;
    int slot = slot(key, mask);
    while (values[slot] != ABSENT && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    if (values[slot] == ABSENT) {
      size++;
    }
    keys[slot] = key;
    values[slot] = value;
    if (2 * size > keys.length) {
      grow();
    }
  }

  public int size() {
    return size;
  }

  /** Forgets every key, keeping the capacity. */
  public void clear() {
    Arrays.fill(values, ABSENT);
    size = 0;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    // By hand: the readers' id maps, per record (imports, hot; fastutil no faster, decision 032).
    keys = new long[oldKeys.length * 2];
    values = new int[oldValues.length * 2];
    Arrays.fill(values, ABSENT);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != ABSENT) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  /** Spreads the key's bits (Murmur3's 64-bit finaliser): uuids, ids and small counters alike. */
  private static int slot(long key, int mask) {
    long h = key;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h & mask;
  }
}
