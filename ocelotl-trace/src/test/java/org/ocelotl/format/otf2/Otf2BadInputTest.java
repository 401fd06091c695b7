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
import org.ocelotl.testing.SharedTraces;
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

  /** A copy of the Score-P-style archive of the test resources (see Otf2ReaderTest). */
  private Path copyOfScoreP() throws IOException {
    Path source = Path.of("src/test/resources/org/ocelotl/format/otf2/scorep");
    Files.createDirectories(dir.resolve("traces"));
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file)) {
          Files.copy(file, dir.resolve(source.relativize(file).toString()));
        }
      }
    }
    return dir.resolve("traces.otf2");
  }

  private static int indexOf(byte[] bytes, byte[] sequence, int from) {
    for (int i = from; i + sequence.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + sequence.length, sequence, 0, sequence.length)) {
        return i;
      }
    }
    return -1;
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
   * 0.def opens (after its 18-byte chunk header) with the dense REGION mapping table: kind 5,
   * length, mapping type 3, size (1, 11), mode 0. A mode that is neither dense nor sparse is
   * refused at the record.
   */
  @Test
  void mappingTableOfAnUnknownModeIsRefusedAtItsRecord() throws IOException {
    Path anchor = copyOfScoreP();
    Path local = dir.resolve("traces/0.def");
    byte[] bytes = Files.readAllBytes(local);
    assertEquals(Arrays.toString(new byte[] {5, 3, 1, 11, 0}),
        Arrays.toString(new byte[] {bytes[18], bytes[20], bytes[21], bytes[22], bytes[23]}));
    bytes[23] = 7;
    Files.write(local, bytes);
    assertEquals(local + "@18: mapping table mode 7: expected 0 (dense) or 1 (sparse)", readFails(anchor).getMessage());
  }

  /** Two clock offsets at one time make no interval (OTF2's reader refuses them too). */
  @Test
  void clockOffsetsNotIncreasingInTimeAreRefusedAtTheSecond() throws IOException {
    Path anchor = copyOfScoreP();
    Path local = dir.resolve("traces/1.def");
    byte[] bytes = Files.readAllBytes(local);
    // ClockOffset: kind 6, length 19, the time as 8 raw bytes (little-endian 1,000,000,000 then 1,000,144,000).
    byte[] first = {6, 19, 0, (byte) 0xca, (byte) 0x9a, 0x3b, 0, 0, 0, 0};
    int at = indexOf(bytes, first, 0);
    int second = indexOf(bytes, new byte[] {6, 19}, at + first.length);
    assertTrue(at > 0 && second > at, "two clock offsets in 1.def");
    System.arraycopy(first, 2, bytes, second + 2, 8);
    Files.write(local, bytes);
    assertEquals(local + "@" + second
        + ": clock offset at time 1000000000: expected a time after the previous offset's 1000000000",
        readFails(anchor).getMessage());
  }

  @Test
  void localDefinitionsCutInTheMiddle() throws IOException {
    Path anchor = copyOfScoreP();
    Path local = dir.resolve("traces/2.def");
    cut(local, 40); // inside the first record: kind 5 at byte 18, its length 25 at byte 19
    assertEquals(local + "@19: record length 25 runs past the end of its chunk", readFails(anchor).getMessage());
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

  /**
   * Issue 14's finding: a METRIC record with more or fewer values than its metric has members
   * (the reader indexed the metric's variables by the record's count). Location 0's METRIC records
   * of metric 3 are at bytes 63 and 353 of 0.evt: kind 31, length 18, metric (compressed: 1 byte,
   * 3), count 2, then a uint64 and a double. The second's count set to 3 is refused at the byte
   * after its count (without the check, its third value indexed past the metric's two variables).
   */
  @Test
  void aMetricRecordOfAnotherValueCountIsRefusedAtItsRecord() throws IOException {
    Path anchor = copyOfScoreP();
    Path events = dir.resolve("traces/0.evt");
    byte[] bytes = Files.readAllBytes(events);
    assertEquals(Arrays.toString(new byte[] {31, 18, 1, 3, 2}), Arrays.toString(Arrays.copyOfRange(bytes, 353, 358)));
    bytes[357] = 3;
    Files.write(events, bytes);
    assertEquals(events + "@358: METRIC of metric 0 with 3 values: expected 2, as its definition and its first record",
        readFails(anchor).getMessage()); // local metric 3 is global metric 0 (0.def's mapping table)
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
