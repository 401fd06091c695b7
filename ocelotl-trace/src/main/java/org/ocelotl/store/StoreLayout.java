package org.ocelotl.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.ocelotl.model.EventCategory;

/**
 * The on-disk layout of a store, owned here and nowhere else (docs/store-format.md describes
 * it for people). A store is a directory holding {@value #METADATA_FILE} (JSON: producers,
 * event types, bounds, counts, warnings, source) and one chunk file per category.
 *
 * <p>A chunk file: a {@value #HEADER_SIZE}-byte header, then chunks, then the chunk index.
 * All numbers little-endian (the byte order of the machines that scan, so bulk reads copy).
 * <pre>
 * header  0  magic "OCLCHUNK"       8 bytes
 *         8  format version         int
 *        12  category code          int   (1 states, 2 events, 3 variables, 4 links)
 *        16  chunk capacity         int   (records per full chunk)
 *        20  chunk count            int
 *        24  record count           long
 *        32  index offset           long  (where the chunk index starts)
 *        40  double columns         int
 *        44  int columns            int
 *        48  reserved, zero         16 bytes
 * chunk      its double columns, each size × 8 bytes, then its int columns, each size × 4
 *            bytes, then its producer directory (below), padded with zeros to a multiple of 8
 *            so every chunk starts 8-aligned
 * index      per chunk: offset long, size int, producers int, min time double, max time double
 * </pre>
 *
 * <p>Records of a chunk are sorted by producer (the source for links), then by start, stably.
 * The producer directory lists, for each of the chunk's P distinct producers in increasing
 * order, the producer (int) and the position of its first record (int): a query on a few
 * producers reads only their runs of records, not the chunk.
 */
final class StoreLayout {
  /**
   * 2: producers carry their own record counts per category. 3: chunks sorted by producer then
   * start, with a producer directory per chunk; links keep their volume. 4: a state keeps the type
   * of the state it lies in (exclusive time in the model, decision 037).
   */
  static final int VERSION = 4;
  static final String METADATA_FILE = "metadata.json";
  static final String METADATA_FORMAT = "ocelotl-store";
  static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

  static final byte[] MAGIC = "OCLCHUNK".getBytes(StandardCharsets.US_ASCII);
  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC.length;
  static final int CATEGORY_OFFSET = VERSION_OFFSET + Integer.BYTES;
  static final int CAPACITY_OFFSET = CATEGORY_OFFSET + Integer.BYTES;
  static final int CHUNK_COUNT_OFFSET = CAPACITY_OFFSET + Integer.BYTES;
  static final int RECORD_COUNT_OFFSET = CHUNK_COUNT_OFFSET + Integer.BYTES;
  static final int INDEX_OFFSET_OFFSET = RECORD_COUNT_OFFSET + Long.BYTES;
  static final int DOUBLE_COLUMNS_OFFSET = INDEX_OFFSET_OFFSET + Long.BYTES;
  static final int INT_COLUMNS_OFFSET = DOUBLE_COLUMNS_OFFSET + Integer.BYTES;
  static final int HEADER_SIZE = 64;

  static final int ENTRY_OFFSET = 0;
  static final int ENTRY_SIZE_OFFSET = ENTRY_OFFSET + Long.BYTES;
  static final int ENTRY_PRODUCERS_OFFSET = ENTRY_SIZE_OFFSET + Integer.BYTES;
  static final int ENTRY_MIN_OFFSET = ENTRY_PRODUCERS_OFFSET + Integer.BYTES;
  static final int ENTRY_MAX_OFFSET = ENTRY_MIN_OFFSET + Double.BYTES;
  static final int ENTRY_BYTES = ENTRY_MAX_OFFSET + Double.BYTES;

  /** Column 0 of the doubles is the time a chunk is sorted by (start, or time for events). */
  static final int SORT_COLUMN = 0;
  /** Bytes of one producer directory entry: producer, first record. */
  static final int DIRECTORY_ENTRY_BYTES = 2 * Integer.BYTES;

  private StoreLayout() {}

  /**
   * The columns of one category. Doubles come first so that they are 8-aligned in every chunk.
   * {@code endColumn} is the double column whose maximum is a chunk's max time;
   * {@code producerColumn} the int column a chunk is grouped by.
   */
  record Columns(EventCategory category, int code, String fileName, int doubles, int ints,
      int endColumn, int producerColumn) {
    /** Bytes of a chunk of {@code size} records from {@code producers} distinct producers. */
    int chunkBytes(int size, int producers) {
      long bytes = (long) doubles * Double.BYTES * size
          + align8((long) ints * Integer.BYTES * size + (long) producers * DIRECTORY_ENTRY_BYTES);
      return Math.toIntExact(bytes);
    }

    int directoryOffset(int size) {
      return intColumnOffset(ints, size);
    }

    int doubleColumnOffset(int column, int size) {
      return column * Double.BYTES * size;
    }

    int intColumnOffset(int column, int size) {
      return doubles * Double.BYTES * size + column * Integer.BYTES * size;
    }
  }

  // Column numbers, by category: doubles first, then ints. The writer, the column views and the
  // scan name columns by these, never by a bare index.
  static final int STATE_START = 0;
  static final int STATE_END = 1;
  static final int STATE_PRODUCER = 0;
  static final int STATE_TYPE = 1;
  static final int STATE_DEPTH = 2;
  static final int STATE_OUTER = 3;
  static final int EVENT_TIME = 0;
  static final int EVENT_PRODUCER = 0;
  static final int EVENT_TYPE = 1;
  static final int VARIABLE_START = 0;
  static final int VARIABLE_END = 1;
  static final int VARIABLE_VALUE = 2;
  static final int VARIABLE_PRODUCER = 0;
  static final int VARIABLE_TYPE = 1;
  static final int LINK_START = 0;
  static final int LINK_END = 1;
  static final int LINK_VOLUME = 2;
  static final int LINK_TYPE = 0;
  static final int LINK_FROM = 1;
  static final int LINK_TO = 2;

  // states: start, end | producer, type, depth, outer type (-1: none)
  static final Columns STATES = new Columns(EventCategory.STATE, 1, "states.chunks", 2, 4, 1, STATE_PRODUCER);
  // events: time | producer, type
  static final Columns EVENTS = new Columns(EventCategory.EVENT, 2, "events.chunks", 1, 2, 0, EVENT_PRODUCER);
  // variables: start, end, value | producer, type  (one record per step of the step function)
  static final Columns VARIABLES = new Columns(EventCategory.VARIABLE, 3, "variables.chunks", 3, 2, 1,
      VARIABLE_PRODUCER);
  // links: start, end, volume | type, from, to  (grouped by their source; volume NaN when unknown)
  static final Columns LINKS = new Columns(EventCategory.LINK, 4, "links.chunks", 3, 3, 1, LINK_FROM);

  static Columns columns(EventCategory category) {
    return switch (category) {
      case STATE -> STATES;
      case EVENT -> EVENTS;
      case VARIABLE -> VARIABLES;
      case LINK -> LINKS;
    };
  }

  static long align8(long bytes) {
    return (bytes + 7) & ~7L;
  }

  static void writeHeader(ByteBuffer header, Columns columns, int capacity, int chunkCount,
      long recordCount, long indexOffset) {
    header.clear().order(ORDER);
    header.put(MAGIC_OFFSET, MAGIC);
    header.putInt(VERSION_OFFSET, VERSION);
    header.putInt(CATEGORY_OFFSET, columns.code());
    header.putInt(CAPACITY_OFFSET, capacity);
    header.putInt(CHUNK_COUNT_OFFSET, chunkCount);
    header.putLong(RECORD_COUNT_OFFSET, recordCount);
    header.putLong(INDEX_OFFSET_OFFSET, indexOffset);
    header.putInt(DOUBLE_COLUMNS_OFFSET, columns.doubles());
    header.putInt(INT_COLUMNS_OFFSET, columns.ints());
  }

  /** What a validated header says. */
  record Header(int capacity, int chunkCount, long recordCount, long indexOffset) {}

  /**
   * Checks a header against what this version writes and against the file's size.
   *
   * @throws StoreFormatException naming the file, the field, expected and found
   */
  static Header readHeader(Path file, ByteBuffer header, Columns columns, long fileSize)
      throws StoreFormatException {
    if (fileSize < HEADER_SIZE) {
      throw new StoreFormatException(file, "file size", "at least " + HEADER_SIZE + " bytes", fileSize + " bytes");
    }
    header.order(ORDER);
    byte[] magic = new byte[MAGIC.length];
    header.get(MAGIC_OFFSET, magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new StoreFormatException(file, "magic number", new String(MAGIC, StandardCharsets.US_ASCII),
          new String(magic, StandardCharsets.ISO_8859_1));
    }
    expect(file, "format version", VERSION, header.getInt(VERSION_OFFSET));
    expect(file, "category code", columns.code(), header.getInt(CATEGORY_OFFSET));
    expect(file, "double columns", columns.doubles(), header.getInt(DOUBLE_COLUMNS_OFFSET));
    expect(file, "int columns", columns.ints(), header.getInt(INT_COLUMNS_OFFSET));
    int capacity = header.getInt(CAPACITY_OFFSET);
    if (capacity < 1) {
      throw new StoreFormatException(file, "chunk capacity", "a positive count", String.valueOf(capacity));
    }
    int chunkCount = header.getInt(CHUNK_COUNT_OFFSET);
    long recordCount = header.getLong(RECORD_COUNT_OFFSET);
    if (chunkCount < 0 || recordCount < 0 || recordCount > (long) chunkCount * capacity) {
      throw new StoreFormatException(file, "chunk and record counts",
          "0 ≤ records ≤ chunks × capacity", recordCount + " records in " + chunkCount + " chunks of " + capacity);
    }
    long indexOffset = header.getLong(INDEX_OFFSET_OFFSET);
    long expectedSize = indexOffset + (long) chunkCount * ENTRY_BYTES;
    if (indexOffset < HEADER_SIZE || expectedSize != fileSize) {
      throw new StoreFormatException(file, "index offset",
          "an offset where " + chunkCount + " index entries end the " + fileSize + "-byte file",
          String.valueOf(indexOffset));
    }
    return new Header(capacity, chunkCount, recordCount, indexOffset);
  }

  private static void expect(Path file, String field, int expected, int found) throws StoreFormatException {
    if (expected != found) {
      throw new StoreFormatException(file, field, String.valueOf(expected), String.valueOf(found));
    }
  }

  static void writeEntry(ByteBuffer entries, int at, long offset, int size, int producers, double min,
      double max) {
    entries.putLong(at + ENTRY_OFFSET, offset);
    entries.putInt(at + ENTRY_SIZE_OFFSET, size);
    entries.putInt(at + ENTRY_PRODUCERS_OFFSET, producers);
    entries.putDouble(at + ENTRY_MIN_OFFSET, min);
    entries.putDouble(at + ENTRY_MAX_OFFSET, max);
  }

  /**
   * Checks a chunk's producer directory: producers increasing, first records increasing from 0
   * and inside the chunk, so that {@code TraceStore.read(chunk, columns, producer)} can trust it.
   */
  static void checkDirectory(Path file, ByteBuffer chunk, Columns columns, Chunk c) throws StoreFormatException {
    int at = columns.directoryOffset(c.size());
    int previousProducer = -1;
    int previousFirst = -1;
    for (int d = 0; d < c.producers(); d++) {
      int producer = chunk.getInt(at + d * DIRECTORY_ENTRY_BYTES);
      int first = chunk.getInt(at + d * DIRECTORY_ENTRY_BYTES + Integer.BYTES);
      boolean valid = producer > previousProducer && first > previousFirst && first < c.size()
          && (d > 0 || first == 0);
      if (!valid) {
        throw new StoreFormatException(file, "chunk " + c.index() + " producer directory entry " + d,
            "producers and first records increasing from record 0, inside the chunk of " + c.size(),
            "producer " + producer + " from record " + first);
      }
      previousProducer = producer;
      previousFirst = first;
    }
  }

  /** Reads and checks the index: every chunk inside the data area, counts summing up. */
  static Chunk[] readIndex(Path file, ByteBuffer entries, Columns columns, Header header)
      throws StoreFormatException {
    entries.order(ORDER);
    Chunk[] chunks = new Chunk[header.chunkCount()];
    long records = 0;
    for (int i = 0; i < chunks.length; i++) {
      int at = i * ENTRY_BYTES;
      long offset = entries.getLong(at + ENTRY_OFFSET);
      int size = entries.getInt(at + ENTRY_SIZE_OFFSET);
      int producers = entries.getInt(at + ENTRY_PRODUCERS_OFFSET);
      double min = entries.getDouble(at + ENTRY_MIN_OFFSET);
      double max = entries.getDouble(at + ENTRY_MAX_OFFSET);
      String which = "chunk " + i + " ";
      if (size < 1 || size > header.capacity()) {
        throw new StoreFormatException(file, which + "size", "1.." + header.capacity(), String.valueOf(size));
      }
      if (producers < 1 || producers > size) {
        throw new StoreFormatException(file, which + "producers", "1.." + size, String.valueOf(producers));
      }
      int bytes = columns.chunkBytes(size, producers);
      if (offset < HEADER_SIZE || offset % 8 != 0 || offset + bytes > header.indexOffset()) {
        throw new StoreFormatException(file, which + "offset",
            "an 8-aligned offset in [" + HEADER_SIZE + ", " + (header.indexOffset() - bytes) + "]",
            String.valueOf(offset));
      }
      if (!(min <= max)) {
        throw new StoreFormatException(file, which + "time bounds", "min ≤ max", min + " > " + max);
      }
      records += size;
      chunks[i] = new Chunk(columns.category(), i, size, producers, min, max, offset);
    }
    if (records != header.recordCount()) {
      throw new StoreFormatException(file, "sum of chunk sizes", String.valueOf(header.recordCount()),
          String.valueOf(records));
    }
    return chunks;
  }
}
