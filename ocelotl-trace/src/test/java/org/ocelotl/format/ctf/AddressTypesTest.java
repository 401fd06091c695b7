package org.ocelotl.format.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The address map against a HashMap, past several growths, with 0 and aligned addresses. */
class AddressTypesTest {
  @Test
  void findsWhatWasPutAndNothingElse() {
    long seed = 17;
    Random random = new Random(seed);
    AddressTypes map = new AddressTypes();
    Map<Long, Integer> expected = new HashMap<>();
    for (int i = 0; i < 5000; i++) {
      // function addresses: 16-byte aligned in a small text segment, a few anywhere, and 0
      long address = i == 100 ? 0 : i % 10 == 0 ? random.nextLong() : 0x400000 + 16L * random.nextInt(4096);
      if (!expected.containsKey(address)) {
        expected.put(address, i);
        map.put(address, i);
      }
    }
    for (long address = 0x400000 - 64; address < 0x400000 + 16 * 4096 + 64; address += 8) {
      assertEquals(expected.getOrDefault(address, -1), map.get(address), "seed " + seed + ", address " + address);
    }
    for (Map.Entry<Long, Integer> entry : expected.entrySet()) {
      assertEquals(entry.getValue(), map.get(entry.getKey()), "seed " + seed);
    }
    assertEquals(expected.get(0L), map.get(0));
  }
}
