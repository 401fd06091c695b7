package org.ocelotl.format.ctf;

import java.nio.ByteOrder;
import java.util.List;

/**
 * A field type of CTF 1.8's TSDL, as the metadata declares it. Sizes and alignments are in bits.
 * A null byte order is the trace's native one ({@code trace { byte_order = … }}), which may be
 * declared after the types that use it.
 */
sealed interface CtfType {

  /** Alignment in bits of this type where it starts. */
  int align();

  /**
   * An integer; {@code clock} names the clock it sets (TSDL {@code map = clock.NAME.value}) or is
   * null; {@code text} marks 8-bit integers of a string encoding (arrays of them are strings).
   */
  record IntegerType(int size, int align, boolean signed, ByteOrder order, int base, String clock,
      boolean text) implements CtfType {}

  record FloatType(int size, int align, ByteOrder order) implements CtfType {}

  record StringType() implements CtfType {
    @Override
    public int align() {
      return 8;
    }
  }

  record EnumType(IntegerType container, List<Range> ranges) implements CtfType {
    @Override
    public int align() {
      return container.align();
    }

    /** The label of {@code value}, or null when no range holds it. */
    String label(long value) {
      for (Range range : ranges) {
        if (value >= range.low() && value <= range.high()) {
          return range.label();
        }
      }
      return null;
    }
  }

  record Range(String label, long low, long high) {}

  record Field(String name, CtfType type) {}

  /**
   * {@code align}: the struct's {@code align(N)} attribute or its fields' largest alignment,
   * whichever is larger ({@link #of}); kept, since every event aligns its header struct.
   */
  record StructType(List<Field> fields, int align) implements CtfType {
    static StructType of(List<Field> fields, int minAlign) {
      int align = minAlign;
      for (Field field : fields) {
        align = Math.max(align, field.type().align());
      }
      return new StructType(fields, align);
    }
  }

  /** Chosen by the enumeration label of the field named {@code tag}; aligned as the chosen option. */
  record VariantType(String tag, List<Field> options) implements CtfType {
    @Override
    public int align() {
      return 1;
    }

    CtfType option(String label) {
      for (int i = 0, n = options.size(); i < n; i++) { // no iterator: called per event (CtfStream.decode)
        Field option = options.get(i);
        if (option.name().equals(label)) {
          return option.type();
        }
      }
      return null;
    }
  }

  record ArrayType(CtfType element, long length) implements CtfType {
    @Override
    public int align() {
      return element.align();
    }
  }

  /** An array whose length is the value of the integer field named {@code lengthField}. */
  record SequenceType(CtfType element, String lengthField) implements CtfType {
    @Override
    public int align() {
      return element.align();
    }
  }
}
