package org.ocelotl.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes the chunk file of one category (layout in {@link StoreLayout}): a header placeholder,
 * chunks appended as they come, then the index and the real header at {@link #close}. Used by
 * the writer thread only.
 */
final class ChunkFileWriter implements AutoCloseable {
  private final StoreLayout.Columns layout;
  private final int capacity;
  private final FileChannel channel;
  private ByteBuffer index;
  private int chunkCount;
  private long recordCount;
  private long position = StoreLayout.HEADER_SIZE;

  ChunkFileWriter(Path directory, StoreLayout.Columns layout, int capacity) throws IOException {
    this.layout = layout;
    this.capacity = capacity;
    this.channel = FileChannel.open(directory.resolve(layout.fileName()),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    this.index = ByteBuffer.allocate(64 * StoreLayout.ENTRY_BYTES).order(StoreLayout.ORDER);
  }

  /** Sorts and appends one chunk; {@code bytes} is the writer thread's reused direct buffer. */
  void write(ChunkBuffer chunk, ChunkBuffer.Scratch scratch, ByteBuffer bytes) throws IOException {
    int n = chunk.size;
    int producers = chunk.sort(scratch);
    int length = layout.chunkBytes(n, producers);
    bytes.clear().limit(length);
    for (int c = 0; c < layout.doubles(); c++) {
      bytes.position(layout.doubleColumnOffset(c, n));
      bytes.asDoubleBuffer().put(chunk.doubles[c], 0, n);
    }
    for (int c = 0; c < layout.ints(); c++) {
      bytes.position(layout.intColumnOffset(c, n));
      bytes.asIntBuffer().put(chunk.ints[c], 0, n);
    }
    bytes.position(layout.directoryOffset(n));
    bytes.asIntBuffer().put(scratch.directory, 0, 2 * producers);
    bytes.position(layout.directoryOffset(n) + producers * StoreLayout.DIRECTORY_ENTRY_BYTES);
    while (bytes.hasRemaining()) {
      bytes.put((byte) 0);
    }
    bytes.position(0);
    writeFully(bytes, position);
    addEntry(n, producers, chunk.minTime(), chunk.maxTime());
    position += length;
    recordCount += n;
  }

  private void addEntry(int size, int producers, double min, double max) {
    int at = chunkCount * StoreLayout.ENTRY_BYTES;
    if (at + StoreLayout.ENTRY_BYTES > index.capacity()) {
      // By hand: the chunk index is bytes in the store's layout (store writer): no list shape.
      ByteBuffer larger = ByteBuffer.allocate(index.capacity() * 2).order(StoreLayout.ORDER);
      larger.put(index.clear());
      index = larger;
    }
    StoreLayout.writeEntry(index, at, position, size, producers, min, max);
    chunkCount++;
  }

  /** Forces the chunks written so far to the disk. */
  void force() throws IOException {
    channel.force(false);
  }

  /** Writes the index and the header, forces everything to the disk, closes. */
  @Override
  public void close() throws IOException {
    try (channel) {
      index.clear().limit(chunkCount * StoreLayout.ENTRY_BYTES);
      writeFully(index, position);
      ByteBuffer header = ByteBuffer.allocate(StoreLayout.HEADER_SIZE);
      StoreLayout.writeHeader(header, layout, capacity, chunkCount, recordCount, position);
      writeFully(header.clear(), 0);
      channel.force(true);
    }
  }

  /** Closes without writing the index: for an aborted import, whose directory is deleted. */
  void abandon() throws IOException {
    channel.close();
  }

  private void writeFully(ByteBuffer bytes, long at) throws IOException {
    long offset = at;
    while (bytes.hasRemaining()) {
      offset += channel.write(bytes, offset);
    }
  }
}
