package org.ocelotl.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceSink;

/**
 * Writes a store into an empty directory as a reader streams a trace into it. The reader's
 * thread only appends into primitive chunk buffers; a writer thread sorts full chunks and
 * writes them, so parsing and writing overlap. Memory is bounded by a few chunks per category
 * plus one entry per producer, event type and variable, whatever the number of records. A
 * category's buffers are allocated as it needs them: its first at its first record, the others
 * when its first chunk is full, so a trace without links or variables (CTF, most OTF2) and a
 * small trace do not hold the 22 MB of twelve buffers of 65,536 records.
 *
 * <p>Not thread-safe: one reader calls the sink methods, then {@link #finish} or {@link #abort}.
 * The directory holds a complete store only after {@link #finish} returns; making it visible
 * atomically is the caller's job (see {@link Workspace}).
 */
public final class StoreWriter implements TraceSink {
  public static final int DEFAULT_CHUNK_CAPACITY = 1 << 16;
  /** Keeps the metadata small when a lenient reader reports a warning per bad line. */
  static final int MAX_WARNINGS = 1000;
  private static final int BUFFERS_PER_CATEGORY = 3;

  /** Null for a writer that checks and discards ({@link #discarding}). */
  private final Path directory;
  private final int capacity;
  private final Map<EventCategory, Category> categories = new EnumMap<>(EventCategory.class);
  /** The same categories by ordinal, for the per-record path (an EnumMap look-up checks the key's class). */
  private final Category[] byOrdinal = new Category[EventCategory.values().length];
  private final BlockingQueue<Runnable> work = new ArrayBlockingQueue<>(4 * BUFFERS_PER_CATEGORY);
  private final Thread writerThread; // null when discarding
  private volatile Throwable writerFailure;

  private final List<String> producerNames = new ArrayList<>();
  private final List<String> producerKinds = new ArrayList<>();
  private int[] producerParents = new int[16];
  private int[] producerDepths = new int[16];
  private double[] producerCreated = new double[16];
  private double[] producerDestroyed = new double[16];
  private boolean[] producerEmits = new boolean[16];
  private final long[][] producerCounts = new long[EventCategory.values().length][16];
  private final List<StoreMetadata.EventType> types = new ArrayList<>();
  private long[] typeCounts = new long[16];
  private final List<String> warnings = new ArrayList<>();
  private long droppedWarnings;
  private final VariableSteps variableSteps = new VariableSteps();
  private final VariableSteps.StepSink stepSink = this::appendStep;
  private double start = Double.NaN;
  /** What times since the start count from, as a reader said it ({@link #origin(double)}); NaN: the start. */
  private double origin = Double.NaN;
  private double end = Double.NaN;
  private String timeUnit;
  private long records;
  // Read once, when the import starts: what a trace may make the store hold (docs/reliability.md).
  private final long maxProducers = Limit.PRODUCERS.value();
  private final long maxTypes = Limit.TYPES.value();
  private final long maxDepth = Limit.TREE_DEPTH.value();

  public StoreWriter(Path directory) throws IOException {
    this(directory, DEFAULT_CHUNK_CAPACITY);
  }

  /** @param chunkCapacity records per chunk, 1 to 2^20 (small values are for tests) */
  public StoreWriter(Path directory, int chunkCapacity) throws IOException {
    this(checkedCapacity(chunkCapacity), directory);
  }

  /**
   * A writer that checks every record and call exactly as a store's writer does, and throws the
   * same exceptions, but writes nothing and starts no thread: full chunks are counted and dropped,
   * and {@link #finish} builds the metadata and its JSON without writing them. For fuzzing the
   * readers (issue 14), where an import's files and its writer thread were most of the cost of an
   * input (about 340 inputs a second); whatever the checks refuse is refused here too, since they
   * are the same code.
   */
  public static StoreWriter discarding(int chunkCapacity) throws IOException {
    return new StoreWriter(checkedCapacity(chunkCapacity), null);
  }

  private static int checkedCapacity(int chunkCapacity) {
    if (chunkCapacity < 1 || chunkCapacity > 1 << 20) {
      throw new IllegalArgumentException("chunk capacity must be in [1, 2^20], got " + chunkCapacity);
    }
    return chunkCapacity;
  }

  private StoreWriter(int chunkCapacity, Path directory) throws IOException {
    this.directory = directory;
    this.capacity = chunkCapacity;
    for (EventCategory category : EventCategory.values()) {
      byOrdinal[category.ordinal()] = new Category(directory, StoreLayout.columns(category), chunkCapacity);
      categories.put(category, byOrdinal[category.ordinal()]);
    }
    if (directory == null) {
      this.writerThread = null;
      return;
    }
    this.writerThread = new Thread(this::writeLoop, "ocelotl-store-writer");
    writerThread.setDaemon(true);
    writerThread.start();
  }

  /** Records received so far (for progress reports). */
  public long records() {
    return records;
  }

  @Override
  public void producer(int id, String name, String kind, int parent, double created) {
    if (id < 0) {
      throw new IllegalArgumentException("negative producer id " + id + " (" + name + ")");
    }
    if (id >= maxProducers) {
      throw new IllegalArgumentException(Limit.PRODUCERS.exceeded(maxProducers));
    }
    int depth = parent >= 0 && parent < producerNames.size() && producerNames.get(parent) != null
        ? producerDepths[parent] + 1 : 0;
    if (depth > maxDepth) {
      throw new IllegalArgumentException("producer " + name + ": " + Limit.TREE_DEPTH.exceeded(maxDepth));
    }
    while (producerNames.size() <= id) {
      producerNames.add(null);
      producerKinds.add(null);
    }
    if (producerNames.get(id) != null) {
      throw new IllegalArgumentException("producer " + id + " (" + name + ") declared twice");
    }
    if (id >= producerParents.length) {
      int length = Math.max(id + 1, producerParents.length * 2);
      producerParents = Arrays.copyOf(producerParents, length);
      producerDepths = Arrays.copyOf(producerDepths, length);
      producerCreated = Arrays.copyOf(producerCreated, length);
      producerDestroyed = Arrays.copyOf(producerDestroyed, length);
      producerEmits = Arrays.copyOf(producerEmits, length);
      for (int c = 0; c < producerCounts.length; c++) {
        producerCounts[c] = Arrays.copyOf(producerCounts[c], length);
      }
    }
    producerNames.set(id, name);
    producerKinds.set(id, kind);
    producerParents[id] = parent;
    producerDepths[id] = depth;
    producerCreated[id] = created;
    producerDestroyed[id] = Double.NaN;
  }

  @Override
  public void producerEnd(int id, double destroyed) {
    checkProducer(id);
    producerDestroyed[id] = destroyed;
  }

  @Override
  public void eventType(int id, String name, EventCategory category, String group, String color) {
    if (id < 0) {
      throw new IllegalArgumentException("negative event type id " + id + " (" + name + ")");
    }
    if (id >= maxTypes) {
      throw new IllegalArgumentException(Limit.TYPES.exceeded(maxTypes));
    }
    while (types.size() <= id) {
      types.add(null);
    }
    if (types.get(id) != null) {
      throw new IllegalArgumentException("event type " + id + " (" + name + ") declared twice");
    }
    types.set(id, new StoreMetadata.EventType(id, name, category, group, color, 0));
    if (id >= typeCounts.length) {
      // By hand: counts indexed by type id, added to per record (store writer, hot): no list shape.
      typeCounts = Arrays.copyOf(typeCounts, Math.max(id + 1, typeCounts.length * 2));
    }
  }

  @Override
  public void state(int producer, int type, double start, double end, int depth, int outer) {
    checkSpan("a state", producer, type, start, end);
    if (depth < 0) {
      throw new IllegalArgumentException("a state of " + producerNames.get(producer) + " has the nesting depth "
          + depth + ": expected 0 or more");
    }
    if (outer < -1 || outer >= types.size() || outer >= 0 && (depth == 0 || types.get(outer) == null
        || types.get(outer).category() != EventCategory.STATE)) {
      throw new IllegalArgumentException("a state of " + producerNames.get(producer) + " at depth " + depth
          + " lies in a state of type " + outer + ": expected " + (depth == 0 ? "none (-1)" : "-1 or a declared state type"));
    }
    ChunkBuffer b = use(EventCategory.STATE, producer, type);
    int i = b.size++;
    b.doubles[StoreLayout.STATE_START][i] = start;
    b.doubles[StoreLayout.STATE_END][i] = end;
    b.ints[StoreLayout.STATE_PRODUCER][i] = producer;
    b.ints[StoreLayout.STATE_TYPE][i] = type;
    b.ints[StoreLayout.STATE_DEPTH][i] = depth;
    b.ints[StoreLayout.STATE_OUTER][i] = outer;
    full(EventCategory.STATE, b);
  }

  @Override
  public void event(int producer, int type, double time) {
    checkSpan("an event", producer, type, time, time);
    ChunkBuffer b = use(EventCategory.EVENT, producer, type);
    int i = b.size++;
    b.doubles[StoreLayout.EVENT_TIME][i] = time;
    b.ints[StoreLayout.EVENT_PRODUCER][i] = producer;
    b.ints[StoreLayout.EVENT_TYPE][i] = type;
    full(EventCategory.EVENT, b);
  }

  @Override
  public void variable(int producer, int type, double time, double value) {
    checkSpan("a variable change", producer, type, time, time);
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("variable " + types.get(type).name() + " of " + producerNames.get(producer)
          + " takes the value " + value + " at " + time + ": expected a finite number");
    }
    variableSteps.change(producer, type, time, value, stepSink);
  }

  @Override
  public void variableStep(int producer, int type, double start, double end, double value) {
    checkSpan("a variable step", producer, type, start, end);
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("variable " + types.get(type).name() + " of " + producerNames.get(producer)
          + " holds the value " + value + " over [" + start + ", " + end + "]: expected a finite number");
    }
    appendStep(producer, type, start, end, value);
  }

  private void appendStep(int producer, int type, double start, double end, double value) {
    ChunkBuffer b = use(EventCategory.VARIABLE, producer, type);
    int i = b.size++;
    b.doubles[StoreLayout.VARIABLE_START][i] = start;
    b.doubles[StoreLayout.VARIABLE_END][i] = end;
    b.doubles[StoreLayout.VARIABLE_VALUE][i] = value;
    b.ints[StoreLayout.VARIABLE_PRODUCER][i] = producer;
    b.ints[StoreLayout.VARIABLE_TYPE][i] = type;
    full(EventCategory.VARIABLE, b);
  }

  /** Links with a known volume. */
  private long linkVolumes;

  @Override
  public void link(int type, int from, int to, double start, double end, double volume) {
    checkProducer(to);
    checkSpan("a link", from, type, start, end);
    if (volume < 0 || volume == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("a link from " + producerNames.get(from) + " carries " + volume
          + ": expected a finite size ≥ 0");
    }
    producerEmits[to] = true;
    ChunkBuffer b = use(EventCategory.LINK, from, type);
    int i = b.size++;
    b.doubles[StoreLayout.LINK_START][i] = start;
    b.doubles[StoreLayout.LINK_END][i] = end;
    b.doubles[StoreLayout.LINK_VOLUME][i] = volume;
    if (!Double.isNaN(volume)) {
      linkVolumes++;
    }
    b.ints[StoreLayout.LINK_TYPE][i] = type;
    b.ints[StoreLayout.LINK_FROM][i] = from;
    b.ints[StoreLayout.LINK_TO][i] = to;
    full(EventCategory.LINK, b);
  }

  @Override
  public void warning(String message) {
    if (warnings.size() < MAX_WARNINGS) {
      warnings.add(message);
    } else {
      droppedWarnings++;
    }
  }

  @Override
  public void origin(double time) {
    if (!Double.isFinite(time)) {
      throw new IllegalArgumentException("the trace's times count from " + time + ": expected a finite time");
    }
    this.origin = time;
  }

  @Override
  public void end(double start, double end, String timeUnit) {
    if (!Double.isFinite(start) || !Double.isFinite(end)) {
      throw new IllegalArgumentException("the trace spans [" + start + ", " + end + "]: expected finite times");
    }
    this.start = start;
    this.end = end;
    this.timeUnit = timeUnit;
  }

  /**
   * The last line of defence of every reader: a record whose times are not finite, or that ends
   * before it starts, would make a store that cannot be read (a chunk whose bounds are reversed)
   * or silently wrong models; refused here, it fails the import, which then leaves nothing.
   */
  private void checkSpan(String what, int producer, int type, double start, double end) {
    checkProducer(producer);
    checkType(type);
    if (!Double.isFinite(start) || !Double.isFinite(end)) {
      throw new IllegalArgumentException(what + " of " + producerNames.get(producer) + " (" + types.get(type).name()
          + ") has the time " + (Double.isFinite(start) ? end : start) + ": expected a finite number");
    }
    if (end < start) {
      throw new IllegalArgumentException(what + " of " + producerNames.get(producer) + " (" + types.get(type).name()
          + ") ends before it starts: [" + start + ", " + end + "]");
    }
  }

  /** The buffer a record of (producer, type) goes to, counted; both were checked by {@link #checkSpan}. */
  private ChunkBuffer use(EventCategory category, int producer, int type) {
    producerEmits[producer] = true;
    producerCounts[category.ordinal()][producer]++;
    typeCounts[type]++;
    records++;
    Category c = byOrdinal[category.ordinal()];
    if (c.current == null) {
      c.current = new ChunkBuffer(c.layout, capacity);
      c.allocated = 1;
    }
    return c.current;
  }

  private void checkProducer(int producer) {
    if (producer < 0 || producer >= producerNames.size() || producerNames.get(producer) == null) {
      throw new IllegalArgumentException("producer " + producer + " used before it was declared");
    }
  }

  private void checkType(int type) {
    if (type < 0 || type >= types.size() || types.get(type) == null) {
      throw new IllegalArgumentException("event type " + type + " used before it was declared");
    }
  }

  private void full(EventCategory category, ChunkBuffer buffer) {
    if (buffer.isFull()) {
      handOff(byOrdinal[category.ordinal()]);
    }
  }

  private void handOff(Category category) {
    ChunkBuffer full = category.current;
    if (writerThread == null) {
      category.records += full.size;
      full.size = 0;
      return;
    }
    try {
      work.put(() -> category.writeAndRecycle(full));
      ChunkBuffer next = category.free.poll();
      if (next == null && category.allocated < BUFFERS_PER_CATEGORY) {
        next = new ChunkBuffer(category.layout, capacity);
        category.allocated++;
      }
      category.current = next != null ? next : category.free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("import interrupted"));
    }
    rethrowWriterFailure();
  }

  private void rethrowWriterFailure() {
    Throwable failure = writerFailure;
    if (failure instanceof IOException io) {
      throw new UncheckedIOException(io);
    } else if (failure != null) {
      throw new IllegalStateException("the store writer failed", failure);
    }
  }

  private void writeLoop() {
    try {
      warmUpMetadata();
      while (true) {
        Runnable task = work.take();
        if (task == STOP) {
          return;
        }
        task.run();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static final Runnable STOP = () -> { };

  /**
   * Loads the metadata's JSON classes on this thread, idle until the first chunk is full, so that
   * {@link #finish} on the reader's thread finds them ready (see {@link StoreMetadata#warmUp}). What
   * fails here would fail there: it fails the import the way a chunk that cannot be written does.
   */
  private void warmUpMetadata() {
    try {
      StoreMetadata.warmUp();
    } catch (Throwable t) {
      writerFailure = t;
    }
  }

  /**
   * Writes what remains, the chunk indexes and the metadata, and forces it all to the disk.
   *
   * @throws IOException when writing failed; the directory is then to be deleted
   */
  public StoreMetadata finish(StoreMetadata.Source source) throws IOException {
    if (Double.isNaN(start) || timeUnit == null) {
      throw new IllegalStateException("the reader never called end(): the trace is incomplete");
    }
    checkDense();
    variableSteps.closeAll(this::endOf, stepSink);
    for (Category category : categories.values()) {
      if (category.current != null && category.current.size > 0) {
        handOff(category);
      }
    }
    if (writerThread != null) {
      stopWriter();
      rethrowWriterFailure();
      for (Category category : categories.values()) {
        category.file.close();
      }
    }
    if (variableSteps.outOfOrder() > 0) {
      warning(variableSteps.outOfOrder()
          + " variable changes came before the previous change of the same variable; their steps were cut to zero length");
    }
    if (!(end > start) && categories.values().stream().anyMatch(c -> c.records > 0)) {
      warning("the trace has no duration: every record is at " + start + " " + timeUnit + "; views show it over ["
          + start + ", " + StoreMetadata.windowEnd(start, end) + ") " + timeUnit);
    }
    if (droppedWarnings > 0) {
      warnings.add(notKept(droppedWarnings));
    }
    StoreMetadata metadata = metadata(source);
    if (writerThread == null) {
      metadata.json(); // what would be written: it must render
    } else {
      writeMetadata(metadata);
    }
    return metadata;
  }

  /** The last warning of a store that got more than {@link #MAX_WARNINGS}. */
  static String notKept(long dropped) {
    return dropped + " more warnings not kept";
  }

  /** Stops the writer thread and closes the files; the caller deletes the directory. */
  public void abort() {
    if (writerThread == null) {
      return;
    }
    writerThread.interrupt();
    try {
      writerThread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Category category : categories.values()) {
      try {
        category.file.abandon();
      } catch (IOException ignored) {
        // the directory is about to be deleted; a close failure changes nothing
      }
    }
  }

  private void stopWriter() throws IOException {
    try {
      work.put(STOP);
      writerThread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("import interrupted");
    }
  }

  private void checkDense() {
    int producer = producerNames.indexOf(null);
    int type = types.indexOf(null);
    if (producerNames.isEmpty() || producer >= 0 || type >= 0) {
      throw new IllegalStateException("ids must be dense from 0: "
          + (producerNames.isEmpty() ? "no producer" : producer >= 0 ? "producer " + producer : "event type " + type)
          + " was never declared");
    }
  }

  // A variable holds its last value until its producer is destroyed, else until the trace ends.
  private double endOf(int producer) {
    double destroyed = producerDestroyed[producer];
    return Double.isNaN(destroyed) ? end : Math.min(destroyed, end);
  }

  private StoreMetadata metadata(StoreMetadata.Source source) {
    long[] counts = new long[EventCategory.values().length];
    for (Category category : categories.values()) {
      counts[category.layout.category().ordinal()] = category.records;
    }
    List<StoreMetadata.Producer> producers = new ArrayList<>();
    for (int i = 0; i < producerNames.size(); i++) {
      producers.add(new StoreMetadata.Producer(i, producerNames.get(i), producerKinds.get(i),
          producerParents[i], producerCreated[i], producerDestroyed[i], producerEmits[i], ownCounts(i)));
    }
    List<StoreMetadata.EventType> counted = new ArrayList<>();
    for (StoreMetadata.EventType t : types) {
      counted.add(new StoreMetadata.EventType(t.id(), t.name(), t.category(), t.group(), t.color(), typeCounts[t.id()]));
    }
    return new StoreMetadata(source, start, Double.isNaN(origin) ? start : origin, end, timeUnit, counts,
        List.copyOf(producers), List.copyOf(counted), List.copyOf(warnings), capacity, linkVolumes);
  }

  private long[] ownCounts(int producer) {
    long[] own = new long[producerCounts.length];
    for (int c = 0; c < own.length; c++) {
      own[c] = producerCounts[c][producer];
    }
    return own;
  }

  private void writeMetadata(StoreMetadata metadata) throws IOException {
    Path file = directory.resolve(StoreLayout.METADATA_FILE);
    byte[] bytes = metadata.json().getBytes(StandardCharsets.UTF_8);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
  }

  /** What the writer keeps per category; {@code current} is touched by the reader's thread only. */
  private final class Category {
    final StoreLayout.Columns layout;
    final ChunkFileWriter file; // null when discarding
    final BlockingQueue<ChunkBuffer> free = new ArrayBlockingQueue<>(BUFFERS_PER_CATEGORY);
    /** Null before the category's first record. */
    ChunkBuffer current;
    /** Buffers allocated so far, at most {@link #BUFFERS_PER_CATEGORY}; reader's thread only. */
    int allocated;
    long records; // written by the writer thread, read after it stopped

    Category(Path directory, StoreLayout.Columns layout, int capacity) throws IOException {
      this.layout = layout;
      this.file = directory == null ? null : new ChunkFileWriter(directory, layout, capacity);
    }

    // Runs on the writer thread. The buffer always goes back, so the reader never waits forever.
    void writeAndRecycle(ChunkBuffer buffer) {
      try {
        if (writerFailure == null) {
          file.write(buffer, writerScratch(), writerBytes());
          records += buffer.size;
        }
      } catch (Throwable t) {
        writerFailure = t;
      } finally {
        buffer.size = 0;
        free.add(buffer);
      }
      forceWhenIdle();
    }

    /**
     * Forces the file to the disk while the reader fills the next chunks: left to close(), the
     * whole store (143 MB for the 292 MB SimGrid trace) would be flushed at the end of the import,
     * where the reader waits for it. Only when no chunk waits to be written, and after the buffer
     * went back, so that a slow disk never holds the reader up: what is not forced here is at close.
     */
    private void forceWhenIdle() {
      if (writerFailure == null && work.isEmpty()) {
        try {
          file.force();
        } catch (Throwable t) {
          writerFailure = t;
        }
      }
    }
  }

  private ChunkBuffer.Scratch scratch;
  private ByteBuffer bytes;

  // Created lazily on the writer thread: a store with no full chunk never allocates them.
  private ChunkBuffer.Scratch writerScratch() {
    if (scratch == null) {
      scratch = new ChunkBuffer.Scratch(capacity);
    }
    return scratch;
  }

  private ByteBuffer writerBytes() {
    if (bytes == null) {
      int widest = 0;
      for (Category category : categories.values()) {
        widest = Math.max(widest, category.layout.chunkBytes(capacity, capacity));
      }
      bytes = ByteBuffer.allocateDirect(widest).order(StoreLayout.ORDER);
    }
    return bytes;
  }
}
