package org.ocelotl.format.ctf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.ocelotl.format.ctf.CtfType.StructType;
import org.ocelotl.trace.TraceFormatException;

/**
 * What a CTF trace's metadata declares: the trace's byte order and packet header, its clocks, its
 * stream classes with their event classes, and the environment (LTTng writes the tracer, the
 * trace name and the host there).
 */
record CtfMetadata(ByteOrder byteOrder, StructType packetHeader, Map<String, Clock> clocks,
    Map<Long, StreamClass> streams, Map<String, String> env) {

  /** Packetized metadata starts with this magic, in the trace's byte order. */
  static final int PACKET_MAGIC = 0x75D11D57;
  /** Magic (4), UUID (16), checksum (4), content and packet size in bits (4 + 4), five one-byte fields. */
  static final int PACKET_HEADER_BYTES = 37;
  private static final int CONTENT_SIZE_OFFSET = 24;
  private static final int PACKET_SIZE_OFFSET = 28;
  private static final int COMPRESSION_OFFSET = 32;

  /**
   * A clock: {@code freq} cycles per second, its origin {@code offsetSeconds} s plus
   * {@code offsetCycles} cycles after the Epoch.
   */
  record Clock(String name, long freq, long offsetSeconds, long offsetCycles) {
    /** Nanoseconds from the Epoch of a value of this clock. */
    long nanoseconds(long cycles) {
      return offsetSeconds * 1_000_000_000L + toNanoseconds(offsetCycles) + toNanoseconds(cycles);
    }

    /**
     * Split in whole seconds and the rest so that no product overflows for a clock value below
     * 2⁶³ / 10⁹ seconds; exact when the frequency is 1 GHz (LTTng's), rounded down otherwise.
     */
    private long toNanoseconds(long cycles) {
      if (freq == 1_000_000_000L) {
        return cycles;
      }
      return cycles / freq * 1_000_000_000L + cycles % freq * 1_000_000_000L / freq;
    }
  }

  /** A stream class; {@code events} indexed by event id (null where no event has the id). */
  record StreamClass(long id, StructType packetContext, StructType eventHeader, StructType eventContext,
      EventClass[] events) {
    EventClass event(long id) {
      return id >= 0 && id < events.length ? events[(int) id] : null;
    }
  }

  record EventClass(String name, long id, StructType context, StructType fields) {}

  /** Reads the metadata file, packetized (LTTng's) or plain text. */
  static CtfMetadata read(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(file + ": missing (a CTF trace's metadata file)");
    }
    return Tsdl.parse(file, text(file, bytes));
  }

  /** Whether the first bytes are packetized metadata, or TSDL text marked as CTF by its opening comment. */
  static boolean sniff(byte[] head) {
    if (head.length >= 4) {
      int little = ByteBuffer.wrap(head, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if (little == PACKET_MAGIC || Integer.reverseBytes(little) == PACKET_MAGIC) {
        return true;
      }
    }
    String text = new String(head, 0, Math.min(head.length, 16), StandardCharsets.US_ASCII);
    return text.startsWith("/* CTF 1.8");
  }

  /**
   * The TSDL text: packetized metadata is a sequence of packets, each a 37-byte header then text
   * up to its content size, the rest of its packet size padding.
   */
  static String text(Path file, byte[] bytes) throws TraceFormatException {
    if (bytes.length < 4) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (buffer.getInt(0) != PACKET_MAGIC) {
      buffer.order(ByteOrder.BIG_ENDIAN);
      if (buffer.getInt(0) != PACKET_MAGIC) {
        return new String(bytes, StandardCharsets.UTF_8);
      }
    }
    StringBuilder text = new StringBuilder();
    int offset = 0;
    while (offset < bytes.length) {
      if (bytes.length - offset < PACKET_HEADER_BYTES) {
        throw TraceFormatException.atOffset(file, offset, "metadata packet header of " + PACKET_HEADER_BYTES
            + " bytes expected, only " + (bytes.length - offset) + " remain");
      }
      if (buffer.getInt(offset) != PACKET_MAGIC) {
        throw TraceFormatException.atOffset(file, offset, String.format(
            "metadata packet magic 0x%08X expected, found 0x%08X", PACKET_MAGIC, buffer.getInt(offset)));
      }
      long contentBits = Integer.toUnsignedLong(buffer.getInt(offset + CONTENT_SIZE_OFFSET));
      long packetBits = Integer.toUnsignedLong(buffer.getInt(offset + PACKET_SIZE_OFFSET));
      if (buffer.get(offset + COMPRESSION_OFFSET) != 0) {
        throw TraceFormatException.atOffset(file, offset, "compressed metadata packets are not supported");
      }
      long contentBytes = contentBits / 8;
      long packetBytes = packetBits / 8;
      if (contentBytes < PACKET_HEADER_BYTES || packetBytes < contentBytes) {
        throw TraceFormatException.atOffset(file, offset, "metadata packet content size " + contentBits
            + " bits and packet size " + packetBits + " bits: the content must hold the header and fit the packet");
      }
      if (packetBytes > bytes.length - offset) {
        throw TraceFormatException.atOffset(file, offset, "metadata packet of " + packetBytes
            + " bytes announced, only " + (bytes.length - offset) + " remain (the file is cut)");
      }
      text.append(new String(bytes, offset + PACKET_HEADER_BYTES, (int) contentBytes - PACKET_HEADER_BYTES,
          StandardCharsets.UTF_8));
      offset += (int) packetBytes;
    }
    return text.toString();
  }
}
