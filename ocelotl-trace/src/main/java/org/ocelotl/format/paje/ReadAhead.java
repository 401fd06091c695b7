package org.ocelotl.format.paje;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A file's bytes, read by a thread of its own a few blocks ahead of the stream's reader. Reading
 * the large SimGrid trace through a plain file stream cost the reading thread of an import about
 * 6 % of its CPU, in the read system calls with the kernel's copy and in the JDK's copy out of its
 * temporary direct buffer (issue 18). Here the system calls run on another core while the reader
 * parses, and the reader copies each block once, out of the direct buffer the kernel filled (the
 * reading thread's saving, 3–6 %, did not show in the import's wall time on two cores:
 * docs/benchmarks.md). The blocks go round two queues: the thread takes a free block, fills it
 * and hands it over; the reader hands it back when it has drained it. A read failure reaches the
 * reader in the stream's order, as the same exception. {@link #close} stops the thread and
 * closes the file.
 */
final class ReadAhead extends InputStream {
  private static final int BLOCK_BYTES = 1 << 18;
  /** Blocks in flight: 1 MiB ahead of the reader, as much as its line buffer. */
  private static final int BLOCKS = 4;

  private final FileChannel channel;
  private final BlockingQueue<ByteBuffer> free;
  /** Filled blocks in the file's order; an empty one ends the file, a {@link Failure} a failed read. */
  private final BlockingQueue<Object> filled;
  private final Thread thread;
  private ByteBuffer current;
  private boolean ended;
  /** The failed read, thrown again by every read after it. */
  private IOException failure;

  /** A read of the file that failed on the thread, for the reader to throw. */
  private record Failure(IOException exception) {}

  ReadAhead(Path file) throws IOException {
    this(file, BLOCK_BYTES, BLOCKS);
  }

  /** With other block sizes and counts (tests). */
  ReadAhead(Path file, int blockBytes, int blocks) throws IOException {
    channel = FileChannel.open(file, StandardOpenOption.READ);
    free = new ArrayBlockingQueue<>(blocks);
    filled = new ArrayBlockingQueue<>(blocks + 1);
    for (int b = 0; b < blocks; b++) {
      free.add(ByteBuffer.allocateDirect(blockBytes));
    }
    thread = new Thread(this::readAll, "ocelotl-read-ahead");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public int read() throws IOException {
    if (current == null && !nextBlock()) {
      return -1;
    }
    int b = current.get() & 0xFF;
    releaseIfDrained();
    return b;
  }

  @Override
  public int read(byte[] bytes, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (current == null && !nextBlock()) {
      return -1;
    }
    int n = Math.min(length, current.remaining());
    current.get(bytes, offset, n);
    releaseIfDrained();
    return n;
  }

  @Override
  public void close() throws IOException {
    thread.interrupt();
    channel.close();
  }

  private void releaseIfDrained() {
    if (!current.hasRemaining()) {
      free.add(current); // never full: its capacity is the number of blocks
      current = null;
    }
  }

  /** Makes the next filled block current; false at the end of the file. */
  private boolean nextBlock() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (ended) {
      return false;
    }
    Object next;
    try {
      next = filled.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading ahead");
    }
    if (next instanceof Failure failed) {
      failure = failed.exception();
      throw failure;
    }
    ByteBuffer block = (ByteBuffer) next;
    if (!block.hasRemaining()) {
      ended = true;
      return false;
    }
    current = block;
    return true;
  }

  /** The thread: fills free blocks until the end of the file, a failure, or {@link #close}. */
  private void readAll() {
    try {
      boolean end = false;
      while (!end) {
        ByteBuffer block = free.take();
        block.clear();
        while (block.hasRemaining() && !end) {
          end = channel.read(block) < 0;
        }
        // Looked at before the hand-over: then the reader drains the block.
        boolean empty = !block.flip().hasRemaining();
        filled.put(block);
        if (end && !empty) {
          filled.put(ByteBuffer.allocate(0));
        }
      }
    } catch (InterruptedException | ClosedChannelException e) {
      // closed by the reader: nobody waits for more
    } catch (IOException e) {
      // Room for it: this thread holds a block, so fewer than all of them wait in the queue.
      filled.add(new Failure(e));
    }
  }
}
