package org.ocelotl.format.ctf;

/**
 * Type ids by function address (a long), for the function entries met on every other event:
 * open addressing in two parallel arrays, so a look-up neither allocates a key nor hashes a
 * string. Addresses are keys as they are; 0 marks an empty slot, so address 0 is kept apart.
 */
final class AddressTypes {
  private long[] keys = new long[64];
  private int[] ids = new int[64];
  private int size;
  private int zeroId = -1;

  /** The id of {@code address}, or -1. */
  int get(long address) {
    if (address == 0) {
      return zeroId;
    }
    for (int slot = slot(address, keys.length); ; slot = (slot + 1) & (keys.length - 1)) {
      if (keys[slot] == address) {
        return ids[slot];
      }
      if (keys[slot] == 0) {
        return -1;
      }
    }
  }

  void put(long address, int id) {
    if (address == 0) {
      zeroId = id;
      return;
    }
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    insert(keys, ids, address, id);
    size++;
  }

  private static void insert(long[] keys, int[] ids, long address, int id) {
    int slot = slot(address, keys.length);
    while (keys[slot] != 0 && keys[slot] != address) {
      slot = (slot + 1) & (keys.length - 1);
    }
    keys[slot] = address;
    ids[slot] = id;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldIds = ids;
    // By hand: a function address's type, looked up per event (CTF import, hot; fastutil no faster, decision 032).
    keys = new long[oldKeys.length * 2];
    ids = new int[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        insert(keys, ids, oldKeys[i], oldIds[i]);
      }
    }
  }

  /** Addresses share their low bits (alignment): a multiplicative hash spreads them (Fibonacci hashing). */
  private static int slot(long address, int capacity) {
    return (int) ((address * 0x9E3779B97F4A7C15L) >>> (64 - Integer.numberOfTrailingZeros(capacity)));
  }
}
