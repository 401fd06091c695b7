package org.ocelotl.format.paje;

import java.util.Arrays;

/**
 * Maps (scope, byte string) to an int, looked up straight from the line buffer so that a
 * name seen again costs a hash and a compare, never a String. Keys are copied into one
 * growing byte arena when first added; the table only grows (names, aliases and values are
 * few next to events). Open addressing with linear probing.
 *
 * <p>Keys that are small decimal numbers (event ids, and the numeric aliases SimGrid gives every
 * container, type and value) skip the hash: they index a per-scope array directly, as long as
 * the array stays within {@value #DIRECT_SLOTS_PER_KEY} slots per key stored in it (so 12,000
 * scopes holding the one key "99999" cost hashed entries, not 12,000 arrays of 100,000 slots).
 * A key is stored in one place only; a lookup tries the array, then the hash.
 */
final class NameTable {
  private static final int EMPTY = -1;
  /** direct[scope][n] = value + 1 for the direct key n, 0 when absent. */
  private int[][] direct = new int[8][];
  /** Keys stored in each scope's direct array. */
  private int[] directKeys = new int[8];
  static final int DIRECT_SLOTS_PER_KEY = 16;

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
    int n = directKey(bytes, from, to);
    if (n >= 0) {
      int[] values = scope < direct.length ? direct[scope] : null;
      if (values != null && n < values.length && values[n] != 0) {
        return values[n] - 1;
      }
    }
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
    int n = directKey(bytes, from, to);
    if (n >= 0 && putDirect(scope, n, value)) {
      return;
    }
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

  /** Slots of every direct array: what the direct keys cost (for tests). */
  long directSlots() {
    long slots = 0;
    for (int[] values : direct) {
      slots += values == null ? 0 : values.length;
    }
    return slots;
  }

  /** Stores a direct key in its scope's array, unless the array would outgrow its keys: then false. */
  private boolean putDirect(int scope, int n, int value) {
    if (scope >= direct.length) {
      int length = Math.max(direct.length * 2, scope + 1);
      direct = Arrays.copyOf(direct, length);
      directKeys = Arrays.copyOf(directKeys, length);
    }
    int[] values = direct[scope];
    if (values == null || n >= values.length) {
      int length = Math.max(64, Integer.highestOneBit(n) * 2);
      if (length > 64 && length > DIRECT_SLOTS_PER_KEY * (directKeys[scope] + 1)) {
        return false;
      }
      values = Arrays.copyOf(values == null ? new int[0] : values, length);
      direct[scope] = values;
    }
    values[n] = value + 1;
    directKeys[scope]++;
    return true;
  }

  /**
   * The number a key spells when it is a direct key (1 to 5 decimal digits, no leading zero
   * unless it is "0"), else -1. "007" and "7" are different names, hence the leading-zero rule.
   */
  private static int directKey(byte[] bytes, int from, int to) {
    int length = to - from;
    if (length < 1 || length > 5 || (length > 1 && bytes[from] == '0')) {
      return -1;
    }
    int n = 0;
    for (int i = from; i < to; i++) {
      int digit = bytes[i] - '0';
      if (digit < 0 || digit > 9) {
        return -1;
      }
      n = n * 10 + digit;
    }
    return n;
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

  /**
   * Multilinear hashing (Lemire and Kaser, "Strongly universal string hashing is fast"): the sum
   * of each byte times its own random 64-bit key. Two given names of up to
   * {@value #KEYED_BYTES} bytes collide with probability about 2^-32 whatever they are, so names cannot be written to collide: with String's fixed base 31, 65,536 names
   * made of "Aa" and "BB" all did, and made an import 8× slower (issue 14); a polynomial modulo
   * 2^32 with a random base still gave 23,366 table slots for them under some bases. The keys
   * are drawn per run; longer names fold the sum through a mixer every {@value #KEYED_BYTES}
   * bytes.
   */
  private static final long[] KEYS = keys(new java.util.SplittableRandom(System.nanoTime() ^ ProcessHandle.current().pid()));
  static final int KEYED_BYTES = 256;

  static long[] keys(java.util.SplittableRandom random) {
    long[] keys = new long[KEYED_BYTES + 3];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = random.nextLong();
    }
    return keys;
  }

  static int hash(int scope, byte[] bytes, int from, int to) {
    return hash(KEYS, scope, bytes, from, to);
  }

  static int hash(long[] keys, int scope, byte[] bytes, int from, int to) {
    // The length is hashed too, or "a" and "a\0" would always collide.
    long h = keys[0] + (scope & 0xFFFFFFFFL) * keys[1] + (long) (to - from) * keys[2];
    for (int i = from, k = 3; i < to; i++, k++) {
      if (k == keys.length) {
        h = mix(h);
        k = 3;
      }
      h += (bytes[i] & 0xFFL) * keys[k];
    }
    // The guarantee holds for the sum's high bits, the table indexes with the low ones: mix.
    return (int) (mix(h) >>> 32);
  }

  /** MurmurHash3's 64-bit finaliser. */
  private static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    return h ^ (h >>> 33);
  }
}
