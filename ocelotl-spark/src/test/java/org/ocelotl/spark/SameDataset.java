package org.ocelotl.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.io.LocalInputFile;
import org.ocelotl.model.EventCategory;
import org.ocelotl.parquet.ParquetExport;
import org.ocelotl.parquet.ParquetRecords;
import org.ocelotl.parquet.ParquetTable;
import org.ocelotl.store.Columns;
import org.ocelotl.store.EventColumns;
import org.ocelotl.store.LinkColumns;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.VariableColumns;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * A dataset of a Spark import against the local export of the same trace, for the imports whose
 * partitions write their own files (Pajé, OTF2): the rows come in another order than the local
 * export's, so the records are compared sorted.
 */
final class SameDataset {
  private SameDataset() {}

  /**
   * The Spark dataset against the local export of the same trace (imported in {@code work}'s
   * workspace, exported there once): metadata.json's producers (with their counts), types (same ids,
   * counts), bounds, counts and warnings, and every table's records, sorted, bit for bit. Returns the
   * local metadata.
   */
  static StoreMetadata assertSameDataset(Path trace, Path onSpark, Path work) throws IOException {
    TraceStore store = Workspace.open(work.resolve("ws")).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    Path local = work.resolve("local-" + trace.getParent().getFileName() + "-" + trace.getFileName());
    if (!Files.exists(local)) {
      ParquetExport.write(store, local, ParquetExport.CHUNKS_PER_FILE, false);
    }
    StoreMetadata expected = metadata(local);
    StoreMetadata actual = metadata(onSpark);
    assertEquals(producers(expected), producers(actual));
    assertEquals(expected.types(), actual.types());
    assertEquals(List.of(expected.start(), expected.end(), expected.timeUnit(), expected.warnings()),
        List.of(actual.start(), actual.end(), actual.timeUnit(), actual.warnings()));
    assertArrayEquals(expected.counts(), actual.counts());
    for (EventCategory category : EventCategory.values()) {
      List<String> a = rows(local, category);
      assertEquals(expected.count(category), a.size(), category.toString());
      assertEquals(a, rows(onSpark, category), category.toString());
    }
    return expected;
  }

  /** The producers with their record counts (a record's array is compared by identity). */
  private static List<String> producers(StoreMetadata metadata) {
    return metadata.producers().stream().map(p -> List.of(p.id(), p.name(), p.kind(), p.parent(), p.created(),
        p.destroyed(), p.emits(), Arrays.toString(p.counts())).toString()).toList();
  }

  private static StoreMetadata metadata(Path dataset) throws IOException {
    Path file = dataset.resolve(ParquetTable.METADATA_FILE);
    return StoreMetadata.parse(file, Files.readString(file));
  }

  /** Every record of a table, all columns, as exact text (Double.toString round-trips), sorted. */
  private static List<String> rows(Path dataset, EventCategory category) throws IOException {
    ParquetTable table = ParquetTable.of(category);
    List<String> rows = new ArrayList<>();
    try (Stream<Path> files = Files.list(dataset.resolve(table.directory()))) {
      for (Path file : files.sorted().toList()) {
        ParquetRecords.read(new LocalInputFile(file), file.toString(), category, table.columns(), null,
            Columns.of(category, 4096), batch -> {
              for (int i = 0; i < batch.size(); i++) {
                rows.add(row(batch, i));
              }
            });
      }
    }
    rows.sort(null);
    return rows;
  }

  private static String row(Columns c, int i) {
    if (c instanceof StateColumns s) {
      return Arrays.toString(new Object[] {s.start()[i], s.end()[i], s.producer()[i], s.type()[i], s.depth()[i]});
    } else if (c instanceof EventColumns e) {
      return Arrays.toString(new Object[] {e.time()[i], e.producer()[i], e.type()[i]});
    } else if (c instanceof VariableColumns v) {
      return Arrays.toString(new Object[] {v.start()[i], v.end()[i], v.value()[i], v.producer()[i], v.type()[i]});
    }
    LinkColumns l = (LinkColumns) c;
    return Arrays.toString(new Object[] {l.start()[i], l.end()[i], l.volume()[i], l.type()[i], l.from()[i], l.to()[i]});
  }
}
