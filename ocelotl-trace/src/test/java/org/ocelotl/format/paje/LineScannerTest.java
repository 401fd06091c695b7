package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fields as {@link LineScanner} splits them, across the word-at-a-time scan's edge cases. */
class LineScannerTest {
  @Test
  void splitsFieldsOfEveryLengthOnEverySeparator() throws IOException {
    assertEquals(List.of(List.of("1", "22", "333"), List.of("4444", "55555", "666666", "7777777"),
            List.of("88888888", "999999999", "aaaaaaaaaaaaaaaaa"), List.of("last", "line")),
        fields("1 22\t333\r\n4444  55555 \t666666 7777777\n88888888 999999999\taaaaaaaaaaaaaaaaa\n\nlast line"));
  }

  @Test
  void keepsControlAndNonAsciiBytesInsideFields() throws IOException {
    assertEquals(List.of(List.of("a\u0001b\u001fc", "\u0000", "é€", "x\u0002yyyyyyyyyy\u0003")),
        fields("a\u0001b\u001fc \u0000 é€ x\u0002yyyyyyyyyy\u0003\n"));
  }

  @Test
  void quotesAndCommentsStartOnlyAtAFieldsStart() throws IOException {
    assertEquals(List.of(List.of("1", "two words", "3"), List.of("4#")),
        fields("1 \"two words\" 3 # a comment\n4#\n# only a comment\n"));
  }

  private static List<List<String>> fields(String text) throws IOException {
    LineScanner lines = new LineScanner(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), () -> { });
    List<List<String>> all = new ArrayList<>();
    while (lines.next()) {
      List<String> line = new ArrayList<>();
      for (int f = 0; f < lines.fieldCount(); f++) {
        line.add(lines.field(f));
      }
      all.add(line);
    }
    assertFalse(lines.unterminatedQuote());
    assertTrue(lines.lineNumber() > 0);
    return all;
  }
}
