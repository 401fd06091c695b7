package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The message sides that wait for a location not read yet, once {@link PendingSides} holds as many
 * as it may ({@link #full}): on disk, in a temporary file per waiting location, read back while
 * that location is read (docs/formats.md, OTF2, "Limits"; decision 058).
 *
 * <p>Why this keeps {@link Otf2Events}'s matching exact. The locations are read one after the
 * other, so the sides that wait for location X and were written while location L was read are one
 * run of X's file (a segment), in L's order; a channel's waiting sides all come from one location
 * (its end that is not X). {@link Otf2Events} spills from the moment memory is full to the end of
 * the location it reads, so each channel's oldest sides are in memory and the rest, in order, in
 * one segment. While X is read, a side of X whose channel has nothing left in memory takes the
 * first side of its channel in its peer's segment ({@link #take}): the sides passed on the way go
 * to memory, behind what their channels hold there, so every channel stays oldest first. When X
 * ends, what is left of its segments joins memory as sides left unmatched ({@link #endReading}).
 *
 * <p>A side is {@value #SIDE_BYTES} bytes on disk; a file written or a segment read goes through a
 * buffer of {@value #BUFFER_SIDES} sides. Files are opened for each write, so a reader of many
 * locations holds no descriptor per waiting location. {@link #close} deletes the directory and
 * whatever is in it, after an import that failed too; the directory of a killed import goes at the
 * next spill ({@link #removeAbandoned}).
 */
final class SideSpill implements AutoCloseable {
  /**
   * Sides {@link PendingSides} holds before more are spilled: about 1.2 MB with their channels (a
   * channel per side when every message has its own tag). More would save little I/O: what waits
   * beyond memory is most of what waits.
   */
  static final int IN_MEMORY = 1 << 14;
  /** A side on disk: record kind (1 byte), tag, time and length (8 each). */
  static final int SIDE_BYTES = 1 + 3 * Long.BYTES;
  private static final int BUFFER_SIDES = 256;
  /** The start of a spill directory's name, then its process's id. */
  static final String PREFIX = "ocelotl-otf2-sides-";

  private final Path parent;
  private final int inMemory;
  /** Created at the first spill; null until then and after {@link #close}. */
  private Path directory;
  /** By waiting producer: its file, not yet read (arrays by producer: no boxing per side). */
  private Waiting[] waiting = new Waiting[16];
  /** The files written while the current location is read: their segments end with it. */
  private final List<Waiting> writing = new ArrayList<>();
  /** While a location with spilled sides is read: its file, and a cursor per segment by writer. */
  private FileChannel reading;
  private Path readingFile;
  private Cursor[] cursors = new Cursor[0];
  private final List<Cursor> open = new ArrayList<>();

  /** The side {@link #take} found. */
  double foundTime;
  long foundLength;

  /**
   * @param parent   where the temporary directory goes (the system's temporary directory for an import)
   * @param inMemory sides held in memory before spilling; 0 spills every side that waits
   */
  SideSpill(Path parent, int inMemory) {
    this.parent = parent;
    this.inMemory = inMemory;
  }

  /** Whether memory holding {@code sides} is full. */
  boolean full(int sides) {
    return sides >= inMemory;
  }

  /** Appends, to the file of {@code waitingFor}, a side that {@code writer} (the location read) waits with. */
  void write(int waitingFor, int writer, long tag, double time, int kind, long length) throws IOException {
    if (waitingFor >= waiting.length) {
      waiting = Arrays.copyOf(waiting, Math.max(waitingFor + 1, 2 * waiting.length));
    }
    Waiting file = waiting[waitingFor];
    if (file == null) {
      if (directory == null) {
        removeAbandoned(parent);
        directory = Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-");
      }
      file = new Waiting(directory.resolve(waitingFor + ".sides"));
      waiting[waitingFor] = file;
    }
    if (file.buffer == null) {
      file.buffer = ByteBuffer.allocate(BUFFER_SIDES * SIDE_BYTES);
      file.segmentStart = file.size;
      file.writer = writer;
      writing.add(file);
    }
    if (!file.buffer.hasRemaining()) {
      file.flush();
    }
    file.buffer.put((byte) kind).putLong(tag).putDouble(time).putLong(length);
    file.size += SIDE_BYTES;
  }

  /** The location read is over: the segments it wrote end here. */
  void endWriting() throws IOException {
    for (Waiting file : writing) {
      file.flush();
      file.buffer = null;
      file.segments.add(new Segment(file.writer, file.segmentStart, file.size));
    }
    writing.clear();
  }

  /** Location {@code location} is about to be read: the sides spilled for it become readable. */
  void startReading(int location) throws IOException {
    Waiting file = location < waiting.length ? waiting[location] : null;
    if (file == null) {
      return;
    }
    waiting[location] = null;
    readingFile = file.path;
    reading = FileChannel.open(readingFile, StandardOpenOption.READ);
    for (Segment segment : file.segments) {
      if (segment.writer() >= cursors.length) {
        cursors = Arrays.copyOf(cursors, Math.max(segment.writer() + 1, 2 * cursors.length));
      }
      Cursor cursor = new Cursor(segment.writer(), segment.start(), segment.end());
      cursors[segment.writer()] = cursor;
      open.add(cursor);
    }
  }

  /**
   * Finds, among the sides {@code peer} spilled for {@code reader} (the location read) and not
   * taken yet, the oldest of channel ({@code tag}, sends or receives: {@code sends}); the sides
   * before it go to {@code pending}. True if found ({@link #foundTime}, {@link #foundLength}).
   */
  boolean take(int reader, int peer, long tag, boolean sends, PendingSides pending) throws IOException {
    Cursor cursor = peer < cursors.length ? cursors[peer] : null;
    if (cursor == null) {
      return false;
    }
    while (cursor.next()) {
      boolean send = Otf2Events.isSend(cursor.kind);
      if (send == sends && cursor.tag == tag) {
        foundTime = cursor.time;
        foundLength = cursor.length;
        return true;
      }
      cursor.passTo(pending, reader);
    }
    return false;
  }

  /** The location read is over: what its segments still hold joins {@code pending}, left unmatched. */
  void endReading(int reader, PendingSides pending) throws IOException {
    if (reading == null) {
      return;
    }
    for (Cursor cursor : open) {
      while (cursor.next()) {
        cursor.passTo(pending, reader);
      }
      cursors[cursor.writer] = null;
    }
    open.clear();
    reading.close();
    reading = null;
    Files.delete(readingFile);
  }

  /** Deletes every file spilled, and the directory. */
  @Override
  public void close() throws IOException {
    if (reading != null) {
      reading.close();
      reading = null;
    }
    if (directory != null) {
      delete(directory);
      directory = null;
    }
  }

  /**
   * Deletes the directories of imports whose process is gone (killed: {@link #close} never ran),
   * named {@value #PREFIX}PID-…; a directory whose process lives, or whose name is not so, stays.
   */
  static void removeAbandoned(Path parent) throws IOException {
    List<Path> abandoned;
    try (Stream<Path> listed = Files.list(parent)) {
      abandoned = listed.filter(SideSpill::abandoned).toList();
    }
    for (Path dir : abandoned) {
      delete(dir);
    }
  }

  private static boolean abandoned(Path dir) {
    String name = dir.getFileName().toString();
    if (!name.startsWith(PREFIX) || !Files.isDirectory(dir)) {
      return false;
    }
    int dash = name.indexOf('-', PREFIX.length());
    try {
      long pid = Long.parseLong(name.substring(PREFIX.length(), dash < 0 ? name.length() : dash));
      return ProcessHandle.of(pid).isEmpty();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** A spill directory holds files only; another import may be deleting the same abandoned one. */
  private static void delete(Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> listed = Files.list(dir)) {
      files = listed.toList();
    } catch (NoSuchFileException gone) {
      return;
    }
    for (Path file : files) {
      Files.deleteIfExists(file);
    }
    Files.deleteIfExists(dir);
  }

  /** Where the sides a location wrote for the waiting one are: bytes [start, end) of its file. */
  private record Segment(int writer, long start, long end) {}

  /** The file of a waiting location. */
  private static final class Waiting {
    final Path path;
    final List<Segment> segments = new ArrayList<>();
    /** Bytes written, the buffer's included. */
    long size;
    /** While the location read writes here: its buffer, where its segment starts, and the writer. */
    ByteBuffer buffer;
    long segmentStart;
    int writer;

    Waiting(Path path) {
      this.path = path;
    }

    void flush() throws IOException {
      buffer.flip();
      try (FileChannel out = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.APPEND)) {
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
      }
      buffer.clear();
    }
  }

  /** Reads one segment of the file being read, side after side. */
  private final class Cursor {
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIDES * SIDE_BYTES).limit(0);
    final int writer;
    private long position;
    private final long end;
    int kind;
    long tag;
    double time;
    long length;

    Cursor(int writer, long start, long end) {
      this.writer = writer;
      this.position = start;
      this.end = end;
    }

    /** Reads the next side; false at the segment's end. */
    boolean next() throws IOException {
      if (!buffer.hasRemaining()) {
        if (position == end) {
          return false;
        }
        buffer.clear().limit((int) Math.min(buffer.capacity(), end - position));
        while (buffer.hasRemaining()) {
          if (reading.read(buffer, position + buffer.position()) < 0) {
            throw new IOException(readingFile + ": ends before its sides (changed while the import ran?)");
          }
        }
        position += buffer.position();
        buffer.flip();
      }
      kind = buffer.get() & 0xFF;
      tag = buffer.getLong();
      time = buffer.getDouble();
      length = buffer.getLong();
      return true;
    }

    /** Keeps the side read in memory, on its channel between {@code reader} and its writer. */
    void passTo(PendingSides pending, int reader) {
      boolean send = Otf2Events.isSend(kind);
      pending.add(send ? writer : reader, send ? reader : writer, tag, send, time, kind, length);
    }
  }
}
