package org.ocelotl.format.otf2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.trace.MemoryTrace;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceSink;

/**
 * Message sides spilled to disk ({@link SideSpill}) match as they do in memory: the same sink
 * calls, in the same order, whatever the budget, and the temporary files are gone after the
 * import, whether it succeeded or failed.
 */
class SideSpillTest {
  private static final StoreMetadata.Source SOURCE = new StoreMetadata.Source("trace.otf2", 1, 2, "f", "otf2");

  @TempDir Path tmp;

  /**
   * Seeded random programs of 4 locations (producers 1–4, read in that order): each location
   * sends to and receives from the others and itself on 3 tags, in an order of its own, so that a
   * location takes its peers' sides out of order (the spill's cursor passes sides on to memory),
   * some sides stay unmatched and some receives come before their sends. Every budget gives the
   * sink calls of the reader that holds everything in memory.
   */
  @Test
  void spilledSidesMatchAsInMemory() throws IOException {
    for (long seed = 1; seed <= 200; seed++) {
      List<List<double[]>> program = program(new Random(seed));
      MemoryTrace inMemory = run(program, null);
      for (int budget : new int[] {0, 1, 2, 5}) {
        Path parent = Files.createDirectory(tmp.resolve("seed" + seed + "-" + budget));
        MemoryTrace spilled;
        try (SideSpill spill = new SideSpill(parent, budget)) {
          spilled = run(program, spill);
        }
        String message = "seed " + seed + ", " + budget + " side(s) in memory";
        assertEquals(inMemory.links, spilled.links, message);
        assertEquals(inMemory.events, spilled.events, message);
        assertEquals(inMemory.types, spilled.types, message);
        assertEquals(inMemory.warnings, spilled.warnings, message);
        assertEquals(List.of(), list(parent), message);
      }
    }
  }

  /** Per location 1–4, its sides: {peer, tag, send (1) or receive (0), time, length}. */
  private static List<List<double[]>> program(Random random) {
    List<List<double[]>> program = new ArrayList<>();
    for (int location = 1; location <= 4; location++) {
      List<double[]> sides = new ArrayList<>();
      int count = random.nextInt(30);
      for (int i = 0; i < count; i++) {
        sides.add(new double[] {1 + random.nextInt(4), random.nextInt(3), random.nextInt(2),
            random.nextInt(1000), random.nextInt(100)});
      }
      program.add(sides);
    }
    return program;
  }

  private static MemoryTrace run(List<List<double[]>> program, SideSpill spill) throws IOException {
    MemoryTrace trace = new MemoryTrace();
    Otf2Events events = new Otf2Events(new Otf2Definitions(), trace, Map.of(), null, spill);
    for (int location = 1; location <= program.size(); location++) {
      events.startLocation(location);
      for (double[] side : program.get(location - 1)) {
        int peer = (int) side[0];
        boolean send = side[2] == 1;
        events.messageEnd(send ? location : peer, send ? peer : location, (long) side[1], send, side[3],
            send ? Otf2Records.MPI_ISEND : Otf2Records.MPI_RECV, (long) side[4]);
      }
      events.endLocation(location);
    }
    events.finish();
    return trace;
  }

  static Stream<Path> archives() {
    return Stream.of(Path.of("src/test/resources/org/ocelotl/format/otf2/scorep/traces.otf2"),
        SharedTraces.file("otf2/ez_mpi4/eztrace_log.otf2"), SharedTraces.file("otf2/ez_hybrid/eztrace_log.otf2"),
        SharedTraces.file("otf2/pytrace/traces.otf2"));
  }

  /**
   * Every side that waits spilled (budget 0) or a few held (budget 3): the store is the one of
   * the reader's default budget, file for file, byte for byte; nothing is left in the spill's
   * directory. The Score-P-style archive matches 72 messages across event files; ez_mpi4 leaves
   * 4,000 sends unmatched, read back from disk at their receiver's end.
   */
  @ParameterizedTest
  @MethodSource("archives")
  void aStoreReadWithSpilledSidesIsTheSame(Path anchor) throws IOException {
    String expected = store(anchor, new Otf2Reader(), "default");
    for (int budget : new int[] {0, 3}) {
      Path parent = Files.createDirectory(tmp.resolve("spill-" + budget));
      assertEquals(expected, store(anchor, new Otf2Reader(parent, budget), "budget" + budget), anchor + ", " + budget);
      assertEquals(List.of(), list(parent), anchor + ", " + budget);
    }
  }

  /**
   * An import that fails while sides are on disk (the sink refuses the 10th link, as the store
   * writer refuses a record) leaves no file behind, and says where it failed.
   */
  @Test
  void aFailedImportLeavesNoSpilledFile() throws IOException {
    Path parent = Files.createDirectory(tmp.resolve("spill"));
    Path anchor = Path.of("src/test/resources/org/ocelotl/format/otf2/scorep/traces.otf2");
    List<Integer> filesAtFailure = new ArrayList<>();
    TraceSink refusing = new Forwarding(new MemoryTrace()) {
      private int links;

      @Override
      public void link(int type, int from, int to, double start, double end, double volume) {
        if (++links == 10) {
          try (Stream<Path> files = Files.walk(parent)) {
            filesAtFailure.add((int) files.filter(Files::isRegularFile).count());
          } catch (IOException e) {
            throw new AssertionError(e);
          }
          throw new IllegalArgumentException("refused for the test");
        }
      }
    };
    TraceFormatException failure = assertThrows(TraceFormatException.class,
        () -> new Otf2Reader(parent, 0).read(anchor, refusing, ReadOptions.STRICT));
    assertTrue(failure.getMessage().contains("refused for the test"), failure.getMessage());
    assertTrue(filesAtFailure.get(0) > 0, "no side was on disk when the import failed");
    assertEquals(List.of(), list(parent));
  }

  /**
   * A killed import never deleted its directory: the next import that spills deletes it, not the
   * directory of a process still running nor a directory named otherwise.
   */
  @Test
  void theDirectoryOfAKilledImportGoesAtTheNextSpill() throws IOException {
    Path parent = Files.createDirectory(tmp.resolve("spill"));
    Path killed = Files.createDirectory(parent.resolve(SideSpill.PREFIX + Long.MAX_VALUE + "-1"));
    Files.writeString(killed.resolve("3.sides"), "sides");
    Path running = Files.createDirectory(parent.resolve(SideSpill.PREFIX + ProcessHandle.current().pid() + "-2"));
    Path other = Files.createDirectory(parent.resolve(SideSpill.PREFIX + "x"));
    new Otf2Reader(parent, 0).read(Path.of("src/test/resources/org/ocelotl/format/otf2/scorep/traces.otf2"),
        new MemoryTrace(), ReadOptions.STRICT);
    assertEquals(List.of(running, other), list(parent).stream().sorted().toList());
  }

  private String store(Path anchor, Otf2Reader reader, String name) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve(name + "-" + System.nanoTime()));
    StoreWriter writer = new StoreWriter(dir);
    reader.read(anchor, writer, ReadOptions.STRICT);
    writer.finish(SOURCE);
    StringBuilder digests = new StringBuilder();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        digests.append(file.getFileName()).append(' ').append(HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)))).append('\n');
      }
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    return digests.toString();
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  /** A sink that passes every call on. */
  private static class Forwarding implements TraceSink {
    private final TraceSink to;

    Forwarding(TraceSink to) {
      this.to = to;
    }

    @Override
    public void producer(int id, String name, String kind, int parent, double created) {
      to.producer(id, name, kind, parent, created);
    }

    @Override
    public void producerEnd(int id, double destroyed) {
      to.producerEnd(id, destroyed);
    }

    @Override
    public void eventType(int id, String name, EventCategory category, String group, String color) {
      to.eventType(id, name, category, group, color);
    }

    @Override
    public void state(int producer, int type, double start, double end, int depth, int outer) {
      to.state(producer, type, start, end, depth, outer);
    }

    @Override
    public void event(int producer, int type, double time) {
      to.event(producer, type, time);
    }

    @Override
    public void variable(int producer, int type, double time, double value) {
      to.variable(producer, type, time, value);
    }

    @Override
    public void link(int type, int from, int to, double start, double end, double volume) {
      this.to.link(type, from, to, start, end, volume);
    }

    @Override
    public void warning(String message) {
      to.warning(message);
    }

    @Override
    public void end(double start, double end, String timeUnit) {
      to.end(start, end, timeUnit);
    }
  }
}
