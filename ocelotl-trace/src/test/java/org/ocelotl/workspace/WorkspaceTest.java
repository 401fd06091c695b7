package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.TraceStore;
import org.ocelotl.testing.ChildJvm;
import org.ocelotl.trace.TraceFormatException;

class WorkspaceTest {
  @TempDir Path tmp;
  Workspace workspace;
  Path trace;

  @BeforeEach
  void setUp() throws IOException {
    workspace = Workspace.open(tmp.resolve("ws"), FakeFormat.formats(), 4);
    trace = tmp.resolve("a.fake");
    Files.writeString(trace, "FAKE\ns 0 1\ns 1 3\ne 2\n");
  }

  private TraceStore store() throws IOException {
    return workspace.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
  }

  /** Names in the workspace's traces directory, temporary ones included. */
  private List<String> entries() throws IOException {
    try (Stream<Path> list = Files.list(workspace.directory().resolve(Workspace.TRACES))) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void firstUseImportsThenTheStoreIsReused() throws IOException {
    int before = FakeFormat.READS.get();
    TraceStore first = store();
    assertEquals(2, first.metadata().count(EventCategory.STATE));
    assertEquals(1, first.metadata().count(EventCategory.EVENT));
    assertEquals(trace.toRealPath().toString(), first.metadata().source().path());
    assertEquals("fake", first.metadata().source().format());
    TraceStore second = store();
    assertEquals(before + 1, FakeFormat.READS.get(), "the second use must not read the trace again");
    assertEquals(first.directory(), second.directory());
    assertEquals(List.of(first.directory().getFileName().toString()), entries());
  }

  @Test
  void aChangedSizeMeansReimport() throws IOException {
    store();
    Files.writeString(trace, "s 5 6\n", java.nio.file.StandardOpenOption.APPEND);
    assertEquals(3, store().metadata().count(EventCategory.STATE));
    assertEquals(1, entries().size(), "the old store is replaced, not kept beside");
  }

  @Test
  void aStoreOfAnotherFormatVersionIsImportedAgainWithANote() throws IOException {
    Path dir = store().directory();
    Path metadata = dir.resolve("metadata.json");
    Files.writeString(metadata, Files.readString(metadata).replaceFirst("\"version\": \\d+", "\"version\": 2"));
    int before = FakeFormat.READS.get();
    List<String> notes = new java.util.ArrayList<>();
    ImportProgress progress = new ImportProgress() {
      @Override
      public void update(long bytesRead, long totalBytes, long records) {}

      @Override
      public void note(String message) {
        notes.add(message);
      }
    };
    TraceStore again = workspace.store(trace, ImportOptions.DEFAULT, progress);
    assertEquals(before + 1, FakeFormat.READS.get(), "the trace is read again");
    assertEquals(2, again.metadata().count(EventCategory.STATE));
    assertEquals(List.of("the imported copy of a.fake cannot be read (" + metadata
        + ": format version: expected 4, found 2); importing the trace again"), notes);
    assertEquals(1, entries().size(), "the old store is replaced");
  }

  @Test
  void aChangedModificationTimeMeansReimport() throws IOException {
    store();
    int before = FakeFormat.READS.get();
    Files.setLastModifiedTime(trace, FileTime.fromMillis(Files.getLastModifiedTime(trace).toMillis() + 5000));
    store();
    assertEquals(before + 1, FakeFormat.READS.get());
  }

  @Test
  void sameSizeAndTimeButOtherContentMeansReimport() throws IOException {
    FileTime time = Files.getLastModifiedTime(trace);
    store();
    Files.writeString(trace, "FAKE\ns 0 1\ns 1 4\ne 2\n");
    Files.setLastModifiedTime(trace, time);
    TraceStore again = store();
    assertEquals(4.0, again.metadata().end(), "the fingerprint must see the changed content");
  }

  @Test
  void removeDeletesTheStore() throws IOException {
    TraceStore store = store();
    assertEquals(1, workspace.list().size());
    assertTrue(workspace.remove(trace.toString()));
    assertFalse(Files.exists(store.directory()));
    assertEquals(List.of(), workspace.list());
    assertFalse(workspace.remove(trace.toString()));
    store();
    assertTrue(workspace.remove(store.directory().getFileName().toString()), "by the listed name too");
    assertEquals(List.of(), entries());
  }

  @Test
  void removeWorksWhenTheTraceFileIsGone() throws IOException {
    store();
    Files.delete(trace);
    assertTrue(workspace.remove(trace.toString()));
    assertEquals(List.of(), entries());
  }

  @Test
  void badInputLeavesNothingBehind() throws IOException {
    Files.writeString(trace, "FAKE\ns 0 1\nbogus line\n");
    TraceFormatException e = assertThrows(TraceFormatException.class, this::store);
    assertEquals(trace.toRealPath() + ":3: expected 's START END' or 'e TIME'\n  bogus line", e.getMessage());
    assertEquals(List.of(), entries());
    assertEquals(List.of(), workspace.list());
  }

  @Test
  void lenientImportKeepsTheWarnings() throws IOException {
    Files.writeString(trace, "FAKE\ns 0 1\nbogus\nworse\n");
    TraceStore store = workspace.store(trace, new ImportOptions(null, true), ImportProgress.NONE);
    assertEquals(List.of("2 malformed lines skipped"), store.metadata().warnings());
    assertEquals(1, store.metadata().count(EventCategory.STATE));
  }

  @Test
  void aReaderFailingMidwayLeavesNothingBehind() throws IOException {
    StringBuilder text = new StringBuilder("FAKE\n");
    for (int i = 0; i < 100; i++) {
      text.append("s ").append(i).append(' ').append(i + 1).append('\n'); // 25 chunks written already
    }
    Files.writeString(trace, text.append("throw\n"));
    assertThrows(TraceFormatException.class, this::store);
    assertEquals(List.of(), entries());
  }

  @Test
  void aSecondFormatIsAnErrorNamingTheKnownOnes() throws IOException {
    assertEquals("unknown format 'otf2'; known formats: fake", assertThrows(IllegalArgumentException.class,
        () -> workspace.store(trace, new ImportOptions("otf2", false), ImportProgress.NONE)).getMessage());
    Path other = tmp.resolve("b.txt");
    Files.writeString(other, "hello\n");
    assertEquals(other.toRealPath() + ": not a trace format Ocelotl recognises (fake); name the format with --format",
        assertThrows(TraceFormatException.class,
            () -> workspace.store(other, ImportOptions.DEFAULT, ImportProgress.NONE)).getMessage());
  }

  @Test
  void aMissingFileIsNamed() {
    Path missing = tmp.resolve("missing.trace");
    NoSuchFileException e = assertThrows(NoSuchFileException.class,
        () -> workspace.store(missing, ImportOptions.DEFAULT, ImportProgress.NONE));
    assertEquals(missing + ": no such file", e.getMessage());
  }

  @Test
  void abandonedTemporaryDirectoriesAreIgnoredThenRemoved() throws IOException {
    // A pid that no process has (pid_max is at most 2^22 on Linux).
    Path stale = workspace.directory().resolve(Workspace.TRACES).resolve("x.trace-0123.tmp-99999999-1");
    Files.createDirectories(stale);
    Files.writeString(stale.resolve("states.chunks"), "partial");
    assertEquals(List.of(), workspace.list());
    store();
    assertFalse(Files.exists(stale));
  }

  @Test
  void defaultDirectoryFollowsTheEnvironment() {
    assertEquals(Path.of("/o"), Workspace.defaultDirectory(Map.of("OCELOTL_HOME", "/o", "XDG_CACHE_HOME", "/x"), "/h"));
    assertEquals(Path.of("/x/ocelotl"), Workspace.defaultDirectory(Map.of("XDG_CACHE_HOME", "/x"), "/h"));
    assertEquals(Path.of("/h/.cache/ocelotl"), Workspace.defaultDirectory(Map.of(), "/h"));
  }

  /** Three processes importing one file at once: one reads it, the others wait for its store (issue 14). */
  @Test
  void simultaneousImportsByThreeProcessesMakeOneStore() throws Exception {
    StringBuilder content = new StringBuilder("FAKE\n");
    for (int i = 0; i < 200_000; i++) {
      content.append("s ").append(i).append(' ').append(i + 1).append('\n');
    }
    Files.writeString(trace, content);
    List<Process> children = new java.util.ArrayList<>();
    for (int k = 0; k < 3; k++) {
      children.add(new ProcessBuilder(ChildJvm.command("-Xmx256m", "-cp", System.getProperty("java.class.path"),
          FakeFormat.class.getName(), workspace.directory().toString(), trace.toString()))
          .redirectErrorStream(true).start());
    }
    int reads = 0;
    for (Process child : children) {
      String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      assertTrue(child.waitFor(120, TimeUnit.SECONDS));
      assertEquals(0, child.exitValue(), out);
      assertTrue(out.startsWith("READS "), out);
      reads += Integer.parseInt(out.substring("READS ".length()));
    }
    assertEquals(1, reads, "one process imported; the others found its store");
    assertEquals(200_000, store().metadata().count(EventCategory.STATE));
    assertEquals(1, entries().size());
  }

  /** Threads of one process (a server importing one file for two pages) likewise. */
  @Test
  void simultaneousImportsByThreadsMakeOneStore() throws Exception {
    int before = FakeFormat.READS.get();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Path>> stores = new java.util.ArrayList<>();
      for (int k = 0; k < 4; k++) {
        stores.add(pool.submit(() -> store().directory()));
      }
      Path first = stores.get(0).get();
      for (java.util.concurrent.Future<Path> f : stores) {
        assertEquals(first, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(before + 1, FakeFormat.READS.get(), "read once");
  }

  /** A trace whose name looks like a temporary directory's is still a trace: listed, and kept. */
  @Test
  void aTraceNamedLikeATemporaryIsListedAndKept() throws IOException {
    Path odd = tmp.resolve("x.tmp-12-3.fake");
    Files.writeString(odd, "FAKE\ns 0 1\n");
    TraceStore first = workspace.store(odd, ImportOptions.DEFAULT, ImportProgress.NONE);
    store(); // another import, which removes abandoned temporaries
    assertEquals(List.of("a.fake", "x.tmp-12-3.fake"), workspace.list().stream().map(s -> s.metadata().name()).toList());
    assertTrue(Files.isDirectory(first.directory()));
  }

  @Test
  void aKilledImportLeavesNoVisibleStore() throws Exception {
    Files.writeString(trace, "FAKE\nforever\n");
    Process child = new ProcessBuilder(ChildJvm.command("-Xmx256m", "-cp", System.getProperty("java.class.path"),
        FakeFormat.class.getName(), workspace.directory().toString(), trace.toString()))
        .redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      assertEquals("READY", line, "the child should be midway through its import");
      List<String> midway = entries();
      assertEquals(1, midway.size());
      assertTrue(midway.get(0).contains(".tmp-" + child.pid() + "-"), midway.toString());
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    }
    assertNotEquals(0, child.exitValue());
    assertEquals(List.of(), workspace.list(), "nothing visible after the kill");
    assertEquals(Optional.empty(), workspace.current(trace));
    Files.writeString(trace, "FAKE\ns 0 1\n");
    assertEquals(1, store().metadata().count(EventCategory.STATE));
    assertEquals(1, entries().size(), "the next import removed the killed one's directory");
  }

  /**
   * Ten threads importing one file again and again at once (ten {@code ocelotl import}s, 20
   * times each): every import succeeds, each replacing the store whole (issue 31; without the
   * lock, about a third failed on a store moved aside by another import: "…/metadata.json: no
   * such file").
   */
  @Test
  void tenSimultaneousExplicitImportsOfOneFileAllSucceed() throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(10);
    try {
      List<java.util.concurrent.Future<Long>> imports = new java.util.ArrayList<>();
      for (int k = 0; k < 10; k++) {
        imports.add(pool.submit(() -> {
          long states = 0;
          for (int round = 0; round < 20; round++) {
            states += Workspace.open(workspace.directory(), FakeFormat.formats(), 4)
                .importTrace(trace, ImportOptions.DEFAULT, ImportProgress.NONE).metadata().count(EventCategory.STATE);
          }
          return states;
        }));
      }
      for (java.util.concurrent.Future<Long> f : imports) {
        assertEquals(20 * 2L, f.get(300, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(2, store().metadata().count(EventCategory.STATE));
    assertEquals(1, entries().size());
  }

  /** A killed import's temporary directory goes when the workspace is next opened, by any command. */
  @Test
  void abandonedTemporaryDirectoriesAreRemovedWhenTheWorkspaceOpens() throws IOException {
    Path stale = workspace.directory().resolve(Workspace.TRACES).resolve("x.trace-0123.tmp-99999999-1");
    Files.createDirectories(stale);
    Files.writeString(stale.resolve("states.chunks"), "partial");
    Workspace.open(workspace.directory(), FakeFormat.formats(), 4);
    assertFalse(Files.exists(stale));
  }

  /** A full disk's error says where the import was writing, and leaves nothing behind. */
  @Test
  void aFullDiskNamesWhereTheImportWasWriting() throws IOException {
    Files.writeString(trace, "FAKE\ns 0 1\nfull\n");
    IOException e = assertThrows(IOException.class, this::store);
    assertEquals("importing " + trace.toRealPath() + " into " + workspace.directory().resolve(Workspace.TRACES)
        + ": No space left on device", e.getMessage());
    assertEquals(List.of(), entries());
  }
}
