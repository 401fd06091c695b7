package org.ocelotl.format.paje;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 *
 * <p>Keys of up to {@value #WORD_KEY_BYTES} bytes (container aliases, type and value names: nearly
 * every lookup) are read as two little-endian words straight from the line buffer, hashed from
 * them and compared as them, with no loop over their bytes.
 */
final class NameTable {
  /** direct[scope][n] = value + 1 for the direct key n, 0 when absent. */
  private int[][] direct = new int[8][];
  /** Keys stored in each scope's direct array. */
  private int[] directKeys = new int[8];
  static final int DIRECT_SLOTS_PER_KEY = 16;

  /**
   * The hash table, {@value #SLOT_LONGS} longs a slot, so that a lookup reads one place: the key's
   * first two words (zero past its end, and for a key longer than {@value #WORD_KEY_BYTES} bytes),
   * its tag (scope and length; 0 for an empty slot), and its entry (high half) and value (low half).
   */
  private long[] table = new long[SLOT_LONGS * 1024];
  private static final int SLOT_LONGS = 4;
  private int[] entryScope = new int[256];
  private int[] entryOffset = new int[256];
  private int[] entryLength = new int[256];
  private int[] entryHash = new int[256];
  private int[] entryValue = new int[256];
  private byte[] arena = new byte[4096];
  private int arenaUsed;
  private int size;

  /** The value stored for the key, or -1. */
  int get(int scope, byte[] bytes, int from, int to) {
    int n = directKey(bytes, from, to);
    if (n >= 0) {
      int[] values = scope < direct.length ? direct[scope] : null;
      if (values != null && n < values.length && values[n] != 0) {
        return values[n] - 1;
      }
    }
    int length = to - from;
    if (length > WORD_KEY_BYTES || bytes.length - from < WORD_KEY_BYTES) {
      return getBytes(scope, bytes, from, to);
    }
    // The bytes past the key (the rest of the line) are masked off.
    long w0 = (long) WORD.get(bytes, from) & lowBytes(length);
    long w1 = (long) WORD.get(bytes, from + Long.BYTES) & lowBytes(length - Long.BYTES);
    long tag = tag(scope, length);
    long[] t = table;
    int mask = t.length / SLOT_LONGS - 1;
    for (int slot = hashWords(KEYS, scope, length, w0, w1) & mask; ; slot = (slot + 1) & mask) {
      int at = slot * SLOT_LONGS;
      long stored = t[at + 2];
      if (stored == 0) {
        return -1;
      }
      if (stored == tag && t[at] == w0 && t[at + 1] == w1) {
        return (int) t[at + 3];
      }
    }
  }

  /** {@link #get} for a key too long for two words, or too near the end of its array to read them. */
  private int getBytes(int scope, byte[] bytes, int from, int to) {
    int hash = hash(scope, bytes, from, to);
    long tag = tag(scope, to - from);
    long[] t = table;
    int mask = t.length / SLOT_LONGS - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int at = slot * SLOT_LONGS;
      long stored = t[at + 2];
      if (stored == 0) {
        return -1;
      }
      if (stored == tag && matches((int) (t[at + 3] >>> 32), bytes, from, to)) {
        return (int) t[at + 3];
      }
    }
  }

  /** A key's scope and length, never 0 (an empty slot). */
  private static long tag(int scope, int length) {
    return (long) scope << 32 | (length + 1L);
  }

  /** Stores {@code value} (0 or more) for the key, which must not be present yet. */
  void put(int scope, byte[] bytes, int from, int to, int value) {
    int n = directKey(bytes, from, to);
    if (n >= 0 && putDirect(scope, n, value)) {
      return;
    }
    if ((size + 1) * 2 > table.length / SLOT_LONGS) {
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
      // By hand: the names' bytes, looked up per line (Pajé import, hot; no byte list in fastutil-core).
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

  /** The bytes of {@code bytes[from, to)} from {@code from} on, up to eight, as a little-endian word. */
  private static long word(byte[] bytes, int from, int to) {
    long word = 0;
    for (int i = Math.min(to, from + Long.BYTES) - 1; i >= from; i--) {
      word = word << Byte.SIZE | (bytes[i] & 0xFFL);
    }
    return word;
  }

  /**
   * A mask of a word's first {@code count} bytes (its low ones, little-endian): none for a count
   * of 0 or less, all of them for 8 or more.
   */
  private static long lowBytes(int count) {
    return count <= 0 ? 0 : count >= Long.BYTES ? -1L : (1L << (Byte.SIZE * count)) - 1;
  }

  private void insert(int entry) {
    int mask = table.length / SLOT_LONGS - 1;
    int slot = entryHash[entry] & mask;
    while (table[slot * SLOT_LONGS + 2] != 0) {
      slot = (slot + 1) & mask;
    }
    int at = slot * SLOT_LONGS;
    int offset = entryOffset[entry];
    int end = offset + entryLength[entry];
    table[at] = word(arena, offset, end);
    table[at + 1] = word(arena, offset + Long.BYTES, end);
    table[at + 2] = tag(entryScope[entry], entryLength[entry]);
    table[at + 3] = (long) entry << 32 | (entryValue[entry] & 0xFFFFFFFFL);
  }

  private void rehash() {
    // By hand: probed per line without a string (Pajé import, hot; fastutil no faster, decision 032).
    table = new long[table.length * 2];
    for (int entry = 0; entry < size; entry++) {
      insert(entry);
    }
  }

  /** Whether the entry's bytes are the key's (its scope and length being equal). A plain loop: names are short. */
  private boolean matches(int entry, byte[] bytes, int from, int to) {
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
   * of each 32-bit character of the name (four bytes, little-endian, the last one padded with
   * zeros) times its own random 64-bit key. Two given names of up to {@value #KEYED_BYTES} bytes
   * collide with probability about 2^-32 whatever they are, so names cannot be written to collide:
   * with String's fixed base 31, 65,536 names made of "Aa" and "BB" all did, and made an import 8×
   * slower (issue 14); a polynomial modulo 2^32 with a random base still gave 23,366 table slots
   * for them under some bases. The keys are drawn per run; longer names fold the sum through a
   * mixer every {@value #KEYED_BYTES} bytes. Characters of four bytes rather than one make a name
   * of up to {@value #WORD_KEY_BYTES} bytes four products ({@link #hashWords}).
   */
  private static final long[] KEYS = keys(new java.util.SplittableRandom(System.nanoTime() ^ ProcessHandle.current().pid()));
  static final int KEYED_BYTES = 256;
  /** Keys up to this long are read, hashed and compared as two words. */
  static final int WORD_KEY_BYTES = 2 * Long.BYTES;
  private static final int CHARACTER_BYTES = Integer.BYTES;
  private static final VarHandle WORD =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  static long[] keys(java.util.SplittableRandom random) {
    long[] keys = new long[KEYED_BYTES / CHARACTER_BYTES + 3];
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
    int k = 3;
    for (int i = from; i < to; i += CHARACTER_BYTES, k++) {
      if (k == keys.length) {
        h = mix(h);
        k = 3;
      }
      long character = 0;
      for (int j = Math.min(to, i + CHARACTER_BYTES) - 1; j >= i; j--) {
        character = character << Byte.SIZE | (bytes[j] & 0xFFL);
      }
      h += character * keys[k];
    }
    // The guarantee holds for the sum's high bits, the table indexes with the low ones: mix.
    return (int) (mix(h) >>> 32);
  }

  /**
   * {@link #hash} of a key of {@code length} ≤ {@value #WORD_KEY_BYTES} bytes given as two
   * little-endian words, zero past its end: the characters past the end add nothing to the sum.
   */
  private static int hashWords(long[] keys, int scope, int length, long w0, long w1) {
    long h = keys[0] + (scope & 0xFFFFFFFFL) * keys[1] + (long) length * keys[2]
        + (w0 & 0xFFFFFFFFL) * keys[3] + (w0 >>> 32) * keys[4]
        + (w1 & 0xFFFFFFFFL) * keys[5] + (w1 >>> 32) * keys[6];
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
