package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
