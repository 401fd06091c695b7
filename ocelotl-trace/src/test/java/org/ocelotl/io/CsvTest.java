package org.ocelotl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CsvTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '\'', emptyValue = "", value = {
      "rank-3|rank-3",
      "lyon/lyon-c1/rank-35|lyon/lyon-c1/rank-35",
      "'a,b'|'\"a,b\"'",
      "'say \"hi\"'|'\"say \"\"hi\"\"\"'",
      "''|'\"\"'",
      "' '|' '"})
  void quotesOnlyWhatWouldBeReadOtherwise(String text, String expected) {
    assertEquals(expected, Csv.field(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"a\nb", "a\rb", "a\r\nb"})
  void quotesLineBreaks(String text) {
    assertEquals('"' + text + '"', Csv.field(text));
  }
}
