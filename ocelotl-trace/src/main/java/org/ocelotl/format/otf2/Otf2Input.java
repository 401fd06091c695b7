package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.trace.TraceFormatException;

/**
 * One OTF2 buffer file (anchor, definitions or events) read chunk by chunk through one reused
 * buffer. OTF2 writes a file as a sequence of chunks of the archive's chunk size (the last one
 * cut short); each chunk starts with a header (record 3, the endianness byte, the first and last
 * event numbers) and no record crosses a chunk boundary, so reading a whole chunk at once and
 * decoding it from memory is enough.
 *
 * <p>Integers are OTF2's "compressed" encoding: one byte {@code n} then the {@code n} low-order
 * bytes of the value in the writer's byte order; {@code 0x00} alone is 0 and {@code 0xFF} alone
 * is the UNDEFINED value (all ones). A read past the end of the chunk is a
 * {@link BufferUnderflowException}, turned into a {@link TraceFormatException} at the record.
 */
final class Otf2Input implements AutoCloseable {
  static final int CHUNK_HEADER = 3;
  static final int BIG_ENDIAN_MARK = 0x23;
  static final int LITTLE_ENDIAN_MARK = 0x42;
  /** Record kind (1) + endianness (1) + first event (8) + last event (8). */
  static final int CHUNK_HEADER_SIZE = 18;
  static final long UNDEFINED_32 = 0xFFFF_FFFFL;
  static final long UNDEFINED_64 = -1L;

  private final String file;
  private final Otf2Files.Source source;
  private final long fileSize;
  private final int chunkSize;
  private final ByteBuffer buffer;
  private final int headerSize;
  private long chunkOffset;

  private Otf2Input(String file, Otf2Files.Source source, int chunkSize, int headerSize)
      throws IOException {
    this.file = file;
    this.headerSize = headerSize;
    this.source = source;
    this.fileSize = source.size();
    this.chunkSize = chunkSize;
    // No chunk holds more than the file: a chunk size from a damaged anchor must not allocate GBs.
    this.buffer = ByteBuffer.allocate((int) Math.min(chunkSize, Math.max(fileSize, 1)));
  }

  /**
   * Opens the archive's file {@code relative}, loads its first chunk and reads the chunk header:
   * the full {@link #CHUNK_HEADER_SIZE} bytes, or only kind and endianness for the anchor file,
   * which has no event numbers ({@code anchor}).
   */
  static Otf2Input open(Otf2Files files, String relative, long chunkSize, boolean anchor) throws IOException {
    Otf2Input input = openIfPresent(files, relative, chunkSize, anchor);
    if (input == null) {
      throw new TraceFormatException(files.name(relative) + ": missing (the archive is incomplete)");
    }
    return input;
  }

  /** As {@link #open}, or null if the archive has no such file. */
  static Otf2Input openIfPresent(Otf2Files files, String relative, long chunkSize, boolean anchor)
      throws IOException {
    Otf2Files.Source source;
    try {
      source = files.open(relative);
    } catch (NoSuchFileException e) {
      return null;
    }
    return open(source, files.name(relative), chunkSize, anchor);
  }

  /** As {@link #open}, of a file already open ({@code file} names it in messages); closes it on failure. */
  static Otf2Input open(Otf2Files.Source source, String file, long chunkSize, boolean anchor) throws IOException {
    Otf2Input input;
    try {
      if (chunkSize < CHUNK_HEADER_SIZE + 2 || chunkSize > Integer.MAX_VALUE) {
        throw new TraceFormatException(file + ": chunk size " + chunkSize + " out of range");
      }
      input = new Otf2Input(file, source, (int) chunkSize, anchor ? 2 : CHUNK_HEADER_SIZE);
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
    try {
      input.loadChunk(0);
    } catch (IOException | RuntimeException e) {
      input.close();
      throw e;
    }
    return input;
  }

  /** Byte offset in the file of the next byte to read. */
  long offset() {
    return chunkOffset + buffer.position();
  }

  /** Moves to the next chunk; false at the end of the file. */
  boolean nextChunk() throws IOException {
    long next = chunkOffset + chunkSize;
    if (next >= fileSize) {
      return false;
    }
    loadChunk(next);
    return true;
  }

  private void loadChunk(long offset) throws IOException {
    chunkOffset = offset;
    buffer.clear();
    buffer.limit((int) Math.min(chunkSize, fileSize - offset));
    while (buffer.hasRemaining()) {
      int read = source.read(offset + buffer.position(), buffer.array(), buffer.position(), buffer.remaining());
      if (read < 0) {
        throw error("file shrank while being read");
      }
      buffer.position(buffer.position() + read);
    }
    buffer.flip();
    readChunkHeader();
  }

  private void readChunkHeader() throws TraceFormatException {
    if (buffer.remaining() < headerSize || (buffer.get(0) & 0xFF) != CHUNK_HEADER) {
      throw error("expected an OTF2 chunk header (byte 3), found "
          + (buffer.remaining() < headerSize ? buffer.remaining() + " bytes"
              : "byte " + (buffer.get(0) & 0xFF)));
    }
    int mark = buffer.get(1) & 0xFF;
    if (mark != BIG_ENDIAN_MARK && mark != LITTLE_ENDIAN_MARK) {
      throw error("expected an endianness mark (0x23 or 0x42) in the chunk header, found 0x"
          + Integer.toHexString(mark));
    }
    buffer.order(mark == BIG_ENDIAN_MARK ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    buffer.position(headerSize);
  }

  int u8() {
    return buffer.get() & 0xFF;
  }

  /** What {@link #nextDefinition} returns at the file's end-of-file record. */
  static final int END_OF_FILE = 2;

  /**
   * The kind of the next record of a definition file, past the ends of chunks (record kind 0);
   * {@link #END_OF_FILE} at its end record. {@code what} names the file's records in the error of
   * a file that ends without that record.
   */
  int nextDefinition(String what) throws IOException {
    while (true) {
      int kind;
      try {
        kind = u8();
      } catch (BufferUnderflowException e) {
        throw error(what + " end without an end-of-file record (truncated archive?)");
      }
      if (kind != 0) {
        return kind;
      }
      if (!nextChunk()) {
        throw error(what + " end without an end-of-file record (truncated archive?)");
      }
    }
  }

  long u64Full() {
    return buffer.getLong();
  }

  int u32Full() {
    return buffer.getInt();
  }

  /** A compressed uint32; UNDEFINED is {@link #UNDEFINED_32}. */
  long u32() throws TraceFormatException {
    long value = compressed(4);
    return value == UNDEFINED_64 ? UNDEFINED_32 : value;
  }

  /** A compressed uint64 (or int64: the same bytes); UNDEFINED is -1. */
  long u64() throws TraceFormatException {
    return compressed(8);
  }

  private long compressed(int maxBytes) throws TraceFormatException {
    int size = u8();
    if (size == 0xFF) {
      return UNDEFINED_64;
    }
    if (size > maxBytes) {
      throw error("invalid compressed integer: length byte " + size + " (at most " + maxBytes + ")",
          offset() - 1);
    }
    long value = 0;
    if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
      for (int i = 0; i < size; i++) {
        value |= (long) (buffer.get() & 0xFF) << (8 * i);
      }
    } else {
      for (int i = 0; i < size; i++) {
        value = (value << 8) | (buffer.get() & 0xFF);
      }
    }
    // A negative int64 is written with all 8 bytes, so no sign extension is ever needed.
    return value;
  }

  /** A NUL-terminated UTF-8 string. */
  String string() throws TraceFormatException {
    int start = buffer.position();
    int end = start;
    int limit = buffer.limit();
    while (end < limit && buffer.get(end) != 0) {
      end++;
    }
    if (end == limit) {
      throw error("unterminated string", chunkOffset + start);
    }
    String text = new String(buffer.array(), start, end - start, java.nio.charset.StandardCharsets.UTF_8);
    buffer.position(end + 1);
    return text;
  }

  /** Reads a record length (1 byte, or 0xFF then 8 bytes) and returns the record's end position. */
  int recordEnd() throws TraceFormatException {
    int length = u8();
    long full = length == 0xFF ? buffer.getLong() : length;
    long end = buffer.position() + full;
    if (full < 0 || end > buffer.limit()) {
      throw error("record length " + full + " runs past the end of its chunk", offset() - 1);
    }
    return (int) end;
  }

  void seek(int position) {
    buffer.position(position);
  }

  boolean hasRemaining() {
    return buffer.hasRemaining();
  }

  /** Bytes left in the loaded chunk: a bound on how many values a count read from it can announce. */
  int remaining() {
    return buffer.remaining();
  }

  TraceFormatException error(String what) {
    return error(what, offset());
  }

  TraceFormatException error(String what, long at) {
    return TraceFormatException.atOffset(file, at, what);
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
