package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * {@code ocelotl export --format chrome} read back by Ocelotl's Chrome reader: the same records
 * in every category, the states, events and links under their types' names, type by type. (A
 * variable becomes the counter "TYPE.PRODUCER" of its process in the reader, so only their total
 * is compared; the reader adds its own root and a "counters" producer, so producers are not.)
 */
class ChromeExportTest {
  static final Path BUNDLED = Path.of("../examples/smpi_perturbed.trace.gz");

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"bundled", "otf2/ez_mpi4/eztrace_log.otf2", "otf2/ez_hybrid/eztrace_log.otf2"})
  void theChromeReaderReadsBackTheSameRecords(String name) throws Exception {
    Path trace = name.equals("bundled") ? BUNDLED : SharedTraces.file(name);
    Path out = tmp.resolve("trace.json");
    CliTest.Result result = CliTest.run("export", trace.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--format", "chrome", "--out", out.toString());
    assertEquals(0, result.status(), result.err());
    Workspace ws = Workspace.open(tmp.resolve("ws"));
    StoreMetadata original = ws.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE).metadata();
    TraceStore back = ws.store(out, ImportOptions.DEFAULT, ImportProgress.NONE);
    assertEquals(List.of(), back.metadata().warnings());
    assertEquals("us", back.metadata().timeUnit());
    for (EventCategory category : EventCategory.values()) {
      assertEquals(original.count(category), back.metadata().count(category), category.name());
      if (category != EventCategory.VARIABLE) {
        assertEquals(countsByType(original, category), countsByType(back.metadata(), category), category.name());
      }
    }
  }

  /** A window: its records only, and the bundled trace's nancy site's states in µs. */
  @Test
  void aSelectionIsExportedClippedInMicroseconds() throws Exception {
    Path out = tmp.resolve("nancy.json");
    CliTest.Result result = CliTest.run("export", BUNDLED.toString(), "--workspace", tmp.resolve("ws").toString(),
        "--format", "chrome", "--from", "8", "--to", "9", "--producers", "nancy", "--out", out.toString());
    assertEquals(0, result.status(), result.err());
    Workspace ws = Workspace.open(tmp.resolve("ws"));
    StoreMetadata back = ws.store(out, ImportOptions.DEFAULT, ImportProgress.NONE).metadata();
    assertTrue(back.count(EventCategory.STATE) > 0);
    assertTrue(back.start() >= 8e6 && back.end() <= 9e6, back.start() + " " + back.end());
    String text = Files.readString(out);
    assertTrue(text.startsWith("{\"displayTimeUnit\":\"ms\""), text.substring(0, 40));
  }

  private static Map<String, Long> countsByType(StoreMetadata m, EventCategory category) {
    Map<String, Long> counts = new TreeMap<>();
    for (StoreMetadata.EventType t : m.types()) {
      if (t.category() == category && t.count() > 0) {
        counts.merge(t.name(), t.count(), Long::sum);
      }
    }
    return counts;
  }
}
