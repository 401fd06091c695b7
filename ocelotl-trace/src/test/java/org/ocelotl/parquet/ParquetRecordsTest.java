package org.ocelotl.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;
import org.ocelotl.workspace.Formats;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The dataset's record files read back through the column readers give the store's records bit for
 * bit, in the store's order. Stores of 7-record chunks, 3 chunks per file, and batches of 5
 * records: batches end inside chunks and files end inside batches' worth of records. Events come
 * from pajeng's events.trace, link volumes and their absence (nulls) from ms.trace.
 */
class ParquetRecordsTest {
  static final int BATCH = 5;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"paje/simgrid/smpi_small_flat.trace", "paje/pajeng/events.trace", "paje/pajeng/ms.trace"})
  void theColumnsReadBackAreTheStores(String trace) throws IOException {
    TraceStore store = store(trace);
    Path dataset = tmp.resolve("dataset");
    ParquetExport.write(store, dataset, 3, false);
    for (EventCategory category : EventCategory.values()) {
      ParquetTable table = ParquetTable.of(category);
      List<long[]> expected = new ArrayList<>();
      Columns chunkColumns = Columns.of(category, store.metadata().chunkCapacity());
      for (Chunk chunk : store.chunks(category)) {
        store.read(chunk, chunkColumns);
        rows(chunkColumns, expected);
      }
      List<long[]> actual = new ArrayList<>();
      Columns batch = Columns.of(category, BATCH);
      for (Path file : files(dataset.resolve(table.directory()))) {
        ParquetRecords.read(new LocalInputFile(file), file.toString(), category, table.columns(), null, batch,
            b -> rows(b, actual));
      }
      assertEquals(expected.size(), actual.size(), table.directory());
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(Arrays.toString(expected.get(i)), Arrays.toString(actual.get(i)),
            table.directory() + " row " + i);
      }
    }
  }

  /** A row group whose statistics cannot pass is not read: a window after the trace yields no batch. */
  @Test
  void rowGroupsOutsideTheFilterAreSkipped() throws IOException {
    TraceStore store = store("paje/simgrid/smpi_small_flat.trace");
    Path dataset = tmp.resolve("dataset");
    ParquetExport.write(store, dataset, 3, false);
    double end = store.metadata().end();
    List<Path> files = files(dataset.resolve("states"));
    int[] batches = new int[2];
    List<String> start = List.of(ParquetTable.Columns.START);
    Columns batch = Columns.of(EventCategory.STATE, 64);
    for (Path file : files) {
      ParquetRecords.read(new LocalInputFile(file), file.toString(), EventCategory.STATE, start,
          FilterApi.gt(FilterApi.doubleColumn(ParquetTable.Columns.START), end), batch, b -> batches[0]++);
      ParquetRecords.read(new LocalInputFile(file), file.toString(), EventCategory.STATE, start,
          FilterApi.ltEq(FilterApi.doubleColumn(ParquetTable.Columns.START), end), batch, b -> batches[1]++);
    }
    assertEquals(0, batches[0]);
    assertEquals(files.size(), batches[1]);
  }

  /** A file of another table (another layout) is refused, naming the file and the column. */
  @Test
  void aFileOfAnotherLayoutIsRefused() throws IOException {
    TraceStore store = store("paje/pajeng/events.trace");
    Path dataset = tmp.resolve("dataset");
    ParquetExport.write(store, dataset, 3, false);
    Path events = files(dataset.resolve("events")).get(0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ParquetRecords.read(
        new LocalInputFile(events), events.toString(), EventCategory.STATE, List.of(ParquetTable.Columns.START), null,
        Columns.of(EventCategory.STATE, 64), b -> {}));
    assertEquals(events + ": column start_time: expected required double start_time, found none", e.getMessage());
  }

  private TraceStore store(String trace) throws IOException {
    return Workspace.open(tmp.resolve("ws"), Formats.standard(), 7)
        .store(SharedTraces.file(trace), ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.sorted().toList();
    }
  }

  /** Each record of the batch as the bits of its values, every column of the table (NaN as one NaN). */
  private static void rows(Columns c, List<long[]> into) {
    for (int i = 0; i < c.size(); i++) {
      if (c instanceof StateColumns s) {
        into.add(new long[] {bits(s.start()[i]), bits(s.end()[i]), s.producer()[i], s.type()[i], s.depth()[i]});
      } else if (c instanceof EventColumns e) {
        into.add(new long[] {bits(e.time()[i]), e.producer()[i], e.type()[i]});
      } else if (c instanceof VariableColumns v) {
        into.add(new long[] {bits(v.start()[i]), bits(v.end()[i]), bits(v.value()[i]), v.producer()[i], v.type()[i]});
      } else {
        LinkColumns l = (LinkColumns) c;
        into.add(new long[] {bits(l.start()[i]), bits(l.end()[i]), bits(l.volume()[i]), l.type()[i], l.from()[i],
            l.to()[i]});
      }
    }
  }

  private static long bits(double value) {
    return Double.doubleToLongBits(value);
  }
}
