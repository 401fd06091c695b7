package org.ocelotl.modelfile;

import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Names numbered in the order of their first appearance, looked up by their UTF-8 bytes so that
 * a line's names are found without decoding them. A model file lists a producer's cells
 * together, so the name found last is tried first.
 */
final class Names {
  private final List<String> names = new ArrayList<>();
  private byte[][] keys = new byte[16][];
  private int[] ids = new int[16];
  private byte[] last;
  private int lastId;

  /** The number of the name in {@code bytes[from, to)}, numbering it if new. */
  int id(byte[] bytes, int from, int to) throws CharacterCodingException {
    if (last != null && same(last, bytes, from, to)) {
      return lastId;
    }
    int mask = keys.length - 1;
    for (int slot = hash(bytes, from, to) & mask; ; slot = (slot + 1) & mask) {
      byte[] key = keys[slot];
      if (key == null) {
        return added(Arrays.copyOfRange(bytes, from, to), slot);
      }
      if (same(key, bytes, from, to)) {
        return remember(key, ids[slot]);
      }
    }
  }

  // Names are a few bytes: a plain loop, which a fresh JVM's compilers handle in less work than
  // Arrays.equals with its range checks and vectorised mismatch.
  private static boolean same(byte[] key, byte[] bytes, int from, int to) {
    if (key.length != to - from) {
      return false;
    }
    for (int i = 0; i < key.length; i++) {
      if (key[i] != bytes[from + i]) {
        return false;
      }
    }
    return true;
  }

  // Apart from id, which runs for every field, so that compiling id does not compile this too.
  private int added(byte[] key, int slot) throws CharacterCodingException {
    String name = LineSplitter.decode(key, 0, key.length);
    keys[slot] = key;
    ids[slot] = names.size();
    names.add(name);
    if (2 * names.size() > keys.length) {
      grow();
    }
    return remember(key, names.size() - 1);
  }

  int id(String name) throws CharacterCodingException {
    byte[] bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return id(bytes, 0, bytes.length);
  }

  private int remember(byte[] key, int id) {
    last = key;
    lastId = id;
    return id;
  }

  private void grow() {
    byte[][] oldKeys = keys;
    int[] oldIds = ids;
    // By hand: names looked up by their bytes, no string per line (model load, hot; fastutil no faster, decision 032).
    keys = new byte[oldKeys.length * 2][];
    ids = new int[keys.length];
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        int slot = hash(oldKeys[i], 0, oldKeys[i].length) & mask;
        while (keys[slot] != null) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        ids[slot] = oldIds[i];
      }
    }
  }

  // A multiplicative hash finished by a murmur mix, so that names differing in their last bytes
  // (p1, p2, …) spread over the table.
  private static int hash(byte[] bytes, int from, int to) {
    long h = 0;
    for (int i = from; i < to; i++) {
      h = (h + bytes[i]) * 0x9E3779B97F4A7C15L;
    }
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }

  String name(int id) {
    return names.get(id);
  }

  List<String> names() {
    return List.copyOf(names);
  }

  int size() {
    return names.size();
  }
}
