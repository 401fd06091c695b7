package org.ocelotl.format.paje;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Pajé reader's decimal parser ({@link DecimalParser}, in this package so as to reach it)
 * against FastDoubleParser's byte parser ({@code JavaDoubleParser.parseDouble(byte[], int, int)},
 * what the model files' reader uses), on 100,000 texts in one line-like buffer, separated by
 * blanks as in a trace:
 * <ul>
 *   <li>{@code paje}: SimGrid's dates and values, {@code %f}-style with 6 decimals
 *       ({@code 4.820586}, {@code 1000000000.000000});
 *   <li>{@code short}: 1 to 3 decimals ({@code 26.5}, {@code 0.125}), as Akypuera and hand-written traces;
 *   <li>{@code shortest}: random doubles written shortest (up to 17 digits, {@code 0.10240000000000027}),
 *       as Java and the model files write them.
 * </ul>
 * Each call parses every text and returns their sum; ns per text = the time / 100,000.
 */
@State(Scope.Benchmark)
@Fork(value = 1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecimalParserBenchmark {
  static final int TEXTS = 100_000;

  @Param({"paje", "short", "shortest"})
  public String numbers;

  private byte[] buffer;
  private int[] from;
  private int[] to;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(2024);
    StringBuilder text = new StringBuilder();
    from = new int[TEXTS];
    to = new int[TEXTS];
    for (int i = 0; i < TEXTS; i++) {
      String number = switch (numbers) {
        case "paje" -> String.format(Locale.ROOT, "%.6f", random.nextDouble(random.nextBoolean() ? 20 : 2e9));
        case "short" -> String.format(Locale.ROOT, "%." + (1 + random.nextInt(3)) + "f", random.nextDouble(1000));
        case "shortest" -> Double.toString(random.nextDouble(1000));
        default -> throw new IllegalArgumentException(numbers);
      };
      from[i] = text.length();
      text.append(number);
      to[i] = text.length();
      text.append(' ');
    }
    text.append("                                "); // what follows the last line's number
    buffer = text.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  @Benchmark
  public double decimalParser() {
    double sum = 0;
    for (int i = 0; i < TEXTS; i++) {
      sum += DecimalParser.parse(buffer, from[i], to[i]);
    }
    return sum;
  }

  @Benchmark
  public double fastDoubleParser() {
    double sum = 0;
    for (int i = 0; i < TEXTS; i++) {
      sum += JavaDoubleParser.parseDouble(buffer, from[i], to[i] - from[i]);
    }
    return sum;
  }
}
