package org.ocelotl.format;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A {@link DataInput} over the bytes a split reader's task recorded (big-endian, as {@link
 * java.io.DataOutput} writes them), read through a ByteBuffer. The driver replays millions of
 * records; a DataInputStream over a ByteArrayInputStream reads each int a byte at a time through
 * stream calls, which took a fifth of the Spark Pajé import's CPU samples.
 */
public final class RecordingInput implements DataInput {
  private final ByteBuffer bytes;

  public RecordingInput(byte[] bytes) {
    this.bytes = ByteBuffer.wrap(bytes);
  }

  /** Whether bytes are left to read. */
  public boolean hasRemaining() {
    return bytes.hasRemaining();
  }

  @Override
  public void readFully(byte[] into) {
    bytes.get(into);
  }

  @Override
  public void readFully(byte[] into, int offset, int length) {
    bytes.get(into, offset, length);
  }

  @Override
  public int skipBytes(int n) {
    int skipped = Math.max(0, Math.min(n, bytes.remaining()));
    bytes.position(bytes.position() + skipped);
    return skipped;
  }

  @Override
  public boolean readBoolean() {
    return bytes.get() != 0;
  }

  @Override
  public byte readByte() {
    return bytes.get();
  }

  @Override
  public int readUnsignedByte() {
    return bytes.get() & 0xff;
  }

  @Override
  public short readShort() {
    return bytes.getShort();
  }

  @Override
  public int readUnsignedShort() {
    return bytes.getShort() & 0xffff;
  }

  @Override
  public char readChar() {
    return bytes.getChar();
  }

  @Override
  public int readInt() {
    return bytes.getInt();
  }

  @Override
  public long readLong() {
    return bytes.getLong();
  }

  @Override
  public float readFloat() {
    return bytes.getFloat();
  }

  @Override
  public double readDouble() {
    return bytes.getDouble();
  }

  /** Recordings hold no lines of text (their strings are {@link #readUTF}'s). */
  @Override
  public String readLine() {
    throw new UnsupportedOperationException("a recording holds no lines of text");
  }

  @Override
  public String readUTF() throws IOException {
    return DataInputStream.readUTF(this);
  }
}
