package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.trace.TraceFormatException;

/**
 * {@link StoreWriter#discarding}, the fuzz targets' writer, refuses what a store's writer refuses
 * with the same message, and counts what it would have written, chunk hand-offs included.
 */
class DiscardingWriterTest {
  @TempDir Path tmp;

  @Test
  void aStateEndingBeforeItStartsIsRefusedAsByTheStoreWriter() throws IOException {
    Path trace = Files.writeString(tmp.resolve("reversed.csv"),
        "Container, 0, P, 0, 9, 9, p1\nState, p1, S, 5.0, 2.0, -3.0, 0, run\n");
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Importer.importTrace(trace,
        Formats.standard().named("pjdump"), ImportOptions.DEFAULT, ImportProgress.NONE, StoreWriter.discarding(4)));
    assertEquals(trace + ":2: a state of p1 (run) ends before it starts: [5.0, 2.0]\n  State, p1, S, 5.0, 2.0, -3.0, 0, run",
        e.getMessage());
  }

  @Test
  void aTraceWithoutEndIsRefusedAsByTheStoreWriter() throws IOException {
    StoreWriter writer = StoreWriter.discarding(4);
    writer.producer(0, "root", "root", -1, 0);
    assertEquals("the reader never called end(): the trace is incomplete",
        assertThrows(IllegalStateException.class, () -> writer.finish(null)).getMessage());
  }

  @Test
  void itCountsWhatTheStoreWriterWrites() throws IOException {
    StringBuilder csv = new StringBuilder("Container, 0, P, 0, 9, 9, p1\n");
    for (int i = 0; i < 10; i++) { // 10 states in chunks of 4: two full chunks handed off, one left
      csv.append("State, p1, S, ").append(i).append(".0, ").append(i).append(".5, 0.5, 0, run\n");
    }
    Path trace = Files.writeString(tmp.resolve("ten.csv"), csv);
    Path store = Files.createDirectory(tmp.resolve("store"));
    StoreMetadata written = Importer.importTrace(trace, Formats.standard().named("pjdump"), ImportOptions.DEFAULT,
        ImportProgress.NONE, store, 4);
    StoreMetadata discarded = Importer.importTrace(trace, Formats.standard().named("pjdump"), ImportOptions.DEFAULT,
        ImportProgress.NONE, StoreWriter.discarding(4));
    assertEquals("[10, 0, 0, 0]", Arrays.toString(written.counts()));
    assertEquals(Arrays.toString(written.counts()), Arrays.toString(discarded.counts()));
    assertEquals(written.types(), discarded.types());
    assertEquals(written.warnings(), discarded.warnings());
    assertEquals(List.of(written.start(), written.end()), List.of(discarded.start(), discarded.end()));
  }
}
