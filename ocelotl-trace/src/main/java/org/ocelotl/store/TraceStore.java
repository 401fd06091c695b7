package org.ocelotl.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.trace.Utf8;

/**
 * An imported trace, opened for reading: metadata, the producer tree, and scans over the
 * chunks of each category as primitive columns, memory-mapped, with no per-record objects.
 *
 * <p>Everything is validated once, here: a store this version cannot read fails to open with
 * a {@link StoreFormatException} naming the file and the field. A TraceStore is immutable;
 * {@link #read} may be called from several threads at once, each with its own columns, which
 * is how a model builder scans chunks in parallel:
 * <pre>{@code
 * List<Chunk> chunks = store.chunks(EventCategory.STATE, from, to);
 * // per thread: StateColumns columns = store.stateColumns(); then for its chunks:
 * store.read(chunk, columns); kernel(columns.size(), columns.start(), ...);
 * }</pre>
 */
public final class TraceStore {
  /** Mappings are cut at chunk boundaries into regions below the 2 GiB limit of a mapping. */
  static final long MAX_REGION_BYTES = 1L << 30;

  private final Path directory;
  private final StoreMetadata metadata;
  private final ProducerTree tree;
  private final int[] nodeOfProducer;
  private final int[] leafOfProducer;
  private final Map<EventCategory, ChunkFile> files = new EnumMap<>(EventCategory.class);

  private TraceStore(Path directory, StoreMetadata metadata, TreeMapping mapping) {
    this.directory = directory;
    this.metadata = metadata;
    this.tree = mapping.tree;
    this.nodeOfProducer = mapping.nodeOfProducer;
    this.leafOfProducer = mapping.leafOfProducer;
  }

  /**
   * Opens and validates the store in {@code directory}.
   *
   * @throws NoSuchFileException when there is no complete store there
   * @throws StoreFormatException when a file is not what this version writes
   */
  public static TraceStore open(Path directory) throws IOException {
    Path metadataFile = directory.resolve(StoreLayout.METADATA_FILE);
    byte[] bytes = Files.readAllBytes(metadataFile);
    long notText = Utf8.invalidAt(bytes);
    if (notText >= 0) {
      throw new StoreFormatException(metadataFile, "content", "UTF-8 text", "a byte that is not at offset " + notText);
    }
    StoreMetadata metadata = StoreMetadata.parse(metadataFile, new String(bytes, StandardCharsets.UTF_8));
    TraceStore store = new TraceStore(directory, metadata, TreeMapping.of(metadataFile, metadata));
    for (EventCategory category : EventCategory.values()) {
      store.files.put(category, ChunkFile.open(directory, StoreLayout.columns(category), metadata));
    }
    return store;
  }

  public Path directory() {
    return directory;
  }

  /** The store's metadata file (JSON), which {@link StoreMetadata#parse} reads wherever it is copied. */
  public Path metadataFile() {
    return directory.resolve(StoreLayout.METADATA_FILE);
  }

  public StoreMetadata metadata() {
    return metadata;
  }

  /** Event types, indexed by the type ids the columns hold. */
  public List<StoreMetadata.EventType> types() {
    return metadata.types();
  }

  /**
   * The producer tree, parents numbered before children. A producer that has children and
   * records of its own gets a synthetic first child leaf named "NAME (self)" that holds its
   * records, so every record sits on a leaf.
   */
  /** Whether {@code directory} holds a store's metadata file (opening it tells whether it is valid). */
  public static boolean looksLikeStore(Path directory) {
    return Files.exists(directory.resolve(StoreLayout.METADATA_FILE));
  }

  public ProducerTree tree() {
    return tree;
  }

  /** Tree node of each producer id (index = producer id as the columns hold it). */
  public int[] nodeOfProducer() {
    return nodeOfProducer.clone();
  }

  /** Tree leaf node holding the records of each producer id: its own node, or its synthetic leaf. */
  public int[] leafOfProducer() {
    return leafOfProducer.clone();
  }

  /** All chunks of a category, in file order. */
  public List<Chunk> chunks(EventCategory category) {
    return List.of(files.get(category).chunks);
  }

  /** The chunks of a category that may hold records touching [from, to). */
  public List<Chunk> chunks(EventCategory category, double from, double to) {
    List<Chunk> selected = new ArrayList<>();
    for (Chunk chunk : files.get(category).chunks) {
      if (chunk.overlaps(from, to)) {
        selected.add(chunk);
      }
    }
    return selected;
  }

  /** Fills {@code columns} with one chunk; safe to call from several threads with distinct columns. */
  public void read(Chunk chunk, Columns columns) {
    if (columns.layout.category() != chunk.category()) {
      throw new IllegalArgumentException("columns for " + columns.layout.category() + " cannot hold a "
          + chunk.category() + " chunk");
    }
    if (columns.capacity() < chunk.size()) {
      throw new IllegalArgumentException("columns of capacity " + columns.capacity()
          + " cannot hold a chunk of " + chunk.size() + " records; use the store's own columns");
    }
    columns.fill(chunk, files.get(chunk.category()).bytes(chunk), 0, chunk.size());
  }

  /**
   * Fills {@code columns} with the records of one producer in a chunk (for links, those leaving
   * it), sorted by start: the producer's run, found by a binary search of the chunk's producer
   * directory, so that a query on a few producers costs what it keeps, not the chunk. Leaves
   * {@code columns} empty when the chunk holds none.
   */
  public void read(Chunk chunk, Columns columns, int producer) {
    if (columns.layout.category() != chunk.category()) {
      throw new IllegalArgumentException("columns for " + columns.layout.category() + " cannot hold a "
          + chunk.category() + " chunk");
    }
    ByteBuffer bytes = files.get(chunk.category()).bytes(chunk).order(StoreLayout.ORDER);
    int directory = columns.layout.directoryOffset(chunk.size());
    int low = 0;
    int high = chunk.producers() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int found = bytes.getInt(directory + mid * StoreLayout.DIRECTORY_ENTRY_BYTES);
      if (found < producer) {
        low = mid + 1;
      } else if (found > producer) {
        high = mid - 1;
      } else {
        int first = bytes.getInt(directory + mid * StoreLayout.DIRECTORY_ENTRY_BYTES + Integer.BYTES);
        int end = mid + 1 < chunk.producers()
            ? bytes.getInt(directory + (mid + 1) * StoreLayout.DIRECTORY_ENTRY_BYTES + Integer.BYTES)
            : chunk.size();
        columns.fill(chunk, bytes, first, end - first);
        return;
      }
    }
    columns.fill(chunk, bytes, 0, 0);
  }

  /** Columns of a category that can hold any chunk of this store. */
  public Columns columns(EventCategory category) {
    return Columns.of(category, metadata.chunkCapacity());
  }

  public StateColumns stateColumns() {
    return new StateColumns(metadata.chunkCapacity());
  }

  public EventColumns eventColumns() {
    return new EventColumns(metadata.chunkCapacity());
  }

  public VariableColumns variableColumns() {
    return new VariableColumns(metadata.chunkCapacity());
  }

  public LinkColumns linkColumns() {
    return new LinkColumns(metadata.chunkCapacity());
  }

  /** Visits, in time order of their first start, the state chunks that may touch [from, to). */
  public void scanStates(double from, double to, ChunkVisitor<? super StateColumns> visitor) {
    scan(EventCategory.STATE, from, to, stateColumns(), visitor);
  }

  public void scanEvents(double from, double to, ChunkVisitor<? super EventColumns> visitor) {
    scan(EventCategory.EVENT, from, to, eventColumns(), visitor);
  }

  public void scanVariables(double from, double to, ChunkVisitor<? super VariableColumns> visitor) {
    scan(EventCategory.VARIABLE, from, to, variableColumns(), visitor);
  }

  public void scanLinks(double from, double to, ChunkVisitor<? super LinkColumns> visitor) {
    scan(EventCategory.LINK, from, to, linkColumns(), visitor);
  }

  private <C extends Columns> void scan(EventCategory category, double from, double to, C columns,
      ChunkVisitor<? super C> visitor) {
    for (Chunk chunk : files.get(category).chunks) {
      if (chunk.overlaps(from, to)) {
        read(chunk, columns);
        visitor.visit(columns);
      }
    }
  }

  /** The validated index and the mapped regions of one chunk file. */
  private static final class ChunkFile {
    final Chunk[] chunks;
    final MappedByteBuffer[] regions;
    final long[] regionStarts;
    final int[] regionOfChunk;
    final StoreLayout.Columns layout;

    private ChunkFile(StoreLayout.Columns layout, Chunk[] chunks, MappedByteBuffer[] regions,
        long[] regionStarts, int[] regionOfChunk) {
      this.layout = layout;
      this.chunks = chunks;
      this.regions = regions;
      this.regionStarts = regionStarts;
      this.regionOfChunk = regionOfChunk;
    }

    static ChunkFile open(Path directory, StoreLayout.Columns layout, StoreMetadata metadata) throws IOException {
      Path file = directory.resolve(layout.fileName());
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        long size = channel.size();
        ByteBuffer headerBytes = ByteBuffer.allocate(StoreLayout.HEADER_SIZE);
        readFully(channel, headerBytes, 0);
        StoreLayout.Header header = StoreLayout.readHeader(file, headerBytes, layout, size);
        if (header.capacity() != metadata.chunkCapacity()) {
          throw new StoreFormatException(file, "chunk capacity",
              metadata.chunkCapacity() + " (as in " + StoreLayout.METADATA_FILE + ")", String.valueOf(header.capacity()));
        }
        long expected = metadata.count(layout.category());
        if (header.recordCount() != expected) {
          throw new StoreFormatException(file, "record count",
              expected + " (as in " + StoreLayout.METADATA_FILE + ")", String.valueOf(header.recordCount()));
        }
        ByteBuffer entries = ByteBuffer.allocate(Math.toIntExact((long) header.chunkCount() * StoreLayout.ENTRY_BYTES));
        readFully(channel, entries, header.indexOffset());
        Chunk[] chunks = StoreLayout.readIndex(file, entries, layout, header);
        ChunkFile mapped = map(channel, layout, chunks);
        for (Chunk chunk : chunks) {
          StoreLayout.checkDirectory(file, mapped.bytes(chunk).order(StoreLayout.ORDER), layout, chunk);
        }
        return mapped;
      }
    }

    // Consecutive chunks share a mapping until it would pass MAX_REGION_BYTES.
    private static ChunkFile map(FileChannel channel, StoreLayout.Columns layout, Chunk[] chunks) throws IOException {
      List<MappedByteBuffer> regions = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      int[] regionOfChunk = new int[chunks.length];
      int first = 0;
      while (first < chunks.length) {
        long start = chunks[first].offset();
        int last = first;
        long end = chunkEnd(layout, chunks[first]);
        while (last + 1 < chunks.length && chunks[last + 1].offset() >= start
            && chunkEnd(layout, chunks[last + 1]) - start <= MAX_REGION_BYTES) {
          last++;
          end = Math.max(end, chunkEnd(layout, chunks[last]));
        }
        for (int i = first; i <= last; i++) {
          regionOfChunk[i] = regions.size();
        }
        regions.add(channel.map(FileChannel.MapMode.READ_ONLY, start, end - start));
        starts.add(start);
        first = last + 1;
      }
      return new ChunkFile(layout, chunks, regions.toArray(new MappedByteBuffer[0]),
          starts.stream().mapToLong(Long::longValue).toArray(), regionOfChunk);
    }

    private static long chunkEnd(StoreLayout.Columns layout, Chunk chunk) {
      return chunk.offset() + layout.chunkBytes(chunk.size(), chunk.producers());
    }

    ByteBuffer bytes(Chunk chunk) {
      int region = regionOfChunk[chunk.index()];
      int at = Math.toIntExact(chunk.offset() - regionStarts[region]);
      return regions[region].slice(at, layout.chunkBytes(chunk.size(), chunk.producers()));
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long at) throws IOException {
      long offset = at;
      while (buffer.hasRemaining()) {
        int read = channel.read(buffer, offset);
        if (read < 0) {
          break;
        }
        offset += read;
      }
      buffer.flip();
    }
  }

  /** The producer tree in parent-first order, and where each producer id landed in it. */
  private record TreeMapping(ProducerTree tree, int[] nodeOfProducer, int[] leafOfProducer) {
    static TreeMapping of(Path file, StoreMetadata metadata) throws StoreFormatException {
      List<StoreMetadata.Producer> producers = metadata.producers();
      int n = producers.size();
      List<List<Integer>> children = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        children.add(new ArrayList<>());
      }
      int root = -1;
      for (StoreMetadata.Producer p : producers) {
        if (p.parent() == -1) {
          if (root >= 0) {
            throw new StoreFormatException(file, "producers", "one root (parent -1)",
                "roots " + root + " and " + p.id());
          }
          root = p.id();
        } else if (p.parent() < 0 || p.parent() >= n) {
          throw new StoreFormatException(file, "parent of producer " + p.id(), "a producer id in [0, " + n + ")",
              String.valueOf(p.parent()));
        } else {
          children.get(p.parent()).add(p.id());
        }
      }
      if (root < 0) {
        throw new StoreFormatException(file, "producers", "one root (parent -1)", "none");
      }
      return number(file, producers, children, root);
    }

    // Breadth-first from the root numbers every parent before its children, as ProducerTree asks.
    private static TreeMapping number(Path file, List<StoreMetadata.Producer> producers,
        List<List<Integer>> children, int root) throws StoreFormatException {
      int n = producers.size();
      int[] nodeOf = new int[n];
      int[] leafOf = new int[n];
      Arrays.fill(nodeOf, -1);
      List<String> names = new ArrayList<>();
      List<Integer> parents = new ArrayList<>();
      ArrayDeque<Integer> queue = new ArrayDeque<>();
      nodeOf[root] = 0;
      leafOf[root] = 0;
      names.add(producers.get(root).name());
      parents.add(-1);
      queue.add(root);
      while (!queue.isEmpty()) {
        int producer = queue.poll();
        int node = nodeOf[producer];
        if (producers.get(producer).emits() && !children.get(producer).isEmpty()) {
          leafOf[producer] = names.size();
          names.add(producers.get(producer).name() + " (self)");
          parents.add(node);
        }
        for (int child : children.get(producer)) {
          nodeOf[child] = names.size();
          leafOf[child] = names.size();
          names.add(producers.get(child).name());
          parents.add(node);
          queue.add(child);
        }
      }
      for (int p = 0; p < n; p++) {
        if (nodeOf[p] < 0) {
          throw new StoreFormatException(file, "producer " + p, "a descendant of the root", "a cycle of parents");
        }
      }
      ProducerTree tree = new ProducerTree(names.toArray(new String[0]),
          parents.stream().mapToInt(Integer::intValue).toArray());
      return new TreeMapping(tree, nodeOf, leafOf);
    }
  }
}
