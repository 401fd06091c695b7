package org.ocelotl.modelfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PlainDecimal answers exactly as Double.parseDouble (correctly rounded, bit for bit) or not at
 * all (NaN); it answers most plain decimals, the values model files hold.
 */
class PlainDecimalTest {
  private static double parse(String text) {
    byte[] bytes = ("," + text + ",").getBytes(StandardCharsets.US_ASCII);
    return PlainDecimal.parse(bytes, 1, bytes.length - 1);
  }

  /** Parses the text; false when PlainDecimal gives no answer, fails when it gives a wrong one. */
  private static boolean answered(String text, String context) {
    double plain = parse(text);
    if (Double.isNaN(plain)) {
      return false;
    }
    assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)), Double.doubleToRawLongBits(plain),
        text + " (" + context + ")");
    return true;
  }

  /**
   * Seeded values written as the writers of model files write them (Ocelotl's shortest form,
   * Java's, Python's 17 significant digits), with 1 to 18 significant digits at every scale, and
   * integers past 2^53.
   */
  @Test
  void plainDecimalsReadAsTheJdkReadsThem() {
    long seed = 2026_11_25;
    Random random = new Random(seed);
    int answered = 0;
    int tried = 0;
    for (int i = 0; i < 400_000; i++) {
      double d = random.nextDouble() * Math.pow(10, random.nextInt(12) - 5);
      String text = switch (i % 5) {
        case 0 -> NumberOutput.toString(d, true);
        case 1 -> Double.toString(d);
        case 2 -> new BigDecimal(d).round(new MathContext(17)).toPlainString();
        case 3 -> new BigDecimal(d).round(new MathContext(1 + random.nextInt(18))).toPlainString();
        default -> Long.toString((1L << 53) + (random.nextLong() >>> 4));
      };
      answered += answered(text, "seed " + seed + ", value " + i) ? 1 : 0;
      tried++;
    }
    assertTrue(answered > tried * 8 / 10, answered + " of " + tried + " answered");
  }

  /**
   * Decimals within a few units of their 18th digit of the midpoint between two neighbouring
   * doubles, and exact midpoints (ties), where a wrong rounding would show: answered right or not
   * answered.
   */
  @Test
  void decimalsNextToAMidpointAreRoundedRightOrLeft() {
    long seed = 18_2026;
    Random random = new Random(seed);
    int answered = 0;
    for (int i = 0; i < 100_000; i++) {
      double d = random.nextDouble() * Math.pow(10, random.nextInt(10) - 4);
      BigDecimal midpoint = new BigDecimal(d).add(new BigDecimal(Math.nextUp(d))).divide(BigDecimal.valueOf(2));
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING, RoundingMode.HALF_EVEN}) {
        BigDecimal near = midpoint.round(new MathContext(18, mode));
        answered += answered(near.toPlainString(), "seed " + seed + ", midpoint " + i + " " + mode) ? 1 : 0;
        answered += answered(near.add(near.ulp()).toPlainString(), "seed " + seed + ", midpoint " + i + " + ulp") ? 1 : 0;
      }
    }
    assertTrue(answered > 100_000, answered + " answered");
    // Integers exactly between two doubles: ties, left to the general parser.
    for (long tie : new long[] {(1L << 53) + 1, (1L << 54) + 2, (1L << 55) + 4, (1L << 59) + 64, (1L << 59) + 192}) {
      assertTrue(Double.isNaN(parse(Long.toString(tie))), tie + " is a tie");
    }
    assertTrue(answered("9007199254740993.5", "just above a tie"));
  }

  @Test
  void anythingButDigitsAndOnePointIsLeftToTheGeneralParser() {
    for (String text : new String[] {"", ".", "5.", ".5", "1.2.3", "-1", "+1", "1e5", "1E-5", " 1", "1 ", "0x1p3", "NaN",
        "Infinity", "1_000", "1234567890123456789", "0.00000000000000000000001"}) {
      assertTrue(Double.isNaN(parse(text)), "\"" + text + "\"");
    }
    assertEquals(0.0, parse("0.000"));
    assertEquals(0.5, parse("00.5"));
    assertEquals(4.0, parse("4"));
    assertEquals(0.47009071843107064, parse("0.47009071843107064"));
  }
}
