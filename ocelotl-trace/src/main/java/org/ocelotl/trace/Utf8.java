package org.ocelotl.trace;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/**
 * Where bytes stop being UTF-8 text, for files read whole (a store's metadata, a selections file):
 * the JDK's own decoding says only "Input length = 1", which names neither file nor place.
 */
public final class Utf8 {
  private Utf8() {}

  /** The offset of the first byte that is not part of UTF-8 text, or -1 when they all are. */
  public static long invalidAt(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input by default
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(4096);
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isError()) {
        return in.position();
      }
      if (result.isUnderflow()) {
        return -1;
      }
      out.clear(); // overflow: the text is not kept, only checked
    }
  }
}
