package org.ocelotl.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;

/**
 * A store is current only while every file its reading used is as it was: an OTF2 archive's
 * event and definition files, a CTF trace's stream files, not just the anchor or the metadata
 * (issue 31: {@code info} still gave 1,500 states after {@code rm traces/*.evt}).
 */
class StalenessTest {
  @TempDir Path tmp;

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private Workspace imported(Path trace) throws IOException {
    Workspace workspace = Workspace.open(tmp.resolve("ws"));
    workspace.store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    assertTrue(workspace.current(trace).isPresent(), "current right after its import");
    return workspace;
  }

  @Test
  void anOtf2StoreIsStaleOnceAnEventFileIsDeleted() throws IOException {
    copyTree(SharedTraces.file("otf2/ez_mpi4"), tmp.resolve("a"));
    Path anchor = tmp.resolve("a/eztrace_log.otf2");
    Workspace workspace = imported(anchor);
    Files.delete(tmp.resolve("a/eztrace_log/536870911.evt"));
    assertEquals(java.util.Optional.empty(), workspace.current(anchor));
  }

  @Test
  void anOtf2StoreIsStaleOnceAnEventFileIsCutWithItsTimeKept() throws IOException {
    copyTree(SharedTraces.file("otf2/ez_mpi4"), tmp.resolve("a"));
    Path anchor = tmp.resolve("a/eztrace_log.otf2");
    Workspace workspace = imported(anchor);
    Path events = tmp.resolve("a/eztrace_log/0.evt");
    FileTime time = Files.getLastModifiedTime(events);
    byte[] bytes = Files.readAllBytes(events);
    Files.write(events, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Files.setLastModifiedTime(events, time);
    assertEquals(java.util.Optional.empty(), workspace.current(anchor));
  }

  @Test
  void aCtfStoreIsStaleOnceAStreamFileIsRewritten() throws IOException {
    copyTree(SharedTraces.file("ctf/ust-trace/ust/uid/0/64-bit"), tmp.resolve("c"));
    Path metadata = tmp.resolve("c/metadata");
    Workspace workspace = imported(metadata);
    Path stream = tmp.resolve("c/channel0_1");
    Files.setLastModifiedTime(stream, FileTime.fromMillis(Files.getLastModifiedTime(stream).toMillis() + 5_000));
    assertEquals(java.util.Optional.empty(), workspace.current(metadata));
  }
}
