package org.ocelotl.format.ctf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.format.ctf.CtfMetadata.Clock;
import org.ocelotl.format.ctf.CtfType.ArrayType;
import org.ocelotl.format.ctf.CtfType.EnumType;
import org.ocelotl.format.ctf.CtfType.Field;
import org.ocelotl.format.ctf.CtfType.IntegerType;
import org.ocelotl.format.ctf.CtfType.Range;
import org.ocelotl.format.ctf.CtfType.SequenceType;
import org.ocelotl.format.ctf.CtfType.StringType;
import org.ocelotl.format.ctf.CtfType.StructType;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/** The TSDL grammar on small metadata texts: what each construct parses to, and the errors' lines. */
class TsdlTest {
  private static final Path FILE = Path.of("metadata");

  private static CtfMetadata parse(String text) throws TraceFormatException {
    return Tsdl.parse(FILE, text);
  }

  @Test
  void parsesTypedefsNamedEnumsArraysAndSequences() throws TraceFormatException {
    CtfMetadata metadata = parse("""
        typealias integer { size = 32; align = 8; signed = true; byte_order = network; base = x; } := int;
        typedef integer { size = 8; } byte_t;
        enum state : int { IDLE, "RUNNING HARD" = 5, WAIT = -2 ... -1, DONE, };
        trace { byte_order = le; };
        clock { name = c; freq = 0x3e8; offset_s = -010; };
        event {
          name = "e"; // a comment
          fields := struct {
            enum state s;
            byte_t grid[2][3], n;
            string { encoding = UTF8; } label;
            int values[stream.event.fields.n];
          };
        };
        """);
    IntegerType integer = new IntegerType(32, 8, true, ByteOrder.BIG_ENDIAN, 16, null, false);
    IntegerType bytes = new IntegerType(8, 8, false, null, 10, null, false);
    EnumType state = new EnumType(integer, List.of(new Range("IDLE", 0, 0), new Range("RUNNING HARD", 5, 5),
        new Range("WAIT", -2, -1), new Range("DONE", 0, 0)));
    assertEquals(new StructType(List.of(new Field("s", state),
        new Field("grid", new ArrayType(new ArrayType(bytes, 3), 2)), new Field("n", bytes),
        new Field("label", new StringType()), new Field("values", new SequenceType(integer, "n"))), 8),
        metadata.streams().get(0L).event(0).fields());
    assertEquals(ByteOrder.LITTLE_ENDIAN, metadata.byteOrder());
    assertEquals(new Clock("c", 1000, -8, 0), metadata.clocks().get("c"));
  }

  @Test
  void takesTheLongestAliasOfSeveralWords() throws TraceFormatException {
    CtfMetadata metadata = parse("""
        typealias integer { size = 16; } := unsigned;
        typealias integer { size = 64; } := unsigned long;
        event { fields := struct { unsigned long a; unsigned b; }; };
        """);
    assertEquals(List.of(64, 16), metadata.streams().get(0L).event(0).fields().fields().stream()
        .map(f -> ((IntegerType) f.type()).size()).toList());
  }

  @Test
  void namesTheLineAndWhatWasExpected() {
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> parse("""
        trace {
          major = 1;
          packet.header := struct { uint32_t magic; };
        };
        """));
    assertEquals("metadata:3: TSDL: a type (integer, floating_point, string, enum, struct, variant or a declared alias)"
        + ", found 'uint32_t'", e.getMessage());
    e = assertThrows(TraceFormatException.class, () -> parse("/* CTF 1.8 */\n\ntypealias integer { size = 65; } := x;"));
    assertEquals("metadata:3: TSDL: integer size between 1 and 64 bits (found 65) before this, found ':='", e.getMessage());
  }

  @Test
  void refusesTypesNestedBeyondTheLimit() {
    String deep = "event { fields := " + "struct { ".repeat(101) + "}".repeat(101) + "; };";
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> parse(deep));
    assertEquals("metadata:1: TSDL: " + Limit.TYPE_NESTING.exceeded(100) + "; a type, found 'struct'", e.getMessage());
  }

  @Test
  void refusesTypesNestedBeyondTheLimitThroughAliases() {
    StringBuilder text = new StringBuilder("typealias integer { size = 8; } := t0;\n");
    for (int i = 1; i <= 100; i++) {
      text.append("typealias struct { t").append(i - 1).append(" a; } := t").append(i).append(";\n");
    }
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> parse(text.toString()));
    // t99 is 100 levels deep, t100 (line 101) one more
    assertEquals("metadata:101: TSDL: " + Limit.TYPE_NESTING.exceeded(100) + "; a type, found ':='", e.getMessage());
  }
}
