package org.ocelotl.format.paje;

import java.util.Arrays;

/**
 * Maps (scope, byte string) to an int, looked up straight from the line buffer so that a
 * name seen again costs a hash and a compare, never a String. Keys are copied into one
 * growing byte arena when first added; the table only grows (names, aliases and values are
 * few next to events). Open addressing with linear probing.
 */
final class NameTable {
  private static final int EMPTY = -1;

  private int[] slots = new int[1024];
  private int[] entryScope = new int[256];
  private int[] entryOffset = new int[256];
  private int[] entryLength = new int[256];
  private int[] entryHash = new int[256];
  private int[] entryValue = new int[256];
  private byte[] arena = new byte[4096];
  private int arenaUsed;
  private int size;

  NameTable() {
    Arrays.fill(slots, EMPTY);
  }

  /** The value stored for the key, or -1. */
  int get(int scope, byte[] bytes, int from, int to) {
    int hash = hash(scope, bytes, from, to);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == EMPTY) {
        return -1;
      }
      if (entryHash[entry] == hash && matches(entry, scope, bytes, from, to)) {
        return entryValue[entry];
      }
    }
  }

  /** Stores {@code value} for the key (which must not be present yet). */
  void put(int scope, byte[] bytes, int from, int to, int value) {
    if ((size + 1) * 2 > slots.length) {
      rehash();
    }
    int entry = size++;
    if (entry == entryScope.length) {
      int capacity = entry * 2;
      entryScope = Arrays.copyOf(entryScope, capacity);
      entryOffset = Arrays.copyOf(entryOffset, capacity);
      entryLength = Arrays.copyOf(entryLength, capacity);
      entryHash = Arrays.copyOf(entryHash, capacity);
      entryValue = Arrays.copyOf(entryValue, capacity);
    }
    int length = to - from;
    if (arenaUsed + length > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + length));
    }
    System.arraycopy(bytes, from, arena, arenaUsed, length);
    entryScope[entry] = scope;
    entryOffset[entry] = arenaUsed;
    entryLength[entry] = length;
    entryHash[entry] = hash(scope, bytes, from, to);
    entryValue[entry] = value;
    arenaUsed += length;
    insert(entry);
  }

  private void insert(int entry) {
    int mask = slots.length - 1;
    int slot = entryHash[entry] & mask;
    while (slots[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = entry;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    Arrays.fill(slots, EMPTY);
    for (int entry = 0; entry < size; entry++) {
      insert(entry);
    }
  }

  /** A plain loop: names are a few bytes long, too short for Arrays.equals to pay off. */
  private boolean matches(int entry, int scope, byte[] bytes, int from, int to) {
    if (entryScope[entry] != scope || entryLength[entry] != to - from) {
      return false;
    }
    int offset = entryOffset[entry] - from;
    for (int i = from; i < to; i++) {
      if (arena[offset + i] != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  private static int hash(int scope, byte[] bytes, int from, int to) {
    int h = scope * 0x9E3779B1;
    for (int i = from; i < to; i++) {
      h = 31 * h + bytes[i];
    }
    // Spread the high bits down: the table index takes the low bits only.
    return h ^ (h >>> 16);
  }
}
