package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadAhead} gives the file's bytes in order, whatever the sizes of blocks and reads. A
 * lost hand-over between its two threads shows as a wait without end, hence the time limit.
 */
@Timeout(30)
class ReadAheadTest {
  private static final long SEED = 20261126L;

  @TempDir Path dir;

  /**
   * Files empty, shorter than a block, of exactly one or several blocks, one byte either side, and
   * longer than all blocks together, read with small blocks by reads of random lengths (0 to 20
   * bytes, or one byte at a time), 50 times each so that the threads meet in many orders.
   */
  @Test
  void givesTheFileAsItIsWhateverTheBlocksAndReads() throws IOException {
    Random random = new Random(SEED);
    int block = 7;
    int blocks = 3;
    int[] sizes = {0, 1, block - 1, block, block + 1, 2 * block, blocks * block, blocks * block + 1, 1000};
    for (int round = 0; round < 50; round++) {
      for (int size : sizes) {
        readsBack(size, block, blocks, random);
      }
    }
  }

  private void readsBack(int size, int block, int blocks, Random random) throws IOException {
    byte[] content = new byte[size];
    random.nextBytes(content);
    Path file = Files.write(dir.resolve("f" + size), content);
    try (InputStream in = new ReadAhead(file, block, blocks)) {
      assertArrayEquals(content, readAll(in, random), "size " + size + " (seed " + SEED + ")");
      assertEquals(-1, in.read(), "after the end");
      assertEquals(-1, in.read(new byte[4], 0, 4), "after the end");
    }
  }

  @Test
  void aFailedReadReachesTheReaderAsTheSameException() throws IOException {
    IOException plain = assertThrows(IOException.class, () -> {
      try (InputStream in = Files.newInputStream(dir)) {
        in.read(new byte[16], 0, 16);
      }
    });
    try (InputStream in = new ReadAhead(dir, 16, 2)) {
      IOException ahead = assertThrows(IOException.class, () -> in.read(new byte[16], 0, 16));
      assertEquals(plain.getClass(), ahead.getClass());
      assertEquals(plain.getMessage(), ahead.getMessage());
      assertEquals(ahead, assertThrows(IOException.class, in::read), "thrown again by a later read");
    }
  }

  /** Closed with blocks still in flight and the thread waiting for a free one: no hang, no error. */
  @Test
  void closesBeforeTheEnd() throws IOException {
    Path file = Files.write(dir.resolve("long"), new byte[10_000]);
    for (int round = 0; round < 100; round++) {
      try (InputStream in = new ReadAhead(file, 16, 2)) {
        assertEquals(0, in.read());
      }
    }
  }

  private static byte[] readAll(InputStream in, Random random) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[32];
    while (true) {
      if (random.nextInt(4) == 0) {
        int b = in.read();
        if (b < 0) {
          return out.toByteArray();
        }
        out.write(b);
        continue;
      }
      int offset = random.nextInt(8);
      int n = in.read(buffer, offset, random.nextInt(21));
      if (n < 0) {
        return out.toByteArray();
      }
      out.write(buffer, offset, n);
    }
  }
}
