package org.ocelotl.format.perfetto;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * A packet's {@code compressed_packets}: packets framed as in a trace file (field 1 each),
 * compressed with zlib, which Perfetto writes when the trace config asks for compression. They
 * are inflated into one array, at most {@code ocelotl.maxPacketBytes} (a small packet may inflate
 * to a great deal), all the file's together at most {@code ocelotl.perfetto.maxRatio} × its size,
 * and handed out one by one; errors name the outer packet.
 */
final class CompressedPackets {
  /** Tag of {@code compressed_packets}: field 50, wire type 2. */
  static final int TAG = 50 << 3 | 2;

  /** What is done with each inner packet: {@code length} bytes of {@code bytes} from {@code start}. */
  interface Visitor {
    void packet(byte[] bytes, int start, int length) throws IOException;
  }

  private CompressedPackets() {
  }

  static void forEach(PacketInput input, ByteString compressed, Visitor visitor) throws IOException {
    byte[] bytes = inflate(input, compressed);
    input.inflated(bytes.length);
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    try {
      while (!in.isAtEnd()) {
        int tag = in.readTag();
        if (tag != PacketInput.PACKET_TAG) {
          in.skipField(tag);
          continue;
        }
        int length = in.readRawVarint32();
        int start = in.getTotalBytesRead();
        if (length < 0 || length > bytes.length - start) {
          throw error(input, "a packet of " + length + " bytes announced, only " + (bytes.length - start) + " remain");
        }
        visitor.packet(bytes, start, length);
        in.skipRawBytes(length);
      }
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw error(input, e.getMessage());
    }
  }

  /**
   * The packets inflated, at most {@code ocelotl.maxPacketBytes}, and at most what is left of the
   * whole file's allowance ({@link PacketInput#inflationLeft}): a small file of many compressed
   * packets, each within the first bound, would otherwise inflate to gigabytes.
   */
  private static byte[] inflate(PacketInput input, ByteString compressed) throws IOException {
    long packetMax = Limit.PACKET_BYTES.value();
    long max = Math.min(packetMax, input.inflationLeft());
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(compressed.toByteArray());
      byte[] out = new byte[(int) Math.min(max, Math.max(1024, 4L * compressed.size()))];
      int size = 0;
      while (!inflater.finished()) {
        if (size == out.length) {
          if (out.length >= max) {
            throw max == packetMax
                ? error(input, "more than " + max + " bytes once inflated: " + Limit.PACKET_BYTES.exceeded(max))
                : error(input, "the file's compressed packets inflate to more than " + input.inflationAllowed()
                    + " bytes, " + Limit.INFLATION_RATIO.value() + "× its " + input.size() + " bytes (at least 64 MiB): "
                    + "not a trace; if it is one, " + raise(Limit.INFLATION_RATIO));
          }
          out = Arrays.copyOf(out, (int) Math.min(max, 2L * out.length));
        }
        int inflated = inflater.inflate(out, size, out.length - size);
        if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw error(input, "they end before their zlib stream does (cut or corrupt)");
        }
        size += inflated;
      }
      return Arrays.copyOf(out, size);
    } catch (DataFormatException e) {
      throw error(input, "they do not inflate: " + e.getMessage());
    } finally {
      inflater.end();
    }
  }

  private static String raise(Limit limit) {
    return "raise the limit with OCELOTL_JAVA_OPTS=-D" + limit.property() + "=N";
  }

  private static TraceFormatException error(PacketInput input, String what) {
    return TraceFormatException.atOffset(input.file(), input.packetOffset(), "compressed packets: " + what);
  }
}
