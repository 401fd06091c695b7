package org.ocelotl.modelfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a stream as ranges of one reused byte buffer, so that reading a line costs no
 * object. Lines end with \n, \r\n or \r, as {@link java.io.BufferedReader#readLine} has them.
 */
final class LineSplitter {
  /** Longer lines are refused: a model file's lines are a name, two numbers and a value. */
  static final int MAX_LINE = 1 << 20;
  private final InputStream in;
  private final String file;
  private byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private boolean ended;
  private boolean skipLineFeed;
  private int from;
  private int to;
  private long number;
  /**
   * Where the line's first commas are, and how many it holds: found in the scan for its end, so
   * that a model line's fields need no second pass over its bytes.
   */
  private final int[] comma = new int[3];
  private int commas;

  /** @param file the stream's file, for messages */
  LineSplitter(InputStream in, String file) {
    this.in = in;
    this.file = file;
  }

  /** Moves to the next line; false at the end of the stream. */
  boolean next() throws IOException {
    while (true) {
      if (skipLineFeed && position < limit) {
        skipLineFeed = false;
        if (buffer[position] == '\n') {
          position++;
        }
      }
      commas = 0;
      for (int i = position; i < limit; i++) {
        byte b = buffer[i];
        if (b == ',') {
          if (commas < comma.length) {
            comma[commas] = i;
          }
          commas++;
        } else if (b == '\n' || b == '\r') {
          from = position;
          to = i;
          position = i + 1;
          skipLineFeed = b == '\r';
          number++;
          return true;
        }
      }
      if (ended) {
        if (position == limit) {
          return false;
        }
        from = position;
        to = limit;
        position = limit;
        number++;
        return true;
      }
      fill();
    }
  }

  private void fill() throws IOException {
    int kept = limit - position;
    if (kept >= MAX_LINE) {
      throw new ModelFormatException(file, number + 1, "the line is longer than " + MAX_LINE + " bytes: not a model file");
    }
    if (kept == buffer.length) {
      // By hand: a model file's line buffer, read per byte (model load, hot; no byte list in fastutil-core).
      buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
    } else if (position > 0) {
      System.arraycopy(buffer, position, buffer, 0, kept);
    }
    position = 0;
    limit = kept;
    int read = in.read(buffer, limit, buffer.length - limit);
    if (read < 0) {
      ended = true;
    } else {
      limit += read;
    }
  }

  byte[] bytes() {
    return buffer;
  }

  /** Where the line starts in {@link #bytes()}. */
  int from() {
    return from;
  }

  /** Where the line ends in {@link #bytes()}, its terminator excluded. */
  int to() {
    return to;
  }

  /** How many commas the line holds. */
  int commas() {
    return commas;
  }

  /** Where the line's k-th comma (from 0) is in {@link #bytes()}, for k below 3 and {@link #commas()}. */
  int comma(int k) {
    return comma[k];
  }

  /** The line's number, from 1. */
  long number() {
    return number;
  }

  /** The line as text. @throws CharacterCodingException when it is not UTF-8 */
  String text() throws CharacterCodingException {
    return decode(buffer, from, to);
  }

  static String decode(byte[] bytes, int from, int to) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, from, to - from)).toString();
  }
}
