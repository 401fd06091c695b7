package org.ocelotl.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The dictionary ids of one dictionary-encoded data page, decoded a run at a time: Parquet's
 * RLE / bit-packing hybrid, after a byte giving the ids' bit width. Each run starts with a ULEB128
 * header h: h even is a repeated run of h/2 copies of one id (in ⌈width/8⌉ little-endian bytes);
 * h odd is a bit-packed run of 8·(h/2) ids, packed from the lowest bit of each byte up. Parquet's
 * own decoder hands the ids out one call at a time, and that call was most of the time of a Spark
 * model task; here a repeated run is one fill and a packed run one tight loop.
 */
final class DictionaryIds {
  private final ByteBuffer in;
  private final int width;
  private final long mask;
  private int repeatedLeft;
  private int repeated;
  private int packedLeft;
  /** Bits read from the packed run and not handed out yet, lowest first; fewer than width + 32 of them. */
  private long bits;
  private int bitCount;

  DictionaryIds(ByteBuffer page) {
    this.in = page.order(ByteOrder.LITTLE_ENDIAN);
    this.width = page.get() & 0xff;
    if (width > 32) {
      throw new IllegalArgumentException("dictionary id width " + width + ": expected at most 32");
    }
    this.mask = (1L << width) - 1;
  }

  /** The next {@code count} ids into {@code into[offset, offset + count)}. */
  void read(int[] into, int offset, int count) {
    int end = offset + count;
    int i = offset;
    while (i < end) {
      if (repeatedLeft == 0 && packedLeft == 0) {
        header();
      }
      if (repeatedLeft > 0) {
        int n = Math.min(end - i, repeatedLeft);
        Arrays.fill(into, i, i + n, repeated);
        repeatedLeft -= n;
        i += n;
      } else {
        int n = Math.min(end - i, packedLeft);
        for (int stop = i + n; i < stop; i++) {
          if (bitCount < width) {
            refill();
          }
          into[i] = (int) (bits & mask);
          bits >>>= width;
          bitCount -= width;
        }
        packedLeft -= n;
        if (packedLeft == 0) {
          // The run is whole bytes, so what was read past it is whole bytes: give them back.
          in.position(in.position() - bitCount / 8);
          bits = 0;
          bitCount = 0;
        }
      }
    }
  }

  /** At least width bits in {@link #bits}: 32 more at once (bitCount < width ≤ 32, so they fit in 64). */
  private void refill() {
    if (in.remaining() >= Integer.BYTES) {
      bits |= (in.getInt() & 0xffffffffL) << bitCount;
      bitCount += 32;
    } else {
      while (bitCount < width) {
        bits |= (long) (in.get() & 0xff) << bitCount;
        bitCount += 8;
      }
    }
  }

  private void header() {
    int header = 0;
    int shift = 0;
    int b;
    do {
      b = in.get() & 0xff;
      header |= (b & 0x7f) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    if ((header & 1) == 0) {
      repeatedLeft = header >>> 1;
      repeated = 0;
      for (int k = 0; k < (width + 7) / 8; k++) {
        repeated |= (in.get() & 0xff) << (8 * k);
      }
    } else {
      // A packed run holds whole groups of 8 ids, i.e. whole bytes: no bit carries over from the last run.
      packedLeft = (header >>> 1) * 8;
      bits = 0;
      bitCount = 0;
    }
  }
}
