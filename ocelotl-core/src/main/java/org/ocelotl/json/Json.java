package org.ocelotl.json;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON writer and reader for metadata files and {@code --json} outputs, so that the
 * core and the trace module stay free of libraries.
 *
 * <p>Values map to Java as: object ↔ {@link Map} (insertion order kept), array ↔ {@link List},
 * string ↔ {@link String}, number ↔ {@link Long} when written without fraction or exponent and
 * within range, else {@link Double}; true/false ↔ {@link Boolean}; null ↔ null. Non-finite
 * doubles have no JSON form and are written as null. Doubles are written with
 * {@link Double#toString}, whose output parses back to the same double.
 */
public final class Json {
  private Json() {}

  /** Compact JSON. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, -1, 0);
    return out.toString();
  }

  /** JSON indented by two spaces per level, for files and outputs people read. */
  public static String pretty(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, 2, 0);
    return out.append('\n').toString();
  }

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws IllegalArgumentException naming the character offset and what was expected there
   */
  public static Object parse(String text) {
    Parser parser = new Parser(text);
    Object value = parser.value();
    parser.skipBlanks();
    if (parser.pos != text.length()) {
      throw parser.error("end of input");
    }
    return value;
  }

  private static void write(Object value, StringBuilder out, int indent, int level) {
    if (value == null || value instanceof Double d && !Double.isFinite(d)
        || value instanceof Float f && !Float.isFinite(f)) {
      out.append("null");
    } else if (value instanceof String s) {
      quote(s, out);
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      writeObject(map, out, indent, level);
    } else if (value instanceof Collection<?> list) {
      writeArray(list, out, indent, level);
    } else {
      throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
    }
  }

  private static void writeObject(Map<?, ?> map, StringBuilder out, int indent, int level) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      newline(out, indent, level + 1);
      quote(String.valueOf(entry.getKey()), out);
      out.append(indent < 0 ? ":" : ": ");
      write(entry.getValue(), out, indent, level + 1);
    }
    if (!map.isEmpty()) {
      newline(out, indent, level);
    }
    out.append('}');
  }

  // Arrays of scalars stay on one line even when pretty: they are rows, read as rows.
  private static void writeArray(Collection<?> list, StringBuilder out, int indent, int level) {
    boolean nested = list.stream().anyMatch(v -> v instanceof Map || v instanceof Collection);
    int inner = nested ? indent : -1;
    out.append('[');
    boolean first = true;
    for (Object item : list) {
      out.append(first ? "" : indent >= 0 && !nested ? ", " : ",");
      first = false;
      newline(out, inner, level + 1);
      write(item, out, indent, level + 1);
    }
    if (!list.isEmpty()) {
      newline(out, inner, level);
    }
    out.append(']');
  }

  private static void newline(StringBuilder out, int indent, int level) {
    if (indent >= 0) {
      out.append('\n').append(" ".repeat(indent * level));
    }
  }

  /** Appends {@code s} as a JSON string literal. */
  public static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    Object value() {
      skipBlanks();
      if (pos >= text.length()) {
        throw error("a value");
      }
      char c = text.charAt(pos);
      return switch (c) {
        case '{' -> object();
        case '[' -> array();
        case '"' -> string();
        case 't' -> literal("true", Boolean.TRUE);
        case 'f' -> literal("false", Boolean.FALSE);
        case 'n' -> literal("null", null);
        default -> number();
      };
    }

    private Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      pos++;
      skipBlanks();
      if (peek() == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipBlanks();
        if (peek() != '"') {
          throw error("a quoted key");
        }
        String key = string();
        skipBlanks();
        expect(':');
        map.put(key, value());
        skipBlanks();
        if (peek() == ',') {
          pos++;
        } else {
          expect('}');
          return map;
        }
      }
    }

    private List<Object> array() {
      List<Object> list = new ArrayList<>();
      pos++;
      skipBlanks();
      if (peek() == ']') {
        pos++;
        return list;
      }
      while (true) {
        list.add(value());
        skipBlanks();
        if (peek() == ',') {
          pos++;
        } else {
          expect(']');
          return list;
        }
      }
    }

    private String string() {
      pos++;
      StringBuilder out = new StringBuilder();
      while (true) {
        if (pos >= text.length()) {
          throw error("a closing quote");
        }
        char c = text.charAt(pos++);
        if (c == '"') {
          return out.toString();
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = pos < text.length() ? text.charAt(pos++) : '?';
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> out.append(unicodeEscape());
          default -> {
            pos--;
            throw error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
          }
        }
      }
    }

    private char unicodeEscape() {
      if (pos + 4 > text.length()) {
        throw error("four hex digits");
      }
      try {
        char c = (char) Integer.parseInt(text.substring(pos, pos + 4), 16);
        pos += 4;
        return c;
      } catch (NumberFormatException e) {
        throw error("four hex digits");
      }
    }

    private Object number() {
      int begin = pos;
      while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
      String token = text.substring(begin, pos);
      try {
        if (token.matches("-?\\d{1,18}")) {
          return Long.parseLong(token);
        }
        if (!token.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")) {
          throw new NumberFormatException();
        }
        return Double.parseDouble(token);
      } catch (NumberFormatException e) {
        pos = begin;
        throw error("a value");
      }
    }

    private Object literal(String word, Object value) {
      if (!text.startsWith(word, pos)) {
        throw error("a value");
      }
      pos += word.length();
      return value;
    }

    private void expect(char c) {
      if (peek() != c) {
        throw error("'" + c + "'");
      }
      pos++;
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    void skipBlanks() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    IllegalArgumentException error(String expected) {
      String found = pos >= text.length() ? "end of input"
          : "'" + text.substring(pos, Math.min(text.length(), pos + 20)) + "'";
      return new IllegalArgumentException(
          "JSON offset " + pos + ": expected " + expected + ", found " + found);
    }
  }
}
