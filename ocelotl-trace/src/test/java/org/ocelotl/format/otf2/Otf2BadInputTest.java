package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.format.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;

/** Damaged archives fail with the file and offset; real irregularities only warn. */
class Otf2BadInputTest {
  @TempDir Path dir;

  private Path copyOf(String archiveDir) throws IOException {
    Path source = SharedTraces.file(archiveDir);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = dir.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    return dir.resolve("eztrace_log.otf2");
  }

  private static void cut(Path file, int keep) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, keep));
  }

  private static TraceFormatException readFails(Path anchor) {
    return assertThrows(TraceFormatException.class,
        () -> new Otf2Reader().read(anchor, new MemoryTrace(), ReadOptions.STRICT));
  }

  @Test
  void eventFileCutInTheMiddleNamesFileAndOffset() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Path events = dir.resolve("eztrace_log/536870911.evt");
    cut(events, 60_001);
    String message = readFails(anchor).getMessage();
    assertTrue(message.startsWith(events + "@"), message);
    assertTrue(message.contains("truncated"), message);
  }

  @Test
  void definitionsCutInTheMiddle() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Path definitions = dir.resolve("eztrace_log.def");
    cut(definitions, 1000);
    String message = readFails(anchor).getMessage();
    assertTrue(message.startsWith(definitions + "@"), message);
  }

  @Test
  void missingEventFile() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Files.delete(dir.resolve("eztrace_log/0.evt"));
    String message = readFails(anchor).getMessage();
    assertTrue(message.contains("0.evt") && message.contains("missing"), message);
  }

  @Test
  void anchorWithoutMagic() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    byte[] bytes = Files.readAllBytes(anchor);
    bytes[3] = 'X';
    Files.write(anchor, bytes);
    assertFalse(Otf2Reader.sniff(bytes));
    String message = readFails(anchor).getMessage();
    assertEquals(anchor + "@2: not an OTF2 anchor file: magic \"OTF2\" missing", message);
  }

  @Test
  void invalidCompressedIntegerIsReportedAtItsByte() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Path events = dir.resolve("eztrace_log/0.evt");
    byte[] bytes = Files.readAllBytes(events);
    // 0.evt opens with a timestamp (5 + 8 bytes) then THREAD_BEGIN (63, length 2, ff, 00);
    // the first ENTER (12) follows the next timestamp: make its region length byte 9.
    int enter = 18 + 9 + 4 + 9;
    assertEquals(12, bytes[enter]);
    bytes[enter + 1] = 9;
    Files.write(events, bytes);
    assertEquals(events + "@" + (enter + 1)
        + ": invalid compressed integer: length byte 9 (at most 4)", readFails(anchor).getMessage());
  }

  /** An ENTER of a region the definitions lack: refused at its byte, not stored as a made-up name. */
  @Test
  void enterOfAnUndefinedRegionIsRefusedAtItsByte() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Path events = dir.resolve("eztrace_log/0.evt");
    byte[] bytes = Files.readAllBytes(events);
    int enter = 18 + 9 + 4 + 9; // the first ENTER: type 12, then its region (one length byte, one value byte)
    assertEquals(12, bytes[enter]);
    assertEquals(1, bytes[enter + 1]);
    bytes[enter + 2] = 99;
    Files.write(events, bytes);
    assertEquals(events + "@" + (enter + 3) + ": ENTER of region 99: expected a region the definitions define",
        readFails(anchor).getMessage());
  }

  /**
   * A group whose member count is larger than the bytes left of its chunk is refused before its
   * members are allocated (issue 14: counts from the file allocated gigabytes). ez_mpi4's first
   * GROUP record (MPI_COMM_WORLD) is at byte 220 of its definitions; its count, one byte 4 after
   * the length byte 1 at 226, is read as four bytes once that length byte is 4: 0xFF040004.
   */
  @Test
  void aGroupWithMoreMembersThanItsChunkHoldsIsRefusedAtItsByte() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    Path definitions = dir.resolve("eztrace_log.def");
    byte[] bytes = Files.readAllBytes(definitions);
    assertEquals("12 19 00 01 09 06 01 04", String.format("%02x %02x %02x %02x %02x %02x %02x %02x", bytes[220],
        bytes[221], bytes[222], bytes[223], bytes[224], bytes[225], bytes[226], bytes[227]));
    bytes[226] = 4;
    Files.write(definitions, bytes);
    assertEquals(definitions + "@231: group with 4278452228 members in the 1809 bytes left of its chunk",
        readFails(anchor).getMessage());
  }

  /** The anchor's event chunk size (bytes 12 to 19, little-endian) set to 0: refused at its byte. */
  @Test
  void aChunkSizeNoChunkFitsIsRefusedAtItsByteInTheAnchor() throws IOException {
    Path anchor = copyOf("otf2/ez_mpi4");
    byte[] bytes = Files.readAllBytes(anchor);
    assertEquals(16 << 20, java.nio.ByteBuffer.wrap(bytes, 12, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
    Arrays.fill(bytes, 12, 20, (byte) 0);
    Files.write(anchor, bytes);
    assertEquals(anchor + "@12: event chunk size 0: expected 20 to 2147483647 bytes", readFails(anchor).getMessage());
  }

  @Test
  void realIrregularitiesOfEzTraceAreWarnings() throws IOException {
    MemoryTrace trace = new MemoryTrace();
    new Otf2Reader().read(SharedTraces.file("otf2/ez_mpi4/eztrace_log.otf2"), trace,
        ReadOptions.STRICT);
    String warnings = String.join("\n", trace.warnings);
    assertTrue(warnings.contains("GROUP id defined again"), warnings);
    assertTrue(warnings.contains("4 location(s) hold another number of events"), warnings);
    assertTrue(warnings.contains("4000 × message without its matching send/receive"), warnings);
  }

  @Test
  void sniffsAnchorsOnly() throws IOException {
    Path anchor = SharedTraces.file("otf2/pytrace/traces.otf2");
    assertTrue(Otf2Reader.sniff(Files.readAllBytes(anchor)));
    Path events = SharedTraces.file("otf2/pytrace/traces/0.evt");
    assertFalse(Otf2Reader.sniff(Files.readAllBytes(events)));
  }
}
