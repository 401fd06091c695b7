package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link DecimalParser} must give the very bits {@link Double#parseDouble} gives. Every input is
 * parsed alone (too close to the array's end for the word-at-a-time path) and inside a line
 * buffer followed by blanks, by digits and by a point (the word path, which must stop at the
 * range's end).
 */
class DecimalParserTest {
  private static final long SEED = 20240611L;
  private static final String[] FOLLOWERS = {"                    ", "12345678901234567890", ".5.5.5.5.5.5.5.5.5.5"};

  @Test
  void edgeCasesMatchParseDouble() {
    String[] inputs = {"0", "-0", "+0", "0.0", "-0.000", "1", "-1", "0.1", ".5", "5.", "1e3",
        "1E-3", "1e+3", "123456789012345678", "1234567890123456789", "12345678901234567890123",
        "9007199254740992", "9007199254740993", "9007199254740991.5", "0.000000000000000000001",
        "1e22", "1e23", "1.7976931348623157e308", "1e309", "4.9e-324", "1e-400", "0e500",
        "4103.658751000", "0.654303", "1000000000.000000", "50755250.000000", "0.000100",
        "1.8741E-5", "00000000000000000000001.5", "2.2250738585072014E-308", "0.30000000000000004",
        "8.41e21", "123456789e-22", "9999999999999999999999999999", "1.00000000000000011102230246251565404236316680908203125"};
    for (String input : inputs) {
      assertSame(input);
    }
  }

  @Test
  void randomDecimalsMatchParseDouble() {
    Random random = new Random(SEED);
    for (int i = 0; i < 300_000; i++) {
      String input = randomDecimal(random);
      assertSame(input, "seed " + SEED + ", case " + i);
    }
  }

  @Test
  void randomDoublesPrintedByJavaAndPrintfMatchParseDouble() {
    Random random = new Random(SEED + 1);
    for (int i = 0; i < 100_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        continue;
      }
      assertSame(Double.toString(d).replace("E", "e"), "seed " + (SEED + 1) + ", case " + i);
      double scaled = random.nextDouble() * Math.pow(10, random.nextInt(12));
      assertSame(String.format("%.6f", scaled), "seed " + (SEED + 1) + ", case " + i);
    }
  }

  @Test
  void rejectsWhatIsNotADecimal() {
    for (String input : new String[] {"", "-", "+", ".", "e5", "1e", "1e+", "abc", "1.2.3",
        "NaN", "Infinity", "0x10", "1d", "1f", "--1", "1 2", "12a", "-.", "1.-5", "12345678.1x",
        "1.12345678x", "\u00ff1", "1\u00fa"}) {
      byte[] b = input.getBytes(StandardCharsets.ISO_8859_1);
      assertTrue(Double.isNaN(DecimalParser.parse(b, 0, b.length)), input);
      for (String follower : FOLLOWERS) {
        byte[] line = (" " + input + follower).getBytes(StandardCharsets.ISO_8859_1);
        assertTrue(Double.isNaN(DecimalParser.parse(line, 1, 1 + b.length)), input + follower);
      }
    }
  }

  @Test
  void wordPathReadsTraceShapes() {
    for (String input : new String[] {"26.438013", "7250750.000000", "0.000201", "-0.5", "-7", "1234567",
        "1234567.1234567", "12345678.5", "1.12345678", ".1234567", "9999999.9999999", "0.0000001",
        "1000000000.000000", "50755250.000000", "123456789012345", "1234567890123456", "123456789012345.1234567",
        "900719925474099.1", "900719925474099.3", "9007199254740993", "99999999999999.9999", "-12345678.0000001"}) {
      assertSame(input);
    }
  }

  @Test
  void readsOnlyItsRange() {
    byte[] b = "x12.5y".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(12.5, DecimalParser.parse(b, 1, 5));
  }

  private static String randomDecimal(Random random) {
    StringBuilder s = new StringBuilder();
    if (random.nextInt(4) == 0) {
      s.append(random.nextBoolean() ? '-' : '+');
    }
    int integerDigits = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 6 : 20);
    int fractionDigits = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 9 : 25);
    if (integerDigits + fractionDigits == 0) {
      integerDigits = 1;
    }
    for (int i = 0; i < integerDigits; i++) {
      s.append((char) ('0' + random.nextInt(10)));
    }
    if (fractionDigits > 0 || random.nextInt(8) == 0) {
      s.append('.');
    }
    for (int i = 0; i < fractionDigits; i++) {
      s.append((char) ('0' + random.nextInt(10)));
    }
    if (random.nextInt(3) == 0) {
      s.append(random.nextBoolean() ? 'e' : 'E');
      int r = random.nextInt(3);
      if (r == 1) {
        s.append('-');
      } else if (r == 2) {
        s.append('+');
      }
      s.append(random.nextInt(random.nextBoolean() ? 30 : 400));
    }
    return s.toString();
  }

  private static void assertSame(String input) {
    assertSame(input, "");
  }

  private static void assertSame(String input, String context) {
    byte[] b = input.getBytes(StandardCharsets.ISO_8859_1);
    double expected = Double.parseDouble(input);
    assertBits(expected, DecimalParser.parse(b, 0, b.length), input, context);
    for (String follower : FOLLOWERS) {
      byte[] line = (" " + input + follower).getBytes(StandardCharsets.ISO_8859_1);
      assertBits(expected, DecimalParser.parse(line, 1, 1 + b.length), input, context + ", followed by " + follower);
    }
  }

  private static void assertBits(double expected, double actual, String input, String context) {
    assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual),
        () -> "'" + input + "': parseDouble " + expected + ", ours " + actual + " " + context);
  }
}
