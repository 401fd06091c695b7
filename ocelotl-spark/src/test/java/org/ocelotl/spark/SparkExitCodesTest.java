package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * ocelotl-spark follows ocelotl's rule for exit codes (decision 049): a value refused for its
 * option's type is bad input, status 1, one line; the option without its value is usage, status 2.
 * Both are found while the command line is parsed, before any Spark session starts.
 */
class SparkExitCodesTest {
  record Result(int status, String err) {}

  static Result run(String... args) {
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      int status = SparkMain.run(args);
      return new Result(status, bytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
    }
  }

  @Test
  void aRefusedValueIsBadInputAMissingOneUsage() {
    Result bad = run("import", "t.trace", "--out", "d", "--range-bytes", "abc");
    assertEquals(new Result(1, "ocelotl-spark: --range-bytes: expected an integer, found 'abc'\n"), bad);
    assertEquals(2, run("import", "t.trace", "--out", "d", "--range-bytes").status());
  }
}
