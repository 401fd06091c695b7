package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.format.otf2.Otf2Definitions.Location;
import org.ocelotl.split.Otf2Files;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads an OTF2 archive given its anchor file ({@code NAME.otf2}), in OTF2's own binary
 * encoding, without the OTF2 library. See docs/formats.md for the mapping: system tree ›
 * location groups › locations become the producer tree; Enter/Leave and MPI collectives nested
 * states; matched MPI point-to-point messages links; metrics variables; every other event record
 * a punctual event named by its kind. A location's local definitions (Score-P's id mapping
 * tables and clock offsets) translate its ids and times first, as OTF2's own reader does
 * ({@link Otf2LocalDefinitions}). Times stay in the archive's ticks (exact doubles), so they are
 * identical to what otf2-print shows; the time unit says what a tick is.
 */
public final class Otf2Reader implements TraceReader {
  private final Path spillParent;
  private final int sidesInMemory;

  /** Message sides beyond {@link SideSpill#IN_MEMORY} spilled to the system's temporary directory. */
  public Otf2Reader() {
    this(Path.of(System.getProperty("java.io.tmpdir")), SideSpill.IN_MEMORY);
  }

  /** Message sides beyond {@code sidesInMemory} spilled to a directory made in {@code spillParent}. */
  Otf2Reader(Path spillParent, int sidesInMemory) {
    this.spillParent = spillParent;
    this.sidesInMemory = sidesInMemory;
  }

  /** An OTF2 anchor file: a chunk header (3, endianness mark) then "OTF2" and a NUL. */
  public static boolean sniff(byte[] head) {
    if (head.length < 7 || head[0] != Otf2Input.CHUNK_HEADER
        || (head[1] != Otf2Input.LITTLE_ENDIAN_MARK && head[1] != Otf2Input.BIG_ENDIAN_MARK)) {
      return false;
    }
    for (int i = 0; i < 4; i++) {
      if (head[2 + i] != Otf2Anchor.MAGIC[i]) {
        return false;
      }
    }
    return head[6] == 0;
  }

  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    Otf2Anchor anchor = Otf2Anchor.read(Otf2Files.local(file));
    Otf2Definitions definitions = Otf2Definitions.read(anchor, options.bytesRead());
    try (SideSpill spill = new SideSpill(spillParent, sidesInMemory)) {
      assemble(anchor, definitions, sink, spill, (events, location, producer) -> {
        Otf2LocalDefinitions local = Otf2LocalDefinitions.read(anchor, location);
        try (Otf2Input in = Otf2Input.open(anchor.files(), anchor.eventFile(location), anchor.eventChunkSize(), false)) {
          return events.readLocation(in, local, producer, options.bytesRead());
        }
      });
    }
  }

  /**
   * How the events of one location reach the reader: decoded now, or, when the Spark import plans
   * its parts ({@link Otf2Split#plan}), a task's summary of them (types, counts, bounds, channels).
   */
  @FunctionalInterface
  interface LocationSource {
    /** Feeds the events of {@code location} (producer {@code producer}) through {@code events}; returns their count. */
    long read(Otf2Events events, long location, int producer) throws IOException;
  }

  /**
   * Everything after the definitions, location after location in definition order: the local
   * import's sequence of sink calls, and the plan of the Spark import's parts ({@link Otf2Split}),
   * whose type ids, bounds and warnings are therefore the local import's. {@code spill}: where the
   * message sides that wait beyond memory go (null: memory holds them all, as the plan's channel
   * summaries).
   */
  static void assemble(Otf2Anchor anchor, Otf2Definitions definitions, TraceSink sink, SideSpill spill,
      LocationSource source) throws IOException {
    definitions.redefinitions.forEach((kind, count) -> sink.warning(count + " × " + kind
        + " id defined again (the last definition is used)"));
    Map<Long, Integer> producers = declareProducers(anchor, definitions, sink);
    Otf2Events events = new Otf2Events(definitions, sink, producers, null, spill);
    long wrongCounts = 0;
    for (Map.Entry<Long, Location> entry : definitions.locations.entrySet()) {
      long location = entry.getKey();
      Integer producer = producers.get(location);
      if (producer == null) {
        throw new TraceFormatException(anchor.files().name(anchor.globalDefinitionFile()) + ": location " + location
            + " is not reachable from the system tree (cyclic parents)");
      }
      long count = source.read(events, location, producer);
      if (count != entry.getValue().events()) {
        wrongCounts++;
      }
    }
    if (wrongCounts > 0) {
      sink.warning(wrongCounts + " location(s) hold another number of events than their"
          + " definition announces (the events read are kept)");
    }
    events.finish();
    double start = events.first();
    double end = events.last();
    if (start > end) {
      start = definitions.globalOffset;
      end = definitions.globalOffset + definitions.traceLength;
    }
    sink.end(start, end, timeUnit(definitions.timerResolution));
  }

  /** Ticks per second → the unit of a tick. */
  static String timeUnit(long ticksPerSecond) {
    return switch ((int) Math.min(ticksPerSecond, Integer.MAX_VALUE)) {
      case 1 -> "s";
      case 1_000 -> "ms";
      case 1_000_000 -> "us";
      case 1_000_000_000 -> "ns";
      default -> "ticks@" + Long.toUnsignedString(ticksPerSecond) + "/s";
    };
  }

  /** A node of the producer tree before ids are given: key "n|g|l" + OTF2 id. */
  private record Entry(String key, String name, String kind, Long location) {}

  /**
   * Producer 0 is the root of the system tree when it has exactly one root, else a synthetic root
   * named after the archive; system tree nodes, location groups and locations follow
   * breadth-first so that every parent is declared before its children. A dangling parent
   * reference hangs the node under the root.
   */
  static Map<Long, Integer> declareProducers(Otf2Anchor anchor,
      Otf2Definitions definitions, TraceSink sink) {
    Map<String, List<Entry>> children = new HashMap<>();
    List<Entry> roots = new ArrayList<>();
    definitions.systemTreeNodes.forEach((id, node) -> attach(children, roots,
        definitions.systemTreeNodes.containsKey(node.parent()) ? "n" + node.parent() : null,
        new Entry("n" + id, node.name(), node.kind(), null)));
    definitions.locationGroups.forEach((id, group) -> attach(children, roots,
        definitions.systemTreeNodes.containsKey(group.parent()) ? "n" + group.parent() : null,
        new Entry("g" + id, group.name(), group.kind(), null)));
    definitions.locations.forEach((id, location) -> attach(children, roots,
        definitions.locationGroups.containsKey(location.group()) ? "g" + location.group() : null,
        new Entry("l" + id, location.name(), locationKind(location.type()), id)));

    Map<Long, Integer> producerOfLocation = new HashMap<>();
    double created = definitions.globalOffset;
    String rootKey;
    if (roots.size() == 1) {
      Entry root = roots.get(0);
      declare(sink, 0, root, -1, created, producerOfLocation);
      rootKey = root.key();
    } else {
      sink.producer(0, anchor.name(), "archive", -1, created);
      rootKey = "";
      children.put(rootKey, roots);
    }
    Deque<String> keys = new ArrayDeque<>(List.of(rootKey));
    Deque<Integer> ids = new ArrayDeque<>(List.of(0));
    int next = 1;
    while (!keys.isEmpty()) {
      String key = keys.poll();
      int parent = ids.poll();
      for (Entry child : children.getOrDefault(key, List.of())) {
        declare(sink, next, child, parent, created, producerOfLocation);
        keys.add(child.key());
        ids.add(next++);
      }
    }
    return producerOfLocation;
  }

  private static void attach(Map<String, List<Entry>> children, List<Entry> roots,
      String parentKey, Entry entry) {
    if (parentKey == null) {
      roots.add(entry);
    } else {
      children.computeIfAbsent(parentKey, k -> new ArrayList<>()).add(entry);
    }
  }

  private static void declare(TraceSink sink, int id, Entry entry, int parent, double created,
      Map<Long, Integer> producerOfLocation) {
    sink.producer(id, entry.name(), entry.kind(), parent, created);
    if (entry.location() != null) {
      producerOfLocation.put(entry.location(), id);
    }
  }

  private static String locationKind(int type) {
    return switch (type) {
      case 1 -> "thread";
      case 2 -> "accelerator stream";
      case 3 -> "metric location";
      default -> "location";
    };
  }
}
