package org.ocelotl.format.ctf;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ocelotl.format.ctf.CtfMetadata.Clock;
import org.ocelotl.format.ctf.CtfMetadata.EventClass;
import org.ocelotl.format.ctf.CtfMetadata.StreamClass;
import org.ocelotl.format.ctf.CtfType.ArrayType;
import org.ocelotl.format.ctf.CtfType.EnumType;
import org.ocelotl.format.ctf.CtfType.Field;
import org.ocelotl.format.ctf.CtfType.FloatType;
import org.ocelotl.format.ctf.CtfType.IntegerType;
import org.ocelotl.format.ctf.CtfType.Range;
import org.ocelotl.format.ctf.CtfType.SequenceType;
import org.ocelotl.format.ctf.CtfType.StringType;
import org.ocelotl.format.ctf.CtfType.StructType;
import org.ocelotl.format.ctf.CtfType.VariantType;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * A recursive-descent parser of CTF 1.8's Trace Stream Description Language (the metadata's
 * text): top-level {@code trace}, {@code env}, {@code clock}, {@code stream}, {@code event} (and
 * {@code callsite}, skipped) blocks, {@code typealias}/{@code typedef}, named struct, variant and
 * enum declarations; types {@code integer}, {@code floating_point}, {@code string}, {@code enum},
 * {@code struct}, {@code variant}, arrays and sequences. Type names may be several words
 * ({@code unsigned long}): the longest run of words that names a known alias is the type, the
 * word after it the field's name. Only what decoding needs is kept; other attributes (loglevel,
 * uuid, model.emf.uri, …) are parsed and dropped.
 */
final class Tsdl {
  private enum Kind { WORD, NUMBER, STRING, PUNCT, END }

  private record Token(Kind kind, String text, int line) {}

  /** The largest event id accepted: event classes are looked up in an array indexed by id. */
  private static final long MAX_EVENT_ID = 1 << 20;

  private final Path file;
  private final List<Token> tokens;
  private final long maxNesting;
  private int position;
  private int nesting;
  private final Map<String, CtfType> aliases = new HashMap<>();
  private final Map<CtfType, Integer> depths = new IdentityHashMap<>();
  private ByteOrder byteOrder = ByteOrder.nativeOrder();
  private StructType packetHeader;
  private final Map<String, Clock> clocks = new LinkedHashMap<>();
  private final Map<Long, Map<String, Object>> streams = new TreeMap<>();
  private final List<Map<String, Object>> events = new ArrayList<>();
  private final Map<String, String> env = new LinkedHashMap<>();

  private Tsdl(Path file, List<Token> tokens) {
    this.file = file;
    this.tokens = tokens;
    this.maxNesting = Limit.TYPE_NESTING.value();
  }

  static CtfMetadata parse(Path file, String text) throws TraceFormatException {
    Tsdl parser = new Tsdl(file, tokenize(file, text));
    parser.metadata();
    return parser.build();
  }

  // ---- lexer

  private static List<Token> tokenize(Path file, String text) throws TraceFormatException {
    List<Token> tokens = new ArrayList<>();
    int line = 1;
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        i++;
      } else if (Character.isWhitespace(c) || c == 0) {
        i++; // the metadata's padding is NUL bytes
      } else if (text.startsWith("/*", i)) {
        int close = text.indexOf("*/", i + 2);
        if (close < 0) {
          throw TraceFormatException.atLine(file, line, "comment not closed (*/ expected)", null);
        }
        line += count(text, i, close, '\n');
        i = close + 2;
      } else if (text.startsWith("//", i)) {
        while (i < n && text.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '"') {
        StringBuilder value = new StringBuilder();
        int j = i + 1;
        while (j < n && text.charAt(j) != '"') {
          char d = text.charAt(j);
          if (d == '\\' && j + 1 < n) {
            j++;
            d = switch (text.charAt(j)) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> text.charAt(j);
            };
          } else if (d == '\n') {
            throw TraceFormatException.atLine(file, line, "string not closed on its line (\" expected)", null);
          }
          value.append(d);
          j++;
        }
        if (j >= n) {
          throw TraceFormatException.atLine(file, line, "string not closed (\" expected)", null);
        }
        tokens.add(new Token(Kind.STRING, value.toString(), line));
        i = j + 1;
      } else if (Character.isLetter(c) || c == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
          j++;
        }
        tokens.add(new Token(Kind.WORD, text.substring(i, j), line));
        i = j;
      } else if (Character.isDigit(c)) {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(text.charAt(j)))) {
          j++;
        }
        tokens.add(new Token(Kind.NUMBER, text.substring(i, j), line));
        i = j;
      } else if (text.startsWith(":=", i) || text.startsWith("...", i)) {
        int length = text.charAt(i) == ':' ? 2 : 3;
        tokens.add(new Token(Kind.PUNCT, text.substring(i, i + length), line));
        i += length;
      } else if ("{}[]()<>;:=,.-+*".indexOf(c) >= 0) {
        tokens.add(new Token(Kind.PUNCT, String.valueOf(c), line));
        i++;
      } else {
        throw TraceFormatException.atLine(file, line, "unexpected character '" + c + "' in the metadata", null);
      }
    }
    tokens.add(new Token(Kind.END, "end of the metadata", line));
    return tokens;
  }

  private static int count(String text, int from, int to, char c) {
    int count = 0;
    for (int i = from; i < to; i++) {
      if (text.charAt(i) == c) {
        count++;
      }
    }
    return count;
  }

  // ---- token helpers

  private Token peek(int ahead) {
    return tokens.get(Math.min(position + ahead, tokens.size() - 1));
  }

  private boolean at(String text) {
    Token token = peek(0);
    return token.kind() != Kind.STRING && token.text().equals(text);
  }

  private boolean accept(String text) {
    if (at(text)) {
      position++;
      return true;
    }
    return false;
  }

  private void expect(String text) throws TraceFormatException {
    if (!accept(text)) {
      throw error("'" + text + "' expected");
    }
  }

  private String word() throws TraceFormatException {
    Token token = peek(0);
    if (token.kind() != Kind.WORD) {
      throw error("a name expected");
    }
    position++;
    return token.text();
  }

  private TraceFormatException error(String expected) {
    Token token = peek(0);
    String found = token.kind() == Kind.END ? token.text() : token.kind() == Kind.STRING ? "\"" + token.text() + "\""
        : "'" + token.text() + "'";
    return TraceFormatException.atLine(file, token.line(), "TSDL: " + expected + ", found " + found, null);
  }

  // ---- grammar

  private void metadata() throws TraceFormatException {
    while (peek(0).kind() != Kind.END) {
      if (accept(";")) {
        continue;
      }
      if (declaration()) {
        continue;
      }
      String block = peek(0).text();
      switch (block) {
        case "trace" -> trace(block());
        case "env" -> block().forEach((key, value) -> env.put(key, String.valueOf(value)));
        case "clock" -> clock(block());
        case "stream" -> stream(block());
        case "event" -> events.add(block());
        case "callsite" -> block();
        default -> throw error("a typealias, typedef, type or a trace/env/clock/stream/event block expected");
      }
    }
  }

  /** A typealias, typedef or named type declaration, at top level or inside a block. */
  private boolean declaration() throws TraceFormatException {
    if (accept("typealias")) {
      CtfType type = typeSpecifier();
      expect(":=");
      StringBuilder name = new StringBuilder(word());
      while (peek(0).kind() == Kind.WORD) {
        name.append(' ').append(word());
      }
      expect(";");
      aliases.put(name.toString(), type);
      return true;
    }
    if (accept("typedef")) {
      CtfType type = typeSpecifier();
      String name = word();
      aliases.put(name, dimensions(type));
      expect(";");
      return true;
    }
    if (at("struct") || at("variant") || at("enum")) {
      typeSpecifier();
      expect(";");
      return true;
    }
    return false;
  }

  /** {@code NAME { key = value; key.sub := type; … };} as keys to numbers, strings, paths or types. */
  private Map<String, Object> block() throws TraceFormatException {
    word();
    expect("{");
    Map<String, Object> entries = new LinkedHashMap<>();
    while (!accept("}")) {
      if (accept(";") || declaration()) {
        continue;
      }
      StringBuilder key = new StringBuilder(word());
      while (accept(".")) {
        key.append('.').append(word());
      }
      if (accept(":=")) {
        entries.put(key.toString(), typeSpecifier());
      } else {
        expect("=");
        entries.put(key.toString(), value());
      }
      expect(";");
    }
    expect(";");
    return entries;
  }

  /** A number (Long), a string, or a word path such as {@code clock.monotonic.value} (String). */
  private Object value() throws TraceFormatException {
    Token token = peek(0);
    if (token.kind() == Kind.STRING) {
      position++;
      return token.text();
    }
    if (at("-") || at("+") || token.kind() == Kind.NUMBER) {
      return number();
    }
    StringBuilder path = new StringBuilder(word());
    while (accept(".")) {
      path.append('.').append(word());
    }
    return path.toString();
  }

  /**
   * A C integer constant: decimal, 0x hexadecimal or 0 octal, with optional sign and u/l suffixes;
   * unsigned 64-bit values above 2⁶³ keep their bits.
   */
  private long number() throws TraceFormatException {
    boolean negative = accept("-");
    if (!negative) {
      accept("+");
    }
    Token token = peek(0);
    if (token.kind() != Kind.NUMBER) {
      throw error("a number expected");
    }
    position++;
    String digits = withoutSuffix(token.text());
    try {
      long value;
      if (digits.startsWith("0x") || digits.startsWith("0X")) {
        value = Long.parseUnsignedLong(digits.substring(2), 16);
      } else if (digits.length() > 1 && digits.startsWith("0")) {
        value = Long.parseUnsignedLong(digits.substring(1), 8);
      } else {
        value = Long.parseUnsignedLong(digits);
      }
      return negative ? -value : value;
    } catch (NumberFormatException e) {
      position--;
      throw error("an integer constant expected");
    }
  }

  /**
   * The constant without its u/l suffix letters. A loop, not a regular expression: compiling one
   * per number was a third of the metadata's parse, which the metadata fuzz target pays per input.
   */
  private static String withoutSuffix(String constant) {
    int end = constant.length();
    while (end > 0 && "uUlL".indexOf(constant.charAt(end - 1)) >= 0) {
      end--;
    }
    return constant.substring(0, end);
  }

  private CtfType typeSpecifier() throws TraceFormatException {
    if (++nesting > maxNesting) {
      throw error(Limit.TYPE_NESTING.exceeded(maxNesting) + "; a type");
    }
    try {
      return checkDepth(typeSpecifierInside());
    } finally {
      nesting--;
    }
  }

  /**
   * Aliases nest types without nesting the text ({@code typealias struct { A a; } := B;} and so
   * on): decoding recurses as deep as the type, so its depth is bounded too. Depths are kept per
   * type object, since a type shared by many fields would otherwise be walked again for each.
   */
  private CtfType checkDepth(CtfType type) throws TraceFormatException {
    if (depth(type) > maxNesting) {
      throw error(Limit.TYPE_NESTING.exceeded(maxNesting) + "; a type");
    }
    return type;
  }

  private int depth(CtfType type) {
    Integer known = depths.get(type);
    if (known != null) {
      return known;
    }
    int depth = 1;
    if (type instanceof StructType struct) {
      for (Field field : struct.fields()) {
        depth = Math.max(depth, 1 + depth(field.type()));
      }
    } else if (type instanceof VariantType variant) {
      for (Field option : variant.options()) {
        depth = Math.max(depth, 1 + depth(option.type()));
      }
    } else if (type instanceof ArrayType array) {
      depth = 1 + depth(array.element());
    } else if (type instanceof SequenceType sequence) {
      depth = 1 + depth(sequence.element());
    }
    depths.put(type, depth);
    return depth;
  }

  private CtfType typeSpecifierInside() throws TraceFormatException {
    if (accept("integer")) {
      return integer(attributes());
    }
    if (accept("floating_point")) {
      Map<String, Object> attributes = attributes();
      int size = (int) (longAttribute(attributes, "exp_dig", 8) + longAttribute(attributes, "mant_dig", 24));
      if (size != 32 && size != 64) {
        throw error("floating_point of 32 or 64 bits (exp_dig + mant_dig) expected");
      }
      return new FloatType(size, (int) longAttribute(attributes, "align", 8), order(attributes.get("byte_order")));
    }
    if (accept("string")) {
      if (at("{")) {
        attributes();
      }
      return new StringType();
    }
    if (accept("struct")) {
      return struct();
    }
    if (accept("variant")) {
      return variant();
    }
    if (accept("enum")) {
      return enumeration();
    }
    return alias();
  }

  /** The longest run of words that names an alias. */
  private CtfType alias() throws TraceFormatException {
    StringBuilder name = new StringBuilder();
    CtfType found = null;
    int foundEnd = -1;
    for (int i = 0; peek(i).kind() == Kind.WORD; i++) {
      if (i > 0) {
        name.append(' ');
      }
      name.append(peek(i).text());
      CtfType type = aliases.get(name.toString());
      if (type != null) {
        found = type;
        foundEnd = position + i + 1;
      }
    }
    if (found == null) {
      throw error("a type (integer, floating_point, string, enum, struct, variant or a declared alias)");
    }
    position = foundEnd;
    return found;
  }

  private Map<String, Object> attributes() throws TraceFormatException {
    expect("{");
    Map<String, Object> attributes = new HashMap<>();
    while (!accept("}")) {
      if (accept(";")) {
        continue;
      }
      String key = word();
      expect("=");
      attributes.put(key, value());
      expect(";");
    }
    return attributes;
  }

  private IntegerType integer(Map<String, Object> attributes) throws TraceFormatException {
    long size = longAttribute(attributes, "size", -1);
    if (size < 1 || size > 64) {
      throw error("integer size between 1 and 64 bits (found " + size + ") before this");
    }
    long align = longAttribute(attributes, "align", size % 8 == 0 ? 8 : 1);
    if (align < 1 || Long.bitCount(align) != 1) {
      throw error("integer align a power of 2 (found " + align + ") before this");
    }
    String map = attributes.get("map") instanceof String path ? path : null;
    String clock = map != null && map.startsWith("clock.") && map.endsWith(".value")
        ? map.substring("clock.".length(), map.length() - ".value".length()) : null;
    Object encoding = attributes.get("encoding");
    boolean text = encoding != null && !"none".equalsIgnoreCase(String.valueOf(encoding)) && size == 8;
    return new IntegerType((int) size, (int) align, bool(attributes.get("signed")),
        order(attributes.get("byte_order")), base(attributes.get("base")), clock, text);
  }

  private long longAttribute(Map<String, Object> attributes, String key, long fallback) throws TraceFormatException {
    Object value = attributes.getOrDefault(key, fallback);
    if (!(value instanceof Long number)) {
      throw error(key + " = a number (found " + value + ") before this");
    }
    return number;
  }

  private static boolean bool(Object value) {
    return value != null && (value.equals(1L) || "true".equalsIgnoreCase(value.toString()));
  }

  private static int base(Object value) {
    if (value instanceof Long number) {
      return number.intValue();
    }
    String name = String.valueOf(value);
    return switch (name) {
      case "x", "X", "p", "hexadecimal" -> 16;
      case "o", "octal" -> 8;
      case "b", "binary" -> 2;
      default -> 10;
    };
  }

  /** Null for the trace's native order, which may be declared later in the metadata. */
  private ByteOrder order(Object value) throws TraceFormatException {
    if (value == null) {
      return null;
    }
    return switch (String.valueOf(value)) {
      case "le", "little" -> ByteOrder.LITTLE_ENDIAN;
      case "be", "big", "network" -> ByteOrder.BIG_ENDIAN;
      case "native" -> null;
      default -> throw error("byte_order le, be, network or native (found " + value + ") before this");
    };
  }

  private StructType struct() throws TraceFormatException {
    String name = peek(0).kind() == Kind.WORD && !at("align") ? word() : null;
    if (!at("{")) {
      return (StructType) named("struct", name);
    }
    List<Field> fields = fields();
    int align = 1;
    if (accept("align")) {
      expect("(");
      long value = number();
      if (value < 1 || value > 1 << 16 || Long.bitCount(value) != 1) {
        throw error("struct align a power of 2 up to 65536 (found " + value + ") before this");
      }
      align = (int) value;
      expect(")");
    }
    StructType struct = StructType.of(fields, align);
    if (name != null) {
      aliases.put("struct " + name, struct);
    }
    return struct;
  }

  private CtfType named(String kind, String name) throws TraceFormatException {
    CtfType type = name == null ? null : aliases.get(kind + " " + name);
    if (type == null) {
      throw error(kind + (name == null ? " body" : " " + name + " declared before"));
    }
    return type;
  }

  private VariantType variant() throws TraceFormatException {
    String name = peek(0).kind() == Kind.WORD ? word() : null;
    String tag = null;
    if (accept("<")) {
      tag = lastOfPath();
      expect(">");
    }
    if (!at("{")) {
      VariantType declared = (VariantType) named("variant", name);
      return new VariantType(tag != null ? tag : declared.tag(), declared.options());
    }
    VariantType variant = new VariantType(tag, fields());
    if (name != null) {
      aliases.put("variant " + name, variant);
    }
    return variant;
  }

  /**
   * A path to a field ({@code stream.event.context.x}, or just {@code x}) known by its last part:
   * decoding looks the name up among the fields read most recently (see {@link CtfStream}).
   */
  private String lastOfPath() throws TraceFormatException {
    String last = word();
    while (accept(".")) {
      last = word();
    }
    return last;
  }

  private EnumType enumeration() throws TraceFormatException {
    String name = peek(0).kind() == Kind.WORD ? word() : null;
    IntegerType container;
    if (accept(":")) {
      CtfType type = typeSpecifier();
      if (!(type instanceof IntegerType integer)) {
        throw error("an integer type for the enumeration");
      }
      container = integer;
    } else if (at("{")) {
      container = aliases.get("int") instanceof IntegerType integer ? integer
          : new IntegerType(32, 8, true, null, 10, null, false);
    } else {
      return (EnumType) named("enum", name);
    }
    expect("{");
    List<Range> ranges = new ArrayList<>();
    long next = 0;
    while (!accept("}")) {
      Token label = peek(0);
      if (label.kind() != Kind.WORD && label.kind() != Kind.STRING) {
        throw error("an enumerator label");
      }
      position++;
      long low = next;
      long high = next;
      if (accept("=")) {
        low = number();
        high = accept("...") ? number() : low;
      }
      ranges.add(new Range(label.text(), low, high));
      next = high + 1;
      if (!accept(",")) {
        expect("}");
        break;
      }
    }
    EnumType type = new EnumType(container, List.copyOf(ranges));
    if (name != null) {
      aliases.put("enum " + name, type);
    }
    return type;
  }

  /** {@code { TYPE NAME[dims], NAME2; typealias …; … }}. */
  private List<Field> fields() throws TraceFormatException {
    expect("{");
    List<Field> fields = new ArrayList<>();
    while (!accept("}")) {
      if (accept(";") || (at("typealias") || at("typedef")) && declaration()) {
        continue;
      }
      CtfType type = typeSpecifier();
      do {
        String name = word();
        fields.add(new Field(name, dimensions(type)));
      } while (accept(","));
      expect(";");
    }
    return List.copyOf(fields);
  }

  /** Array and sequence dimensions after a declarator: {@code [4]} or {@code [length_field]}; {@code a[2][3]} is 2 × 3. */
  private CtfType dimensions(CtfType element) throws TraceFormatException {
    List<Object> lengths = new ArrayList<>();
    while (accept("[")) {
      if (peek(0).kind() == Kind.NUMBER) {
        long length = number();
        if (length < 0) {
          throw error("a non-negative array length");
        }
        lengths.add(length);
      } else {
        lengths.add(lastOfPath());
      }
      expect("]");
    }
    CtfType type = element;
    for (int i = lengths.size() - 1; i >= 0; i--) {
      type = lengths.get(i) instanceof Long length ? new ArrayType(type, length) : new SequenceType(type, (String) lengths.get(i));
    }
    return checkDepth(type);
  }

  // ---- blocks to the model

  private void trace(Map<String, Object> entries) throws TraceFormatException {
    Object order = entries.get("byte_order");
    if (order != null) {
      ByteOrder declared = order(order);
      byteOrder = declared == null ? ByteOrder.nativeOrder() : declared;
    }
    packetHeader = struct(entries, "packet.header", "trace");
  }

  private StructType struct(Map<String, Object> entries, String key, String block) throws TraceFormatException {
    Object type = entries.get(key);
    if (type != null && !(type instanceof StructType)) {
      throw error(block + " " + key + " a struct (before this)");
    }
    return (StructType) type;
  }

  private void clock(Map<String, Object> entries) throws TraceFormatException {
    Object name = entries.get("name");
    if (name == null) {
      throw error("clock with a name (before this)");
    }
    long freq = longAttribute(entries, "freq", 1_000_000_000L);
    if (freq <= 0) {
      throw error("clock freq > 0 (found " + freq + ") before this");
    }
    clocks.put(name.toString(), new Clock(name.toString(), freq, longAttribute(entries, "offset_s", 0),
        longAttribute(entries, "offset", 0)));
  }

  private void stream(Map<String, Object> entries) throws TraceFormatException {
    long id = longAttribute(entries, "id", 0);
    entries.put("packet.context", struct(entries, "packet.context", "stream"));
    entries.put("event.header", struct(entries, "event.header", "stream"));
    entries.put("event.context", struct(entries, "event.context", "stream"));
    if (streams.put(id, entries) != null) {
      throw error("stream id " + id + " declared once (before this)");
    }
  }

  private CtfMetadata build() throws TraceFormatException {
    Map<Long, List<EventClass>> eventsOfStream = new HashMap<>();
    for (Map<String, Object> event : events) {
      long streamId = longAttribute(event, "stream_id", 0);
      long id = longAttribute(event, "id", 0);
      if (id < 0 || id > MAX_EVENT_ID) {
        throw error("event ids between 0 and " + MAX_EVENT_ID + " (found " + id + ") in the metadata");
      }
      if (!streams.containsKey(streamId)) {
        if (!streams.isEmpty()) {
          throw error("event " + event.get("name") + " of stream " + streamId + ", a declared stream, in the metadata");
        }
        streams.put(streamId, new HashMap<>());
      }
      eventsOfStream.computeIfAbsent(streamId, k -> new ArrayList<>()).add(new EventClass(
          String.valueOf(event.getOrDefault("name", "event " + id)), id, struct(event, "context", "event"),
          struct(event, "fields", "event")));
    }
    Map<Long, StreamClass> classes = new TreeMap<>();
    for (Map.Entry<Long, Map<String, Object>> stream : streams.entrySet()) {
      List<EventClass> list = eventsOfStream.getOrDefault(stream.getKey(), List.of());
      int size = list.stream().mapToInt(e -> (int) e.id() + 1).max().orElse(0);
      EventClass[] byId = new EventClass[size];
      for (EventClass event : list) {
        byId[(int) event.id()] = event;
      }
      Map<String, Object> entries = stream.getValue();
      classes.put(stream.getKey(), new StreamClass(stream.getKey(), (StructType) entries.get("packet.context"),
          (StructType) entries.get("event.header"), (StructType) entries.get("event.context"), byId));
    }
    return new CtfMetadata(byteOrder, packetHeader, Map.copyOf(clocks), classes, env);
  }
}
