package org.ocelotl.format.ctf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.format.ctf.CtfMetadata.Clock;
import org.ocelotl.format.ctf.CtfMetadata.EventClass;
import org.ocelotl.format.ctf.CtfMetadata.StreamClass;
import org.ocelotl.format.ctf.CtfType.ArrayType;
import org.ocelotl.format.ctf.CtfType.EnumType;
import org.ocelotl.format.ctf.CtfType.Field;
import org.ocelotl.format.ctf.CtfType.FloatType;
import org.ocelotl.format.ctf.CtfType.IntegerType;
import org.ocelotl.format.ctf.CtfType.SequenceType;
import org.ocelotl.format.ctf.CtfType.StringType;
import org.ocelotl.format.ctf.CtfType.StructType;
import org.ocelotl.format.ctf.CtfType.VariantType;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * One stream file of a CTF trace, decoded event by event: a packet at a time is read whole into
 * one reused array (grown to the largest packet), its header and context decoded, then its events
 * up to the context's content size.
 *
 * <p>Decoding walks the metadata's types. Integer and enumeration values, and the byte offset and
 * length of strings and byte arrays, are kept in a scope of parallel arrays, newest last, emptied
 * at each event (the packet's own fields stay below): variant tags and sequence lengths are the
 * value of the latest field of that name, which is the sibling field for every layout LTTng
 * writes (TSDL's dynamic scopes name fields by path; only the last part is compared). Integers
 * mapped to a clock update it as CTF says: a field of n bits replaces the clock's n low bits, and
 * a value below the previous low bits means they wrapped once (the 27-bit timestamps of compact
 * event headers wrap every 134 ms).
 *
 * <p>Every read is checked against the packet's content end, and a packet against the bytes left
 * in the file: a cut or damaged file ends in a {@link TraceFormatException} at its byte offset.
 */
final class CtfStream {
  private static final long PACKET_MAGIC = 0xC1FC1FC1L;
  /**
   * The packet context's time of its last event: mapped to the clock, but read before the events,
   * so it must not move the clock they are relative to (babeltrace2 keeps it apart too).
   */
  private static final String END_TIME = "timestamp_end";
  /** Enough for every packet header and context LTTng writes, read before the packet's size is known. */
  private static final int FIRST_READ = 4096;

  private final Path file;
  private final int order;
  private final FileChannel channel;
  private final long fileSize;
  private final CtfMetadata metadata;
  private final ByteOrder nativeOrder;
  private final long maxPacketBytes;
  private byte[] packet = new byte[FIRST_READ];
  /** {@link #packet} seen in each byte order, wrapped again when it grows. */
  private ByteBuffer little = ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer big = ByteBuffer.wrap(packet).order(ByteOrder.BIG_ENDIAN);
  private long packetOffset;
  private long nextPacketOffset;
  private boolean inPacket;
  private long bit;
  private long limitBits;
  /** What {@link #limitBits} is, for messages. */
  private String limitName;
  private StreamClass streamClass;
  private Clock clock;
  private long clockCycles;

  private String[] names = new String[32];
  private long[] values = new long[32];
  private String[] labels = new String[32];
  private int[] lengths = new int[32];
  private int count;
  private int packetScope;

  private EventClass event;
  /** The byte offset in the file of the event just decoded. */
  private long eventOffset;
  private long timestamp;
  private long cpu = -1;
  private long discarded;

  private CtfStream(Path file, FileChannel channel, CtfMetadata metadata, int order) throws IOException {
    this.file = file;
    this.order = order;
    this.channel = channel;
    this.fileSize = channel.size();
    this.metadata = metadata;
    this.nativeOrder = metadata.byteOrder();
    this.maxPacketBytes = Limit.PACKET_BYTES.value();
    this.clock = metadata.clocks().values().stream().findFirst().orElse(new Clock("cycles", 1_000_000_000L, 0, 0));
  }

  /** {@code order}: the file's rank among the trace's stream files, which breaks ties in time. */
  static CtfStream open(Path file, CtfMetadata metadata, int order) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new TraceFormatException(file + ": missing (a stream file of the trace)");
    }
    return new CtfStream(file, channel, metadata, order);
  }

  int order() {
    return order;
  }

  Path file() {
    return file;
  }

  /** The event just decoded. */
  EventClass event() {
    return event;
  }

  /** Where the event just decoded starts in the file, in bytes. */
  long eventOffset() {
    return eventOffset;
  }

  /** Nanoseconds from the Epoch (the clock's offset included) of the event just decoded. */
  long timestamp() {
    return timestamp;
  }

  /** Nanoseconds from the Epoch of the clock's origin: what {@link #timestamp} adds to the clock's value. */
  long origin() {
    return clock.nanoseconds(0);
  }

  /** The packet context's {@code cpu_id}, or -1. */
  long cpu() {
    return cpu;
  }

  /**
   * Events the tracer lost on this stream so far: LTTng's packet contexts count them from the
   * start of the stream ({@code events_discarded}), so the largest value seen is the total.
   */
  long discarded() {
    return discarded;
  }

  /** Bytes of the file read so far. */
  long position() {
    return packetOffset;
  }

  /** The value of the latest integer or enumeration field called {@code name}, or {@code fallback}. */
  long value(String name, long fallback) {
    int at = lookup(name);
    return at < 0 ? fallback : values[at];
  }

  /** The latest string or byte-array field called {@code name} as text (up to its first NUL), or null. */
  String text(String name) {
    int at = lookup(name);
    if (at < 0 || lengths[at] < 0) {
      return null;
    }
    int start = (int) values[at];
    int end = start;
    while (end < start + lengths[at] && packet[end] != 0) {
      end++;
    }
    return new String(packet, start, end - start, StandardCharsets.UTF_8);
  }

  /** Decodes the next event; false at the end of the file. */
  boolean next() throws IOException {
    while (true) {
      if (inPacket) {
        StructType header = streamClass.eventHeader();
        align(header == null ? 8 : header.align());
        if (bit < limitBits) {
          decodeEvent();
          return true;
        }
      }
      if (!nextPacket()) {
        return false;
      }
    }
  }

  void close() throws IOException {
    channel.close();
  }

  private void decodeEvent() throws TraceFormatException {
    count = packetScope;
    long start = bit;
    eventOffset = packetOffset + start / 8;
    StructType header = streamClass.eventHeader();
    long id = 0;
    if (header != null) {
      decode(header, null);
      id = value("id", 0);
    }
    event = streamClass.event(id);
    if (event == null) {
      throw at(start, "event id " + id + " is not declared for stream " + streamClass.id() + " in the metadata");
    }
    if (streamClass.eventContext() != null) {
      decode(streamClass.eventContext(), null);
    }
    if (event.context() != null) {
      decode(event.context(), null);
    }
    if (event.fields() != null) {
      decode(event.fields(), null);
    }
    if (bit == start) {
      // Found by fuzzing: the next event would start where this one did and decode the same way,
      // so the packet would never end.
      throw at(start, "event " + event.name() + " (id " + id + ") reads no bits: the metadata gives it no header, "
          + "context or fields of any size; expected every event to take at least one bit");
    }
    timestamp = clock.nanoseconds(clockCycles);
  }

  private boolean nextPacket() throws IOException {
    inPacket = false;
    packetOffset = nextPacketOffset;
    long remaining = fileSize - packetOffset;
    if (remaining <= 0) {
      return false;
    }
    int loaded = load(0, (int) Math.min(remaining, Math.max(packet.length, FIRST_READ)));
    bit = 0;
    limitBits = loaded * 8L;
    limitName = loaded == remaining ? "the end of the file" : "the first " + loaded + " bytes of the packet";
    count = 0;
    if (metadata.packetHeader() != null) {
      decode(metadata.packetHeader(), null);
      long magic = value("magic", PACKET_MAGIC);
      if (magic != PACKET_MAGIC) {
        throw at(0, String.format("packet magic 0x%08X expected, found 0x%08X", PACKET_MAGIC, magic));
      }
    }
    streamClass = streamClass(value("stream_id", -1));
    if (streamClass.packetContext() != null) {
      decode(streamClass.packetContext(), null);
    }
    long packetBits = value("packet_size", remaining * 8);
    long contentBits = value("content_size", packetBits);
    if (packetBits <= 0 || packetBits % 8 != 0 || contentBits < bit || contentBits > packetBits) {
      throw at(0, "packet size " + packetBits + " bits and content size " + contentBits
          + " bits: a whole number of bytes expected, the content within the packet and holding its header ("
          + bit + " bits)");
    }
    long packetBytes = packetBits / 8;
    if (packetBytes > remaining) {
      throw at(0, "packet of " + packetBytes + " bytes announced, only " + remaining
          + " remain in the file (the stream file is cut)");
    }
    if (packetBytes > maxPacketBytes) {
      throw at(0, Limit.PACKET_BYTES.exceeded(maxPacketBytes));
    }
    if (packetBytes > loaded) {
      if (packetBytes > packet.length) {
        packet = Arrays.copyOf(packet, (int) packetBytes);
        little = ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN);
        big = ByteBuffer.wrap(packet).order(ByteOrder.BIG_ENDIAN);
      }
      load(loaded, (int) packetBytes - loaded);
    }
    limitBits = contentBits;
    limitName = "the packet's content end";
    cpu = value("cpu_id", -1);
    discarded = Math.max(discarded, value("events_discarded", 0));
    packetScope = count;
    nextPacketOffset = packetOffset + packetBytes;
    inPacket = true;
    return true;
  }

  /** Reads {@code length} bytes of the current packet, from {@code from} on, into the array. */
  private int load(int from, int length) throws IOException {
    ByteBuffer target = ByteBuffer.wrap(packet, from, length);
    while (target.hasRemaining()) {
      if (channel.read(target, packetOffset + target.position()) < 0) {
        throw at(target.position() * 8L, "the file ended while a packet was read");
      }
    }
    return from + length;
  }

  private StreamClass streamClass(long id) throws TraceFormatException {
    if (id < 0) {
      if (metadata.streams().size() != 1) {
        throw at(0, "a packet header with a stream_id expected: the metadata declares "
            + metadata.streams().size() + " streams");
      }
      return metadata.streams().values().iterator().next();
    }
    StreamClass found = metadata.streams().get(id);
    if (found == null) {
      throw at(0, "stream id " + id + " is not declared in the metadata");
    }
    return found;
  }

  // ---- decoding by type

  private void decode(CtfType type, String name) throws TraceFormatException {
    if (type instanceof IntegerType integer) {
      remember(name, integer(integer, !END_TIME.equals(name)), null, -1);
    } else if (type instanceof EnumType enumeration) {
      long value = integer(enumeration.container(), true);
      remember(name, value, enumeration.label(value), -1);
    } else if (type instanceof StructType struct) {
      align(struct.align());
      // Indexed, not for-each: an iterator per struct per event was almost all the import's garbage
      // (455 MB for 2.4 M records), which made G1 grow the heap to 440 MB of RSS.
      List<Field> fields = struct.fields();
      for (int i = 0, n = fields.size(); i < n; i++) {
        Field field = fields.get(i);
        decode(field.type(), field.name());
      }
    } else if (type instanceof VariantType variant) {
      decode(option(variant), name);
    } else if (type instanceof StringType) {
      string(name);
    } else if (type instanceof ArrayType array) {
      array(array.element(), array.length(), name);
    } else if (type instanceof SequenceType sequence) {
      int at = lookup(sequence.lengthField());
      if (at < 0) {
        throw at(bit, "sequence " + name + ": its length field " + sequence.lengthField() + " was not read before");
      }
      array(sequence.element(), values[at], name);
    } else {
      FloatType real = (FloatType) type;
      align(real.align());
      skip(real.size());
    }
  }

  private CtfType option(VariantType variant) throws TraceFormatException {
    int at = variant.tag() == null ? -1 : lookup(variant.tag());
    if (at < 0) {
      throw at(bit, "variant tag " + variant.tag() + " was not read before the variant");
    }
    CtfType option = labels[at] == null ? null : variant.option(labels[at]);
    if (option == null) {
      throw at(bit, "variant tag " + variant.tag() + " = " + values[at] + " ("
          + (labels[at] == null ? "no enumeration label" : labels[at]) + ") selects none of its options");
    }
    return option;
  }

  private long integer(IntegerType type, boolean setsClock) throws TraceFormatException {
    align(type.align());
    long value = bits(type.size(), type.order() == null ? nativeOrder : type.order());
    if (type.signed() && type.size() < 64) {
      value = value << (64 - type.size()) >> (64 - type.size());
    }
    if (type.clock() != null && setsClock) {
      advanceClock(type.clock(), value, type.size());
    }
    return value;
  }

  /**
   * The clock's n low bits become {@code value}; when they went down, the field wrapped once since
   * the previous one (CTF 1.8 §8: a clock field holds the n low bits of the clock).
   */
  private void advanceClock(String name, long value, int size) {
    if (!clock.name().equals(name) && metadata.clocks().containsKey(name)) {
      clock = metadata.clocks().get(name);
    }
    clockCycles = update(clockCycles, value, size);
  }

  static long update(long clock, long value, int size) {
    if (size == 64) {
      return value;
    }
    long mask = (1L << size) - 1;
    long next = (clock & ~mask) | (value & mask);
    return (value & mask) < (clock & mask) ? next + (1L << size) : next;
  }

  private void string(String name) throws TraceFormatException {
    align(8);
    int start = (int) (bit >>> 3);
    int end = start;
    int limit = (int) (limitBits >>> 3);
    while (end < limit && packet[end] != 0) {
      end++;
    }
    if (end >= limit) {
      throw at(bit, "a string not ended (NUL) before " + limitName);
    }
    remember(name, start, null, end - start);
    bit = (end + 1) * 8L;
  }

  private void array(CtfType element, long length, String name) throws TraceFormatException {
    align(element.align());
    if (length < 0 || length > limitBits - bit) {
      throw at(bit, "array " + name + " of " + length + " elements: more than the " + (limitBits - bit)
          + " bits left before " + limitName);
    }
    if (element instanceof IntegerType integer && integer.size() == 8 && (bit & 7) == 0) {
      // Byte arrays (build ids, LTTng's procname) are skipped whole and kept as text.
      int start = (int) (bit >>> 3);
      skip(length * 8);
      remember(name, start, null, (int) length);
      return;
    }
    for (long i = 0; i < length; i++) {
      long before = bit;
      decode(element, null);
      if (bit == before) {
        // An element that reads no bit reads no value either, so every following one decodes the
        // same way to nothing: stop here rather than walk 2⁶³ empty structs.
        return;
      }
    }
  }

  // ---- bits

  private void align(int bits) {
    bit = (bit + bits - 1) & -(long) bits;
  }

  private void skip(long bits) throws TraceFormatException {
    need(bits);
    bit += bits;
  }

  private void need(long bits) throws TraceFormatException {
    if (bit + bits > limitBits) {
      throw at(bit, bits + " bits expected, only " + Math.max(0, limitBits - bit)
          + " remain before " + limitName);
    }
  }

  /**
   * {@code size} bits from the current position, a byte at a time: little-endian fields start at
   * the low bits of their first byte, big-endian ones at its high bits (CTF 1.8 §4.1.5).
   */
  private long bits(int size, ByteOrder order) throws TraceFormatException {
    need(size);
    if ((bit & 7) == 0 && (size & (size - 1)) == 0 && size >= 8) {
      return alignedBytes(size, order);
    }
    long value = 0;
    long at = bit;
    int done = 0;
    if (order == ByteOrder.LITTLE_ENDIAN) {
      while (done < size) {
        int offset = (int) (at & 7);
        int take = Math.min(8 - offset, size - done);
        long part = ((packet[(int) (at >>> 3)] & 0xff) >>> offset) & ((1 << take) - 1);
        value |= part << done;
        done += take;
        at += take;
      }
    } else {
      while (done < size) {
        int offset = (int) (at & 7);
        int take = Math.min(8 - offset, size - done);
        long part = ((packet[(int) (at >>> 3)] & 0xff) >>> (8 - offset - take)) & ((1 << take) - 1);
        value = value << take | part;
        done += take;
        at += take;
      }
    }
    bit = at;
    return value;
  }

  /** The common case, a whole 1, 2, 4 or 8-byte integer at a byte boundary, through the buffer views. */
  private long alignedBytes(int size, ByteOrder order) {
    ByteBuffer view = order == ByteOrder.LITTLE_ENDIAN ? little : big;
    int at = (int) (bit >>> 3);
    bit += size;
    return switch (size) {
      case 8 -> packet[at] & 0xFFL;
      case 16 -> view.getShort(at) & 0xFFFFL;
      case 32 -> view.getInt(at) & 0xFFFF_FFFFL;
      default -> view.getLong(at);
    };
  }

  // ---- scope

  private void remember(String name, long value, String label, int length) {
    if (name == null) {
      return;
    }
    if (count == names.length) {
      // By hand: the fields in scope, per decoded field (CTF import, hot; fastutil 3.4x slower, decision 032).
      names = Arrays.copyOf(names, count * 2);
      values = Arrays.copyOf(values, count * 2);
      labels = Arrays.copyOf(labels, count * 2);
      lengths = Arrays.copyOf(lengths, count * 2);
    }
    names[count] = name;
    values[count] = value;
    labels[count] = label;
    lengths[count] = length;
    count++;
  }

  private int lookup(String name) {
    for (int i = count - 1; i >= 0; i--) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private TraceFormatException at(long bitInPacket, String what) {
    return TraceFormatException.atOffset(file, packetOffset + bitInPacket / 8, what);
  }
}
