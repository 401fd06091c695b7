package org.ocelotl.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;

/** Each test changes exactly one field of a valid store and expects one specific error. */
class StoreCorruptionTest {
  @TempDir Path tmp;
  Path dir;
  Path states;

  /** 10 states in chunks of 4: chunks of 4, 4 and 2 records. */
  @BeforeEach
  void writeStore() throws IOException {
    dir = tmp.resolve("store");
    StoreFixtures.write(dir, 4, sink -> {
      StoreRoundTripTest.declare(sink);
      for (int i = 0; i < 10; i++) {
        sink.state(1, 0, i, i + 1, 0, -1);
      }
      sink.end(0, 11, "s");
    });
    states = dir.resolve("states.chunks");
  }

  private void patch(long offset, Consumer<ByteBuffer> change, int length) throws IOException {
    try (FileChannel channel = FileChannel.open(states, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer bytes = ByteBuffer.allocate(length).order(StoreLayout.ORDER);
      change.accept(bytes);
      bytes.flip();
      channel.write(bytes, offset);
    }
  }

  private void patchInt(long offset, int value) throws IOException {
    patch(offset, b -> b.putInt(value), Integer.BYTES);
  }

  private void patchLong(long offset, long value) throws IOException {
    patch(offset, b -> b.putLong(value), Long.BYTES);
  }

  private String openError() {
    return assertThrows(StoreFormatException.class, () -> TraceStore.open(dir)).getMessage();
  }

  private long indexOffset() throws IOException {
    return Files.size(states) - 3L * StoreLayout.ENTRY_BYTES;
  }

  @Test
  void theUntouchedStoreOpens() throws IOException {
    assertEquals(3, TraceStore.open(dir).chunks(EventCategory.STATE).size());
  }

  @Test
  void magic() throws IOException {
    patch(0, b -> b.put("OCLCHUNX".getBytes(StandardCharsets.US_ASCII)), 8);
    assertEquals(states + ": magic number: expected OCLCHUNK, found OCLCHUNX", openError());
  }

  @Test
  void version() throws IOException {
    patchInt(StoreLayout.VERSION_OFFSET, 1);
    assertEquals(states + ": format version: expected 4, found 1", openError());
  }

  @Test
  void category() throws IOException {
    patchInt(StoreLayout.CATEGORY_OFFSET, 2);
    assertEquals(states + ": category code: expected 1, found 2", openError());
  }

  @Test
  void columns() throws IOException {
    patchInt(StoreLayout.DOUBLE_COLUMNS_OFFSET, 3);
    assertEquals(states + ": double columns: expected 2, found 3", openError());
  }

  @Test
  void intColumns() throws IOException {
    patchInt(StoreLayout.INT_COLUMNS_OFFSET, 2);
    assertEquals(states + ": int columns: expected 4, found 2", openError());
  }

  @Test
  void capacityDisagreesWithTheMetadata() throws IOException {
    patchInt(StoreLayout.CAPACITY_OFFSET, 5);
    assertEquals(states + ": chunk capacity: expected 4 (as in metadata.json), found 5", openError());
  }

  @Test
  void recordCount() throws IOException {
    patchLong(StoreLayout.RECORD_COUNT_OFFSET, 13);
    assertEquals(states + ": chunk and record counts: expected 0 ≤ records ≤ chunks × capacity,"
        + " found 13 records in 3 chunks of 4", openError());
  }

  @Test
  void recordCountDisagreesWithTheMetadata() throws IOException {
    patchLong(StoreLayout.RECORD_COUNT_OFFSET, 9);
    assertEquals(states + ": record count: expected 10 (as in metadata.json), found 9", openError());
  }

  @Test
  void indexOffsetField() throws IOException {
    long size = Files.size(states);
    patchLong(StoreLayout.INDEX_OFFSET_OFFSET, indexOffset() - 8);
    assertEquals(states + ": index offset: expected an offset where 3 index entries end the "
        + size + "-byte file, found " + (indexOffset() - 8), openError());
  }

  @Test
  void truncatedFile() throws IOException {
    try (FileChannel channel = FileChannel.open(states, StandardOpenOption.WRITE)) {
      channel.truncate(40);
    }
    assertEquals(states + ": file size: expected at least 64 bytes, found 40 bytes", openError());
  }

  @Test
  void chunkSize() throws IOException {
    patchInt(indexOffset() + StoreLayout.ENTRY_BYTES + StoreLayout.ENTRY_SIZE_OFFSET, 5);
    assertEquals(states + ": chunk 1 size: expected 1..4, found 5", openError());
  }

  @Test
  void chunkOffset() throws IOException {
    patchLong(indexOffset() + 2L * StoreLayout.ENTRY_BYTES + StoreLayout.ENTRY_OFFSET, indexOffset());
    // chunk 2 holds 2 states of one producer: 2 × 2 doubles + 2 × 4 ints + 1 directory entry = 72 bytes
    assertEquals(states + ": chunk 2 offset: expected an 8-aligned offset in [64, " + (indexOffset() - 72)
        + "], found " + indexOffset(), openError());
  }

  @Test
  void chunkProducerCount() throws IOException {
    patchInt(indexOffset() + StoreLayout.ENTRY_PRODUCERS_OFFSET, 5);
    assertEquals(states + ": chunk 0 producers: expected 1..4, found 5", openError());
  }

  @Test
  void producerDirectory() throws IOException {
    // Chunk 0 (4 states of producer 1) starts after the header: 4 × 2 doubles, 4 × 4 ints, then its directory.
    long directory = StoreLayout.HEADER_SIZE + 4 * 2 * Double.BYTES + 4 * 4 * Integer.BYTES;
    patchInt(directory + Integer.BYTES, 2);
    assertEquals(states + ": chunk 0 producer directory entry 0: expected producers and first records increasing "
        + "from record 0, inside the chunk of 4, found producer 1 from record 2", openError());
  }

  @Test
  void chunkBounds() throws IOException {
    patch(indexOffset() + StoreLayout.ENTRY_MIN_OFFSET, b -> b.putDouble(99), Double.BYTES);
    assertEquals(states + ": chunk 0 time bounds: expected min ≤ max, found 99.0 > 4.0", openError());
  }

  @Test
  void metadataVersion() throws IOException {
    Path metadata = dir.resolve(StoreLayout.METADATA_FILE);
    Files.writeString(metadata, Files.readString(metadata).replace("\"version\": 4", "\"version\": 7"));
    assertEquals(metadata + ": format version: expected 4, found 7", openError());
  }

  @Test
  void metadataMissingField() throws IOException {
    Path metadata = dir.resolve(StoreLayout.METADATA_FILE);
    Files.writeString(metadata, Files.readString(metadata).replace("\"unit\": \"s\",", "\"unit\": 3,"));
    assertEquals(metadata + ": field unit: expected a string, found 3", openError());
    Files.writeString(metadata, Files.readString(metadata).replace("\"unit\": 3,", ""));
    assertEquals(metadata + ": field unit: expected a string, found nothing", openError());
  }

  /**
   * The origin (decision 053) is written only where it differs from the start, so a store of a
   * whole trace is what it was before the field existed; a stated one reads back exactly.
   */
  @Test
  void origin() throws IOException {
    Path metadata = dir.resolve(StoreLayout.METADATA_FILE);
    assertFalse(Files.readString(metadata).contains("\"origin\""));
    assertEquals(0.0, TraceStore.open(dir).metadata().origin());
    Path part = tmp.resolve("part");
    StoreFixtures.write(part, 4, sink -> {
      StoreRoundTripTest.declare(sink);
      sink.state(1, 0, 3, 5, 0, -1);
      sink.origin(0.1);
      sink.end(3, 5, "s");
    });
    StoreMetadata m = TraceStore.open(part).metadata();
    assertEquals(List.of(3.0, 0.1), List.of(m.start(), m.origin()));
    Path partMetadata = part.resolve(StoreLayout.METADATA_FILE);
    Files.writeString(partMetadata, Files.readString(partMetadata).replace("\"origin\": 0.1", "\"origin\": \"soon\""));
    assertEquals(partMetadata + ": field origin: expected a number or null, found \"soon\"",
        assertThrows(StoreFormatException.class, () -> TraceStore.open(part)).getMessage());
  }

  @Test
  void metadataNotJson() throws IOException {
    Path metadata = dir.resolve(StoreLayout.METADATA_FILE);
    Files.writeString(metadata, "{\"format\": ");
    assertEquals(metadata + ": content: expected JSON, found Unexpected end-of-input within/between Object entries"
        + " at line 1, column 12", openError());
  }

  /** Found by fuzzing (StoreFuzzTest input metadata-not-utf8): it was the decoder's "Input length = 1". */
  @Test
  void metadataNotUtf8() throws IOException {
    Path metadata = dir.resolve(StoreLayout.METADATA_FILE);
    byte[] bytes = Files.readAllBytes(metadata);
    bytes[5] = (byte) 0xFF;
    Files.write(metadata, bytes);
    assertEquals(metadata + ": content: expected UTF-8 text, found a byte that is not at offset 5", openError());
  }
}
