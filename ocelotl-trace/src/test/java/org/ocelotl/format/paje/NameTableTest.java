package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NameTableTest {
  private static int get(NameTable table, int scope, String key) {
    byte[] bytes = (" " + key + " ").getBytes(StandardCharsets.UTF_8);
    return table.get(scope, bytes, 1, bytes.length - 1);
  }

  private static void put(NameTable table, int scope, String key, int value) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    table.put(scope, bytes, 0, bytes.length, value);
  }

  @Test
  void numbersWithLeadingZerosAreOtherNames() {
    NameTable table = new NameTable();
    put(table, 1, "7", 10);
    put(table, 1, "007", 11);
    put(table, 1, "0", 12);
    put(table, 2, "7", 13);
    assertEquals(10, get(table, 1, "7"));
    assertEquals(11, get(table, 1, "007"));
    assertEquals(12, get(table, 1, "0"));
    assertEquals(13, get(table, 2, "7"));
    assertEquals(-1, get(table, 3, "7"));
    assertEquals(-1, get(table, 1, "07"));
    assertEquals(-1, get(table, 1, "70"));
  }

  /**
   * A key of up to 16 bytes is found as two words read from the line (bytes after it masked off),
   * or byte by byte when it ends the array too closely for two words, and both find what put stored;
   * keys differing in a byte past the mask, or in length by a trailing zero byte, are other keys.
   */
  @Test
  void keysAreFoundWhateverFollowsThemAndWhereverTheyEnd() {
    NameTable table = new NameTable();
    for (int length = 0; length <= 18; length++) {
      put(table, 5, "k".repeat(length), length);
    }
    for (int length = 0; length <= 18; length++) {
      byte[] line = ("k".repeat(length) + " S 0.5 kkkkkkkkkkkkkkkkkkkk").getBytes(StandardCharsets.US_ASCII);
      assertEquals(length, table.get(5, line, 0, length), "word path, length " + length);
      byte[] tight = ("x" + "k".repeat(length)).getBytes(StandardCharsets.US_ASCII);
      assertEquals(length, table.get(5, tight, 1, tight.length), "at the array's end, length " + length);
      assertEquals(-1, table.get(6, line, 0, length), "other scope, length " + length);
    }
    byte[] zeros = {'k', 0, 0, 0};
    assertEquals(-1, table.get(5, zeros, 0, 2), "\"k\\0\" is not \"k\"");
    table.put(5, zeros, 0, 2, 40);
    assertEquals(40, table.get(5, zeros, 0, 2));
    assertEquals(1, get(table, 5, "k"));
  }

  /** Against a HashMap, on keys mixing short numbers, long numbers and names, in many scopes. */
  @Test
  void agreesWithAMapOnSeededKeys() {
    for (long seed = 1; seed <= 5; seed++) {
      Random random = new Random(seed);
      NameTable table = new NameTable();
      Map<String, Integer> expected = new HashMap<>();
      for (int i = 0; i < 5000; i++) {
        int scope = random.nextInt(12);
        String key = switch (random.nextInt(4)) {
          case 0 -> Integer.toString(random.nextInt(100_000));
          case 1 -> Long.toString(100_000L + random.nextInt(1_000_000));
          case 2 -> "0" + random.nextInt(100);
          default -> "rank-" + random.nextInt(500);
        };
        if (!expected.containsKey(scope + " " + key)) {
          expected.put(scope + " " + key, i);
          put(table, scope, key, i);
        }
      }
      for (Map.Entry<String, Integer> e : expected.entrySet()) {
        String[] parts = e.getKey().split(" ", 2);
        assertEquals(e.getValue(), get(table, Integer.parseInt(parts[0]), parts[1]), "seed " + seed + " key " + e.getKey());
      }
    }
  }
  /** 12,000 scopes holding the one key "99999" (a 472 KB trace took 5.7 GB, issue 14): no direct arrays. */
  @Test
  void largeNumericKeysAloneInTheirScopesCostNoArrays() {
    NameTable table = new NameTable();
    for (int scope = 0; scope < 12_000; scope++) {
      put(table, scope, "99999", scope);
    }
    for (int scope = 0; scope < 12_000; scope++) {
      assertEquals(scope, get(table, scope, "99999"));
    }
    assertEquals(0, table.directSlots());
    // Dense small aliases, as SimGrid writes them, still use the arrays: 16 slots a key at most.
    for (int n = 0; n < 5000; n++) {
      put(table, 20_000, String.valueOf(n), n);
    }
    for (int n = 0; n < 5000; n++) {
      assertEquals(n, get(table, 20_000, String.valueOf(n)));
    }
    assertTrue(table.directSlots() >= 5000 && table.directSlots() <= 16L * 5000, String.valueOf(table.directSlots()));
  }

  /**
   * 65,536 names built to collide under String's hash (16 pairs of "Aa" or "BB") made an import
   * 8× slower (issue 14): under the table's hash they spread, whatever keys a run draws (200
   * seeded draws).
   */
  @Test
  void namesBuiltToCollideUnderAFixedBaseSpread() {
    byte[][] names = new byte[1 << 16][];
    java.util.Set<Integer> stringHashes = new java.util.HashSet<>();
    for (int k = 0; k < names.length; k++) {
      StringBuilder name = new StringBuilder();
      for (int bit = 0; bit < 16; bit++) {
        name.append((k >> bit & 1) == 0 ? "Aa" : "BB");
      }
      names[k] = name.toString().getBytes(StandardCharsets.US_ASCII);
      stringHashes.add(name.toString().hashCode());
    }
    assertEquals(1, stringHashes.size(), "they do collide under a fixed base 31");
    java.util.SplittableRandom random = new java.util.SplittableRandom(14);
    for (int draw = 0; draw < 200; draw++) {
      long[] keys = NameTable.keys(random);
      java.util.BitSet slots = new java.util.BitSet(1 << 20);
      for (byte[] name : names) {
        slots.set(NameTable.hash(keys, 0, name, 0, name.length) & 0xFFFFF);
      }
      // 65,536 random draws among 2^20 slots fill 63,550 on average (σ ≈ 60).
      assertTrue(slots.cardinality() > 63_000, "draw " + draw + ": " + slots.cardinality() + " distinct table slots of 2^20 for 65,536 names");
    }
  }

  /** Names longer than the keyed bytes, differing only past them, still spread and are found. */
  @Test
  void longNamesDifferingPastTheKeyedBytesSpread() {
    NameTable table = new NameTable();
    String prefix = "x".repeat(NameTable.KEYED_BYTES + 10);
    java.util.Set<Integer> hashes = new java.util.HashSet<>();
    for (int n = 0; n < 4096; n++) {
      put(table, 3, prefix + n, n);
      byte[] bytes = (prefix + n).getBytes(StandardCharsets.US_ASCII);
      hashes.add(NameTable.hash(3, bytes, 0, bytes.length));
    }
    for (int n = 0; n < 4096; n++) {
      assertEquals(n, get(table, 3, prefix + n));
    }
    assertTrue(hashes.size() > 4090, hashes.size() + " distinct hashes of 4,096 names");
  }
}
