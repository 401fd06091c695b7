package org.ocelotl.format.paje;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Link halves waiting for their other half, keyed by (link type, key). A key of up to 16
 * bytes is packed into two longs so that matching allocates nothing; longer keys go through
 * a HashMap of Strings. Entries are recycled through a free list, so memory follows the
 * number of links in flight, not the number of links in the trace.
 */
final class PendingLinks {
  private static final int PACKED_LIMIT = 16;

  // Open-addressing index over entries with packed keys.
  private int[] index = new int[1024];
  private int indexed;
  private final Map<String, Integer> longKeys = new HashMap<>();

  // Entries.
  private long[] word0 = new long[256];
  private long[] word1 = new long[256];
  private int[] typeAndLength = new int[256];
  private String[] longKey = new String[256];
  /** The half's date. */
  double[] time = new double[256];
  /** The half's Size field (what the link carries), NaN when its definition has none. */
  double[] volume = new double[256];
  /** The producer at this end (StartContainer or EndContainer). */
  int[] producer = new int[256];
  /** Whether the half is an end (an EndLink read before its StartLink). */
  boolean[] isEnd = new boolean[256];
  long[] line = new long[256];
  /** The line's text, kept only for ends: they become errors if never matched. */
  String[] text = new String[256];
  private int[] nextFree = new int[256];
  private int firstFree = -1;
  private int allocated;
  private int live;

  PendingLinks() {
    Arrays.fill(index, -1);
  }

  /** The entry waiting under (type, key), or -1. */
  int find(int type, byte[] bytes, int from, int to) {
    int length = to - from;
    if (length > PACKED_LIMIT) {
      Integer entry = longKeys.get(longKey(type, bytes, from, to));
      return entry == null ? -1 : entry;
    }
    long w0 = word(bytes, from, Math.min(to, from + 8));
    long w1 = word(bytes, Math.min(to, from + 8), to);
    int tl = type << 5 | length;
    int mask = index.length - 1;
    for (int i = hash(w0, w1, tl) & mask; ; i = (i + 1) & mask) {
      int entry = index[i];
      if (entry < 0) {
        return -1;
      }
      if (word0[entry] == w0 && word1[entry] == w1 && typeAndLength[entry] == tl) {
        return entry;
      }
    }
  }

  /** A new entry under (type, key), which must not be waiting; the caller fills its data. */
  int add(int type, byte[] bytes, int from, int to) {
    int entry = allocate();
    int length = to - from;
    live++;
    if (length > PACKED_LIMIT) {
      String key = longKey(type, bytes, from, to);
      longKey[entry] = key;
      typeAndLength[entry] = -1;
      longKeys.put(key, entry);
      return entry;
    }
    word0[entry] = word(bytes, from, Math.min(to, from + 8));
    word1[entry] = word(bytes, Math.min(to, from + 8), to);
    typeAndLength[entry] = type << 5 | length;
    longKey[entry] = null;
    if ((indexed + 1) * 2 > index.length) {
      // By hand: links by their key's bytes, per link end (Pajé import, hot; fastutil no faster, decision 032).
      rebuildIndex(index.length * 2);
    }
    insert(entry);
    indexed++;
    return entry;
  }

  void remove(int entry) {
    live--;
    text[entry] = null;
    if (typeAndLength[entry] < 0) {
      longKeys.remove(longKey[entry]);
      longKey[entry] = null;
    } else {
      unindex(entry);
      indexed--;
    }
    nextFree[entry] = firstFree;
    firstFree = entry;
  }

  int size() {
    return live;
  }

  /** Calls {@code action} on every waiting entry (at the end of the trace). */
  void forEach(java.util.function.IntConsumer action) {
    boolean[] free = new boolean[allocated];
    for (int e = firstFree; e >= 0; e = nextFree[e]) {
      free[e] = true;
    }
    for (int entry = 0; entry < allocated; entry++) {
      if (!free[entry]) {
        action.accept(entry);
      }
    }
  }

  private int allocate() {
    if (firstFree >= 0) {
      int entry = firstFree;
      firstFree = nextFree[entry];
      return entry;
    }
    if (allocated == word0.length) {
      int capacity = allocated * 2;
      word0 = Arrays.copyOf(word0, capacity);
      word1 = Arrays.copyOf(word1, capacity);
      typeAndLength = Arrays.copyOf(typeAndLength, capacity);
      longKey = Arrays.copyOf(longKey, capacity);
      time = Arrays.copyOf(time, capacity);
      volume = Arrays.copyOf(volume, capacity);
      producer = Arrays.copyOf(producer, capacity);
      isEnd = Arrays.copyOf(isEnd, capacity);
      line = Arrays.copyOf(line, capacity);
      text = Arrays.copyOf(text, capacity);
      nextFree = Arrays.copyOf(nextFree, capacity);
    }
    return allocated++;
  }

  private void insert(int entry) {
    int mask = index.length - 1;
    int i = hash(word0[entry], word1[entry], typeAndLength[entry]) & mask;
    while (index[i] >= 0) {
      i = (i + 1) & mask;
    }
    index[i] = entry;
  }

  /**
   * Deletes by backward shift (no tombstones): after emptying a cell, every later entry of the
   * same probe run whose home lies cyclically at or before the hole moves into it, which keeps
   * each entry reachable from its home by linear probing.
   */
  private void unindex(int entry) {
    int mask = index.length - 1;
    int hole = hash(word0[entry], word1[entry], typeAndLength[entry]) & mask;
    while (index[hole] != entry) {
      hole = (hole + 1) & mask;
    }
    index[hole] = -1;
    for (int i = (hole + 1) & mask; index[i] >= 0; i = (i + 1) & mask) {
      int candidate = index[i];
      int home = hash(word0[candidate], word1[candidate], typeAndLength[candidate]) & mask;
      boolean movable = ((i - home) & mask) >= ((i - hole) & mask);
      if (movable) {
        index[hole] = candidate;
        index[i] = -1;
        hole = i;
      }
    }
  }

  private void rebuildIndex(int capacity) {
    index = new int[capacity];
    Arrays.fill(index, -1);
    boolean[] free = new boolean[allocated];
    for (int e = firstFree; e >= 0; e = nextFree[e]) {
      free[e] = true;
    }
    for (int entry = 0; entry < allocated; entry++) {
      if (!free[entry] && typeAndLength[entry] >= 0) {
        insert(entry);
      }
    }
  }

  private static long word(byte[] bytes, int from, int to) {
    long w = 0;
    for (int i = from; i < to; i++) {
      w = w << 8 | (bytes[i] & 0xFF);
    }
    return w;
  }

  private static int hash(long w0, long w1, int tl) {
    long h = (w0 * 0x9E3779B97F4A7C15L) ^ Long.rotateLeft(w1 * 0xC2B2AE3D27D4EB4FL, 29) ^ tl;
    h *= 0x9E3779B97F4A7C15L;
    return (int) (h >>> 32);
  }

  private static String longKey(int type, byte[] bytes, int from, int to) {
    return type + "\u0000" + new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
  }
}
