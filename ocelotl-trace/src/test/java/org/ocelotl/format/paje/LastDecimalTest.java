package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LastDecimal} must give {@link DecimalParser#parse}'s bits for every text, whatever came
 * before it: a repeat taken for another text (a mask too short, a length not compared) returns the
 * value of the text before. Texts are drawn from a pool of numbers and of their near twins (one
 * byte changed at each position, one byte added or removed), so that consecutive texts often
 * share their first words, and placed in a line buffer followed by varying bytes, or within
 * {@link LastDecimal#MAX_LENGTH} bytes of its end.
 */
class LastDecimalTest {
  private static final long SEED = 20261125L;
  private static final String FOLLOWERS = " \t\n0123456789.-e\"#x";

  @Test
  void matchesTheParserOnRandomRunsOfRepeatsAndNearTwins() {
    Random random = new Random(SEED);
    List<String> pool = pool(random);
    LastDecimal last = new LastDecimal();
    byte[] buffer = new byte[256];
    String previous = pool.get(0);
    for (int i = 0; i < 400_000; i++) {
      String text = random.nextInt(4) > 0 ? previous : pool.get(random.nextInt(pool.size()));
      byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
      int from = random.nextInt(8) == 0 ? buffer.length - bytes.length - random.nextInt(LastDecimal.MAX_LENGTH)
          : random.nextInt(buffer.length - bytes.length - LastDecimal.MAX_LENGTH);
      from = Math.max(0, Math.min(from, buffer.length - bytes.length));
      System.arraycopy(bytes, 0, buffer, from, bytes.length);
      for (int j = from + bytes.length; j < buffer.length; j++) {
        buffer[j] = (byte) FOLLOWERS.charAt(random.nextInt(FOLLOWERS.length()));
      }
      int to = from + bytes.length;
      assertEquals(Double.doubleToRawLongBits(DecimalParser.parse(buffer, from, to)),
          Double.doubleToRawLongBits(last.parse(buffer, from, to)),
          "'" + text + "' after '" + previous + "' (seed " + SEED + ", case " + i + ")");
      previous = text;
    }
  }

  /** Texts one byte apart, then texts whose words are the same and whose lengths are not. */
  @Test
  void aRepeatIsTheSameTextNotTheSameStart() {
    LastDecimal last = new LastDecimal();
    String[] texts = {"26.438013", "26.438013", "26.43801", "26.4380133", "26.438014", "1000000000.000000",
        "1000000000.000001", "1000000000.0000001", "100000000.000000", "2", "2", "2.", "", "-",
        "123456789012345678901234", "123456789012345678901235", "1234567890123456789012345",
        "1234567890123456789012346", "0.000100", "0.000100", "0.0001000",
        // The same words, the length only tells them apart (NUL bytes are masked-off bytes too).
        "1", "1\u0000", "1\u0000\u0000", "1"};
    for (String text : texts) {
      byte[] line = (text + " 12 345 6789.0\n").getBytes(StandardCharsets.ISO_8859_1);
      byte[] padded = java.util.Arrays.copyOf(line, line.length + 64);
      assertEquals(Double.doubleToRawLongBits(DecimalParser.parse(padded, 0, text.length())),
          Double.doubleToRawLongBits(last.parse(padded, 0, text.length())), text);
    }
  }

  @Test
  void lowBytesMasksTheFirstBytesOfAWord() {
    assertEquals(0L, LastDecimal.lowBytes(-9));
    assertEquals(0L, LastDecimal.lowBytes(0));
    assertEquals(0xFFL, LastDecimal.lowBytes(1));
    assertEquals(0x00FF_FFFF_FFFF_FFFFL, LastDecimal.lowBytes(7));
    assertEquals(-1L, LastDecimal.lowBytes(8));
    assertEquals(-1L, LastDecimal.lowBytes(17));
  }

  /** Numbers of every length up to 30 and their twins one byte apart, plus texts that are no numbers. */
  private static List<String> pool(Random random) {
    List<String> pool = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String base = randomNumber(random, 1 + random.nextInt(30));
      pool.add(base);
      for (int at = 0; at < base.length(); at++) {
        char c = base.charAt(at);
        char other = Character.isDigit(c) ? (char) ('0' + (c - '0' + 1 + random.nextInt(9)) % 10) : '7';
        pool.add(base.substring(0, at) + other + base.substring(at + 1));
      }
      pool.add(base + random.nextInt(10));
      pool.add(base.substring(0, base.length() - 1));
    }
    pool.add("1e5");
    pool.add("1.5e-3");
    pool.add("abc");
    pool.add("-");
    return pool;
  }

  private static String randomNumber(Random random, int length) {
    StringBuilder text = new StringBuilder(random.nextInt(5) == 0 ? "-" : "");
    int point = random.nextInt(3) == 0 ? -1 : random.nextInt(length);
    while (text.length() < length) {
      text.append(text.length() == point ? '.' : (char) ('0' + random.nextInt(10)));
    }
    return text.toString();
  }
}
