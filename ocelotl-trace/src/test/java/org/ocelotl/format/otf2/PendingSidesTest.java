package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingSides} against a map of queues, on seeded drawings of sends and receives over few
 * producers and tags (channels met, emptied and met again: the table's deletions and growth), and
 * the bound that makes the OTF2 import's memory: nothing is kept of a channel whose sides all matched.
 */
class PendingSidesTest {
  private record Key(int from, int to, long tag) {}

  private record Side(boolean send, double time, int kind, long length) {}

  @Test
  void matchesAsAMapOfQueues() {
    for (long seed = 1; seed <= 200; seed++) {
      Random random = new Random(seed);
      PendingSides pending = new PendingSides();
      Map<Key, ArrayDeque<Side>> reference = new TreeMap<>(Comparator.comparingInt(Key::from)
          .thenComparingInt(Key::to).thenComparingLong(Key::tag));
      int producers = 1 + random.nextInt(6);
      int tags = 1 + random.nextInt(40);
      for (int op = random.nextInt(3000); op > 0; op--) {
        Key key = new Key(random.nextInt(producers), random.nextInt(producers), random.nextInt(tags) - 1L);
        Side side = new Side(random.nextBoolean(), random.nextInt(1000), random.nextInt(256), random.nextLong());
        ArrayDeque<Side> queue = reference.get(key);
        int slot = pending.find(key.from(), key.to(), key.tag());
        String message = "seed " + seed + ", " + key;
        assertEquals(queue != null, slot >= 0, message);
        if (queue != null && queue.peekFirst().send() != side.send()) {
          Side oldest = queue.pollFirst();
          assertEquals(oldest.send(), pending.sends(slot), message);
          assertEquals(oldest.time(), pending.oldestTime(slot), message);
          assertEquals(oldest.length(), pending.oldestLength(slot), message);
          pending.removeOldest(slot);
          if (queue.isEmpty()) {
            reference.remove(key);
          }
        } else {
          reference.computeIfAbsent(key, k -> new ArrayDeque<>()).add(side);
          pending.add(key.from(), key.to(), key.tag(), side.send(), side.time(), side.kind(), side.length());
        }
        assertEquals(reference.size(), pending.channels(), message);
      }
      List<String> expected = new ArrayList<>();
      reference.forEach((key, queue) -> queue.forEach(side -> expected.add(key + " " + side.send() + " "
          + side.time() + " " + side.kind())));
      List<String> visited = new ArrayList<>();
      pending.forEach((from, to, tag, sends, time, kind) -> visited.add(new Key(from, to, tag) + " " + sends + " "
          + time + " " + kind));
      assertEquals(expected, visited, "seed " + seed);
      assertEquals(expected.size(), pending.sides(), "seed " + seed);
    }
  }

  /** A tag per message, as the generated Score-P archive has: every channel is forgotten when its message matches. */
  @Test
  void forgetsChannelsWhoseMessagesAllMatched() {
    PendingSides pending = new PendingSides();
    for (int tag = 0; tag < 100_000; tag++) {
      pending.add(0, 1, tag, true, tag, Otf2Records.MPI_SEND, 8);
    }
    assertEquals(100_000, pending.channels());
    for (int tag = 0; tag < 100_000; tag++) {
      int slot = pending.find(0, 1, tag);
      assertEquals(tag, pending.oldestTime(slot));
      pending.removeOldest(slot);
    }
    assertEquals(0, pending.channels());
    assertEquals(0, pending.sides());
    assertEquals(-1, pending.find(0, 1, 99_999));
  }
}
