package org.ocelotl.format.chrome;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import org.ocelotl.trace.TraceFormatException;

/**
 * A minimal pull tokenizer for JSON over a {@link Reader}: one reused char buffer, line and
 * column kept for error messages, numbers parsed without allocation when they are integers.
 * It knows nothing of the Trace Event format; {@link ChromeReader} drives it.
 */
final class JsonTokenizer {
  private final Path file;
  private final Reader reader;
  private final char[] buffer = new char[1 << 16];
  private final StringBuilder scratch = new StringBuilder();
  private int position;
  private int limit;
  private long line = 1;
  private long lineStart;
  private long consumed;

  JsonTokenizer(Path file, Reader reader) {
    this.file = file;
    this.reader = reader;
  }

  /** Characters consumed so far (for progress). */
  long consumed() {
    return consumed + position;
  }

  /** The next non-blank character without consuming it; -1 at the end of the input. */
  int peek() throws IOException {
    while (true) {
      if (position == limit && !fill()) {
        return -1;
      }
      char c = buffer[position];
      if (c == '\n') {
        line++;
        lineStart = consumed + position + 1;
      } else if (c != ' ' && c != '\t' && c != '\r' && c != '\uFEFF') {
        return c;
      }
      position++;
    }
  }

  private boolean fill() throws IOException {
    consumed += limit;
    position = 0;
    limit = Math.max(0, reader.read(buffer));
    return limit > 0;
  }

  private char next() throws IOException {
    if (position == limit && !fill()) {
      throw error("unexpected end of file (the JSON is cut)");
    }
    return buffer[position++];
  }

  void expect(char expected) throws IOException {
    int c = peek();
    if (c != expected) {
      throw error("expected '" + expected + "', found " + describe(c));
    }
    position++;
  }

  /** Consumes {@code c} if it is next; says whether it was. */
  boolean accept(char c) throws IOException {
    if (peek() == c) {
      position++;
      return true;
    }
    return false;
  }

  String string() throws IOException {
    scratch.setLength(0);
    stringInto(scratch);
    return scratch.toString();
  }

  private void stringInto(StringBuilder out) throws IOException {
    expect('"');
    while (true) {
      char c = next();
      if (c == '"') {
        return;
      }
      if (c == '\\') {
        c = next();
        switch (c) {
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'r' -> out.append('\r');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            int code = 0;
            for (int i = 0; i < 4; i++) {
              int digit = Character.digit(next(), 16);
              if (digit < 0) {
                throw error("invalid \\u escape");
              }
              code = code * 16 + digit;
            }
            out.append((char) code);
          }
          default -> out.append(c);
        }
      } else {
        out.append(c);
      }
    }
  }

  double number() throws IOException {
    int c = peek();
    if (c != '-' && (c < '0' || c > '9')) {
      throw error("expected a number, found " + describe(c));
    }
    boolean negative = c == '-';
    if (negative) {
      position++;
    }
    long integer = 0;
    int digits = 0;
    scratch.setLength(0);
    boolean plain = true;
    while (true) {
      if (position == limit && !fill()) {
        break;
      }
      char d = buffer[position];
      if (d >= '0' && d <= '9') {
        integer = integer * 10 + (d - '0');
        digits++;
      } else if (d == '.' || d == 'e' || d == 'E' || d == '+' || d == '-') {
        plain = false;
      } else {
        break;
      }
      scratch.append(d);
      position++;
    }
    if (plain && digits > 0 && digits <= 18) {
      return negative ? -integer : integer;
    }
    try {
      double value = Double.parseDouble(scratch.toString());
      return negative ? -value : value;
    } catch (NumberFormatException e) {
      throw error("malformed number " + scratch);
    }
  }

  /** A string or a number, as text (ids and pids may be either). */
  String scalarText() throws IOException {
    int c = peek();
    if (c == '"') {
      return string();
    }
    double value = number();
    return value == Math.rint(value) && Math.abs(value) < 1e18
        ? Long.toString((long) value) : Double.toString(value);
  }

  /** Skips one value of any kind. */
  void skipValue() throws IOException {
    int c = peek();
    switch (c) {
      case '"' -> {
        expect('"');
        while (true) {
          char d = next();
          if (d == '\\') {
            next();
          } else if (d == '"') {
            return;
          }
        }
      }
      case '{' -> {
        position++;
        if (accept('}')) {
          return;
        }
        do {
          string();
          expect(':');
          skipValue();
        } while (accept(','));
        expect('}');
      }
      case '[' -> {
        position++;
        if (accept(']')) {
          return;
        }
        do {
          skipValue();
        } while (accept(','));
        expect(']');
      }
      case 't' -> word("true");
      case 'f' -> word("false");
      case 'n' -> word("null");
      default -> number();
    }
  }

  private void word(String word) throws IOException {
    for (int i = 0; i < word.length(); i++) {
      if (next() != word.charAt(i)) {
        throw error("expected " + word);
      }
    }
  }

  TraceFormatException error(String what) {
    long column = consumed + position - lineStart + 1;
    return TraceFormatException.atLine(file, line, "column " + column + ": " + what, null);
  }

  private static String describe(int c) {
    return c < 0 ? "end of file (the JSON is cut)" : "'" + (char) c + "'";
  }
}
