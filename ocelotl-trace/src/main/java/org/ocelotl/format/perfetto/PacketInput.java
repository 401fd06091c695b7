package org.ocelotl.format.perfetto;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.LongConsumer;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * The packets of a Perfetto trace file, one at a time, through one reused buffer: a trace is a
 * protobuf {@code Trace} message, i.e. fields one after the other, each packet a field 1 of wire
 * type 2 (a varint length, then the packet's bytes). Other top-level fields are skipped by their
 * wire type. Every length is checked against the bytes left in the file before anything is
 * buffered, so a cut or corrupt file is refused at the byte where it goes wrong.
 */
final class PacketInput implements Closeable {
  /** Tag of a packet: field 1, wire type 2 (length-delimited). */
  static final int PACKET_TAG = 1 << 3 | 2;
  private static final int MAX_VARINT_BYTES = 10;
  private final Path file;
  private final FileChannel channel;
  private final long size;
  private final long maxPacket = Limit.PACKET_BYTES.value();
  /** What the file's compressed packets may inflate to, all together, in one reading of it. */
  private final long inflationAllowed;
  private long inflatedSoFar;
  private final LongConsumer progress;
  private byte[] buffer = new byte[1 << 20];
  /** The file offset of buffer[0]; the bytes [0, filled) of the buffer are the file's from there. */
  private long base;
  private int filled;
  private int position;
  private int packetStart;
  private int packetLength;
  private long packetOffset;

  PacketInput(Path file, LongConsumer progress) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.size = channel.size();
    this.progress = progress;
    this.inflationAllowed = Math.max(MIN_INFLATION, Limit.INFLATION_RATIO.value() * size);
  }

  /** The whole file's allowance of inflated bytes is never below this (small traces, a few packets). */
  static final long MIN_INFLATION = 64L << 20;

  long inflationAllowed() {
    return inflationAllowed;
  }

  /** What the compressed packets read so far leave of the file's allowance. */
  long inflationLeft() {
    return inflationAllowed - inflatedSoFar;
  }

  void inflated(long bytes) {
    inflatedSoFar += bytes;
  }

  long size() {
    return size;
  }

  /**
   * Whether the first bytes of a file look like a Perfetto trace: a packet tag, a length, then
   * valid protobuf fields (number at least 1, wire type 0, 1, 2 or 5) up to the packet's end, or
   * up to the end of {@code head} when the packet is longer. Text rarely passes: its second byte
   * would have to announce the length, and every following byte begin a field of a valid type.
   */
  static boolean sniff(byte[] head) {
    if (head.length < 3 || head[0] != PACKET_TAG) {
      return false;
    }
    long[] cursor = {1};
    long length = varint(head, cursor);
    if (length <= 0) {
      return false;
    }
    long end = cursor[0] + length;
    int fields = 0;
    while (cursor[0] < Math.min(end, head.length)) {
      long tag = varint(head, cursor);
      int wireType = (int) (tag & 7);
      if (tag >>> 3 == 0 || tag >>> 3 > 536_870_911L || wireType == 3 || wireType == 4 || wireType > 5) {
        return false;
      }
      fields++;
      if (wireType == 0) {
        varint(head, cursor);
      } else if (wireType == 2) {
        long fieldLength = varint(head, cursor);
        cursor[0] = fieldLength < 0 ? Long.MAX_VALUE : cursor[0] + fieldLength;
      } else {
        cursor[0] += wireType == 1 ? 8 : 4;
      }
      if (cursor[0] < 0) {
        return false;
      }
    }
    return fields > 0 && (cursor[0] == end || end > head.length && cursor[0] >= head.length);
  }

  /** A varint at {@code cursor[0]} of {@code bytes}, the cursor moved past it; -1 when cut or too long. */
  private static long varint(byte[] bytes, long[] cursor) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (cursor[0] >= bytes.length) {
        cursor[0] = Long.MAX_VALUE;
        return -1;
      }
      byte b = bytes[(int) cursor[0]++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    cursor[0] = Long.MAX_VALUE;
    return -1;
  }

  /**
   * Moves to the next packet; false at the end of the file.
   *
   * @throws TraceFormatException for a length beyond the end of the file or the limit, a varint
   *     cut or longer than 10 bytes, a group or an invalid wire type at the top level
   */
  boolean next() throws IOException {
    while (true) {
      long offset = base + position;
      if (offset == size) {
        return false;
      }
      long tag = readVarint("a field tag");
      int wireType = (int) (tag & 7);
      if (tag == PACKET_TAG) {
        long length = readLength(offset);
        if (length > maxPacket) {
          throw TraceFormatException.atOffset(file, offset, "packet of " + length + " bytes: " + Limit.PACKET_BYTES.exceeded(maxPacket));
        }
        ensure((int) length);
        packetOffset = offset;
        packetStart = position;
        packetLength = (int) length;
        position += packetLength;
        return true;
      }
      if (tag >>> 3 == 0) {
        throw TraceFormatException.atOffset(file, offset, "field number 0 (tag " + tag + "): not a Perfetto trace, or a corrupt one");
      }
      switch (wireType) {
        case 0 -> readVarint("a varint");
        case 1 -> skip(offset, 8);
        case 5 -> skip(offset, 4);
        case 2 -> skip(offset, readLength(offset));
        default -> throw TraceFormatException.atOffset(file, offset, "wire type " + wireType + " of field " + (tag >>> 3)
            + " where a packet (field 1, wire type 2) or a skippable field was expected: not a Perfetto trace, or a corrupt one");
      }
    }
  }

  /** The bytes of the current packet: {@link #packetLength()} bytes of {@link #buffer()} from {@link #packetStart()}. */
  byte[] buffer() {
    return buffer;
  }

  int packetStart() {
    return packetStart;
  }

  int packetLength() {
    return packetLength;
  }

  /** Where the current packet's tag is in the file. */
  long packetOffset() {
    return packetOffset;
  }

  Path file() {
    return file;
  }

  private long readLength(long fieldOffset) throws IOException {
    long length = readVarint("a length");
    long remaining = size - (base + position);
    if (length < 0 || length > remaining) {
      throw TraceFormatException.atOffset(file, fieldOffset, "field of " + Long.toUnsignedString(length)
          + " bytes announced, only " + remaining + " remain in the file (the trace is cut, or corrupt)");
    }
    return length;
  }

  private void skip(long fieldOffset, long bytes) throws IOException {
    long remaining = size - (base + position);
    if (bytes > remaining) {
      throw TraceFormatException.atOffset(file, fieldOffset, bytes + " bytes expected, only " + remaining + " remain in the file");
    }
    if (bytes <= filled - position) {
      position += (int) bytes;
    } else {
      base += position + bytes;
      position = 0;
      filled = 0;
      channel.position(base);
    }
  }

  private long readVarint(String what) throws IOException {
    long offset = base + position;
    ensure((int) Math.min(MAX_VARINT_BYTES, size - offset));
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position == filled) {
        throw TraceFormatException.atOffset(file, offset, what + " cut by the end of the file");
      }
      byte b = buffer[position++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw TraceFormatException.atOffset(file, offset, what + " longer than 10 bytes (a corrupt varint)");
  }

  /** Makes the next {@code bytes} bytes of the file (all there, checked by the caller) readable from the buffer. */
  private void ensure(int bytes) throws IOException {
    if (filled - position >= bytes) {
      return;
    }
    System.arraycopy(buffer, position, buffer, 0, filled - position);
    base += position;
    filled -= position;
    position = 0;
    if (bytes > buffer.length) {
      buffer = Arrays.copyOf(buffer, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(bytes, 2L * buffer.length)));
    }
    ByteBuffer into = ByteBuffer.wrap(buffer);
    into.position(filled);
    while (filled < bytes) {
      int read = channel.read(into);
      if (read < 0) {
        throw TraceFormatException.atOffset(file, base + filled, "the file ended while being read (was it cut meanwhile?)");
      }
      filled += read;
    }
    progress.accept(base + filled);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
