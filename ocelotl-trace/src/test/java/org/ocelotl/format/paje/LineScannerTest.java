package org.ocelotl.format.paje;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Fields as {@link LineScanner} splits them, across the word-at-a-time scan's edge cases. */
class LineScannerTest {
  private static final long SEED = 20261126L;

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

  @Test
  void plainLinesSplitWordWiseAsAnyLineSplitsByteWise() throws IOException {
    assertEquals(List.of(List.of("8bytes!!", "x"), List.of("7bytes!"), List.of("abc"), List.of("a", "b", "c"),
            List.of("x\"y#z"), List.of("01234567890123456789012345678901234567890")),
        fields("8bytes!! x\n7bytes!\n   abc   \na b c \nx\"y#z\n01234567890123456789012345678901234567890\n"));
  }

  /**
   * Random text, mostly plain lines (space-separated fields, which the scanner splits eight bytes
   * at a time) mixed with every case it leaves to its byte-wise split (quotes, comments, tabs,
   * CR, control bytes, lines across the 1 MiB buffer's refills), against {@link #reference}.
   */
  @Test
  void splitsRandomTextAsTheReferenceDoes() throws IOException {
    for (int round = 0; round < 12; round++) {
      long seed = SEED + round;
      byte[] text = randomText(new Random(seed), round == 0 ? 3_000_000 : 100_000);
      List<Line> expected = reference(text);
      LineScanner lines = new LineScanner(new ByteArrayInputStream(text), () -> { });
      for (int n = 0; n < expected.size(); n++) {
        String where = " (seed " + seed + ", line " + expected.get(n).number + ")";
        assertTrue(lines.next(), "a line is missing" + where);
        assertEquals(expected.get(n), Line.of(lines), where);
      }
      assertFalse(lines.next(), "a line too many (seed " + seed + ")");
    }
  }

  /** A line with fields: its number, fields, whether a quote was left open, and its text. */
  private record Line(long number, List<String> fields, boolean unterminatedQuote, String text) {
    static Line of(LineScanner lines) {
      List<String> fields = new ArrayList<>();
      for (int f = 0; f < lines.fieldCount(); f++) {
        fields.add(lines.field(f));
      }
      return new Line(lines.lineNumber(), fields, lines.unterminatedQuote(), lines.lineText());
    }
  }

  /**
   * The class's rules applied a byte at a time: blanks (space, tab, CR) separate fields; a field
   * starting with a quote runs to the next quote, or to the end of the line (then left open); a
   * field starting with '#' drops the rest of the line; lines without fields are skipped; the
   * last line needs no newline.
   */
  private static List<Line> reference(byte[] text) {
    List<Line> lines = new ArrayList<>();
    long number = 0;
    for (int start = 0; start < text.length; ) {
      int end = start;
      while (end < text.length && text[end] != '\n') {
        end++;
      }
      number++;
      List<String> fields = new ArrayList<>();
      boolean open = false;
      int i = start;
      while (i < end) {
        byte c = text[i];
        if (c == ' ' || c == '\t' || c == '\r') {
          i++;
        } else if (c == '#') {
          i = end;
        } else if (c == '"') {
          int close = i + 1;
          while (close < end && text[close] != '"') {
            close++;
          }
          fields.add(new String(text, i + 1, close - i - 1, StandardCharsets.UTF_8));
          open = close == end;
          i = Math.min(close + 1, end);
        } else {
          int fieldEnd = i;
          while (fieldEnd < end && " \t\r".indexOf(text[fieldEnd]) < 0) {
            fieldEnd++;
          }
          fields.add(new String(text, i, fieldEnd - i, StandardCharsets.UTF_8));
          i = fieldEnd;
        }
      }
      int textEnd = end;
      while (textEnd > start && text[textEnd - 1] == '\r') {
        textEnd--;
      }
      if (!fields.isEmpty()) {
        lines.add(new Line(number, fields, open, new String(text, start, textEnd - start, StandardCharsets.UTF_8)));
      }
      start = end + 1;
    }
    return lines;
  }

  /**
   * Lines of 0 to 12 fields of 0 to 20 bytes, or (one in 16) up to 70 fields, past every size the
   * field arrays grow to; one line in eight holds bytes that are not plain.
   */
  private static byte[] randomText(Random random, int size) {
    String plain = "0123456789.-abcXYZ%_é";
    String special = "\"#\t\r\u0001\u001f\u0000";
    StringBuilder text = new StringBuilder(size + 100);
    while (text.length() < size) {
      boolean mixed = random.nextInt(8) == 0;
      int fields = random.nextInt(random.nextInt(16) == 0 ? 71 : 13);
      for (int f = 0; f < fields; f++) {
        text.append(" ".repeat(f == 0 ? random.nextInt(2) : 1 + (random.nextInt(6) == 0 ? random.nextInt(3) : 0)));
        int length = random.nextInt(21);
        for (int c = 0; c < length; c++) {
          String from = mixed && random.nextInt(6) == 0 ? special : plain;
          text.append(from.charAt(random.nextInt(from.length())));
        }
      }
      if (random.nextInt(4) == 0) {
        text.append(" ".repeat(random.nextInt(10)));
      }
      text.append('\n');
    }
    if (random.nextBoolean()) {
      text.setLength(text.length() - 1); // the last line without its newline
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
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
