package org.ocelotl.format.paje;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.ocelotl.trace.Limit;

/**
 * Splits a Pajé trace into lines and each line into fields, straight in one reused byte
 * buffer: fields are (start, end) offsets into {@link #buffer()}, valid until the next call
 * of {@link #next()}. Blanks (space, tab, CR) separate fields; a field starting with {@code "}
 * runs to the next {@code "} (quotes excluded); a field starting with {@code #} starts a
 * comment that runs to the end of the line. Lines without fields are skipped.
 */
final class LineScanner {
  /**
   * The buffer's first size: many lines at once; it grows for a longer line, up to
   * {@link Limit#LINE_BYTES}.
   */
  private static final int BUFFER_SIZE = 1 << 20;
  private static final int BINARY_PROBE = 8192;
  private static final VarHandle WORD =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long BELOW_BANG = 0x2121212121212121L;
  private static final long HIGH_BITS = 0x8080808080808080L;
  private static final long LOW_BITS = 0x7F7F7F7F7F7F7F7FL;
  /** Added to a byte's low seven bits, carries into its high bit exactly when they are at least '!'. */
  private static final long TO_BANG = 0x5F5F5F5F5F5F5F5FL;
  private static final long SPACES = 0x2020202020202020L;
  private static final long HIGH_BIT = 0x80L;
  /** {@link #tokenizePlain}'s answer for a line it leaves to {@link #tokenizeBytes}. */
  private static final int NOT_PLAIN = -2;

  private final InputStream in;
  private final Runnable refilled;
  private final long maxLine = Limit.LINE_BYTES.value();
  private byte[] buffer = new byte[BUFFER_SIZE];
  private int position;
  private int limit;
  private boolean endOfInput;
  private int[] fieldStart = new int[16];
  private int[] fieldEnd = new int[16];
  private int fieldCount;
  private int lineStart;
  private int lineEnd;
  private long lineNumber;
  private boolean unterminatedQuote;
  private boolean binary;
  /** The number of each line in the trace, or null when the input is the trace (lines counted from 1). */
  private final LongSupplier numbering;

  /** {@code refilled} runs after every read from {@code in} (for progress reports). */
  LineScanner(InputStream in, Runnable refilled) throws IOException {
    this(in, refilled, null);
  }

  /**
   * A scanner of lines picked out of a trace (the Spark import's partitions): {@code numbering}
   * gives, at each line of {@code in} in turn, its number in the trace, for error messages.
   */
  LineScanner(InputStream in, Runnable refilled, LongSupplier numbering) throws IOException {
    this.in = in;
    this.refilled = refilled;
    this.numbering = numbering;
    fill();
    binary = containsNul(buffer, 0, Math.min(limit, BINARY_PROBE));
  }

  /** Whether the start of the input holds NUL bytes, which no text trace has. */
  boolean looksBinary() {
    return binary;
  }

  /** Moves to the next line that has fields; false at the end of the input. */
  boolean next() throws IOException {
    do {
      if (!scanLine()) {
        return false;
      }
    } while (fieldCount == 0);
    return true;
  }

  byte[] buffer() {
    return buffer;
  }

  int fieldCount() {
    return fieldCount;
  }

  int start(int field) {
    return fieldStart[field];
  }

  int end(int field) {
    return fieldEnd[field];
  }

  String field(int field) {
    return new String(buffer, fieldStart[field], fieldEnd[field] - fieldStart[field],
        StandardCharsets.UTF_8);
  }

  boolean fieldEquals(int field, String ascii) {
    int length = fieldEnd[field] - fieldStart[field];
    if (length != ascii.length()) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (buffer[fieldStart[field] + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  long lineNumber() {
    return lineNumber;
  }

  /** A quoted field of this line has no closing quote. */
  boolean unterminatedQuote() {
    return unterminatedQuote;
  }

  /** The text of the current line, for error messages. */
  String lineText() {
    return new String(buffer, lineStart, lineLength(), StandardCharsets.UTF_8);
  }

  /** Where the current line starts in {@link #buffer()}. */
  int lineStart() {
    return lineStart;
  }

  /** The current line's length in bytes, without its line end ({@code \r\n} or {@code \n}). */
  int lineLength() {
    int end = lineEnd;
    while (end > lineStart && buffer[end - 1] == '\r') {
      end--;
    }
    return end - lineStart;
  }

  private boolean scanLine() throws IOException {
    while (true) {
      int next = tokenize(position, limit);
      if (next >= 0) {
        if (next - 1 - position > maxLine) {
          throw new LineTooLongException(lineNumber + 1, maxLine);
        }
        lineStart = position;
        position = next;
        lineNumber = numbering == null ? lineNumber + 1 : numbering.getAsLong();
        return true;
      }
      if (endOfInput) {
        if (position == limit) {
          return false;
        }
        terminateLastLine();
      } else {
        compactAndFill();
      }
    }
  }

  /** Splits the line starting at {@code from}; returns the offset after its newline, or -1. */
  private int tokenize(int from, int limit) {
    int next = tokenizePlain(from, limit);
    return next != NOT_PLAIN ? next : tokenizeBytes(from, limit);
  }

  /**
   * Splits a plain line — fields separated by spaces, the newline in the buffer, no other byte
   * below '!' before it (tab, CR, control bytes), no field starting with a quote or '#' — eight
   * bytes at a time, in one pass: a word's separators are flagged exactly (one high bit per
   * byte, see {@link #below} and {@link #equal}), and its fields' starts and ends are the flags'
   * edges. Returns the offset after the newline, or {@link #NOT_PLAIN} for any other line, which
   * {@link #tokenizeBytes} then splits from its start: the two give the same fields for a plain
   * line, the rules being the same (LineScannerTest compares them on seeded random text).
   */
  private int tokenizePlain(int from, int limit) {
    byte[] b = buffer;
    int starts = 0;
    int ends = 0;
    // The flag of the byte before the word, in byte 0's place: a field may start at the line's start.
    long before = HIGH_BIT;
    for (int i = from; i <= limit - Long.BYTES; i += Long.BYTES) {
      long word = (long) WORD.get(b, i);
      long spaces = equal(word, SPACES);
      long others = below(word) ^ spaces;
      long separators = spaces;
      long inLine = -1L;
      int newlineAt = -1;
      if (others != 0) {
        long newline = others & -others;
        newlineAt = i + (Long.numberOfTrailingZeros(newline) >>> 3);
        if (b[newlineAt] != '\n') {
          return NOT_PLAIN;
        }
        // The bits of the bytes up to the newline (newline << 1 is 0 when it is the last byte: all bits).
        inLine = (newline << 1) - 1;
        separators = (spaces & inLine) | newline;
      }
      long startBits = ~separators & ((separators << Byte.SIZE) | before) & HIGH_BITS & inLine;
      long endBits = separators & ~((separators << Byte.SIZE) | before);
      before = (separators >>> (Long.SIZE - Byte.SIZE)) & HIGH_BIT;
      for (; startBits != 0; startBits &= startBits - 1) {
        int start = i + (Long.numberOfTrailingZeros(startBits) >>> 3);
        if (b[start] == '"' || b[start] == '#') {
          return NOT_PLAIN;
        }
        if (starts == fieldStart.length) {
          growFields();
        }
        fieldStart[starts++] = start;
      }
      // No more ends than starts, so fieldEnd is long enough: a field ends after it started.
      for (; endBits != 0; endBits &= endBits - 1) {
        fieldEnd[ends++] = i + (Long.numberOfTrailingZeros(endBits) >>> 3);
      }
      if (newlineAt >= 0) {
        fieldCount = starts;
        lineEnd = newlineAt;
        unterminatedQuote = false;
        return newlineAt + 1;
      }
    }
    return NOT_PLAIN;
  }

  /**
   * Splits any line byte by byte (quotes, comments, tabs, CR, control bytes, the line running past
   * the buffer); returns the offset after its newline, or -1.
   */
  private int tokenizeBytes(int from, int limit) {
    byte[] b = buffer;
    int i = from;
    int count = 0;
    unterminatedQuote = false;
    while (i < limit) {
      byte c = b[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        i++;
      } else if (c == '\n') {
        fieldCount = count;
        lineEnd = i;
        return i + 1;
      } else if (c == '#') {
        while (i < limit && b[i] != '\n') {
          i++;
        }
      } else {
        int start;
        int end;
        if (c == '"') {
          start = ++i;
          while (i < limit && b[i] != '"' && b[i] != '\n') {
            i++;
          }
          if (i == limit) {
            return -1;
          }
          end = i;
          if (b[i] == '"') {
            i++;
          } else {
            unterminatedQuote = true;
          }
        } else {
          start = i;
          i = separatorAt(b, i, limit);
          end = i;
        }
        if (count == fieldStart.length) {
          growFields();
        }
        fieldStart[count] = start;
        fieldEnd[count] = end;
        count++;
      }
    }
    return -1;
  }

  /**
   * The offset of the first blank or newline in {@code b[i, limit)}, else {@code limit}; eight
   * bytes at a time, since fields (dates, names) are most of a trace's bytes. A byte below '!'
   * (every separator, and other control bytes) is flagged by {@code (x - 0x21) & ~x & 0x80}: in
   * the first such byte the subtraction wraps and sets the high bit, which ~x keeps since x &lt;
   * 0x80; a byte before it is ≥ 0x21, so it borrows nothing and is flagged neither when below
   * 0xA1 (x - 0x21 &lt; 0x80) nor above (~x clears the bit). Borrows only run towards later bytes,
   * so the lowest flagged byte is exactly the first byte below '!'. A control byte that is no
   * separator belongs to the field: the scan goes on after it.
   */
  private static int separatorAt(byte[] b, int i, int limit) {
    while (i <= limit - Long.BYTES) {
      long word = (long) WORD.get(b, i);
      long flagged = (word - BELOW_BANG) & ~word & HIGH_BITS;
      if (flagged == 0) {
        i += Long.BYTES;
      } else {
        i += Long.numberOfTrailingZeros(flagged) >>> 3;
        if (isSeparator(b[i])) {
          return i;
        }
        i++;
      }
    }
    while (i < limit && !isSeparator(b[i])) {
      i++;
    }
    return i;
  }

  /**
   * The high bit of each byte of {@code word} that is below '!', and no other bit. Exact for
   * every byte, unlike {@link #separatorAt}'s test: a byte's low seven bits plus 0x5F stay below
   * 0x100, so no byte carries into the next, and they reach the high bit exactly when they are at
   * least 0x21; OR-ing the byte itself drops bytes of 0x80 and above.
   */
  private static long below(long word) {
    return ~(((word & LOW_BITS) + TO_BANG) | word) & HIGH_BITS;
  }

  /**
   * The high bit of each byte of {@code word} equal to the byte repeated in {@code bytes}, exactly:
   * x = word ^ bytes is zero in those bytes; x's low seven bits plus 0x7F reach the high bit
   * unless they are all zero (and carry into no other byte), and OR-ing x catches its high bit.
   */
  private static long equal(long word, long bytes) {
    long x = word ^ bytes;
    return ~(((x & LOW_BITS) + LOW_BITS) | x) & HIGH_BITS;
  }

  private void growFields() {
    // By hand: field bounds of every line (Pajé import, hot; fastutil 3.4x slower, decision 032).
    fieldStart = Arrays.copyOf(fieldStart, fieldStart.length * 2);
    fieldEnd = Arrays.copyOf(fieldEnd, fieldEnd.length * 2);
  }

  private static boolean isSeparator(byte c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private void terminateLastLine() {
    if (limit == buffer.length) {
      buffer = Arrays.copyOf(buffer, buffer.length + 1);
    }
    buffer[limit++] = '\n';
  }

  private void compactAndFill() throws IOException {
    int pending = limit - position;
    if (pending > maxLine) {
      throw new LineTooLongException(lineNumber + 1, maxLine);
    }
    if (position == 0 && limit == buffer.length) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(Math.min(buffer.length * 2L, maxLine + 2), Integer.MAX_VALUE - 8));
    } else {
      System.arraycopy(buffer, position, buffer, 0, pending);
    }
    position = 0;
    limit = pending;
    fill();
  }

  private void fill() throws IOException {
    while (limit < buffer.length) {
      int read = in.read(buffer, limit, buffer.length - limit);
      if (read < 0) {
        endOfInput = true;
        break;
      }
      limit += read;
    }
    refilled.run();
  }

  private static boolean containsNul(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** A line did not end within {@link Limit#LINE_BYTES}. */
  static final class LineTooLongException extends IOException {
    private static final long serialVersionUID = 1L;
    final long line;

    LineTooLongException(long line, long limit) {
      super(Limit.LINE_BYTES.exceeded(limit));
      this.line = line;
    }
  }
}
