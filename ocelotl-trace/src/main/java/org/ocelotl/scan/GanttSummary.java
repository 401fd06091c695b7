package org.ocelotl.scan;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Chunk;
import org.ocelotl.store.StateColumns;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;

/**
 * The states of a store summed per producer, time bucket and state type, at every power-of-two
 * resolution of the whole trace (levels 0 to {@link #finest()}: level ℓ has 2^ℓ equal buckets of
 * [start, end)), so that a Gantt chart of a window holding far more states than pixels reads
 * buckets instead of records (decision 057). Per cell: the time the producer's states of that type
 * cover inside the bucket (inclusive, as the chart sums it) and the states begun in it — exactly
 * the two sums the chart's summary marks are made of, by the model's scan kernel, so that a pixel
 * column made of whole buckets gets the same sums as from the records.
 *
 * <p>A state-duration model whose slices are many buckets wide is also read from it (decision 077,
 * {@link SummaryModel}): the buckets inside each slice, the records only at the slices' edges. The
 * summary's time is inclusive; it serves exclusive-time models too when no state of the store lies
 * in another ({@link #nested()}), since the kernel's exclusive time of a state at depth 0 is its
 * inclusive time.
 *
 * <p>One file next to the store ({@value #FILE}), memory-mapped, never on the heap. Layout
 * (little-endian): a header of {@value #HEADER} bytes (magic, format version, finest level,
 * producers, summarised producers, state types, start, end, whether states nest), the slot of each store producer
 * (int, −1 for one without states) and each store type (int, −1 for one not a state), then per
 * level from 0: the time of every (slot, bucket, type) as doubles, then their begun counts as ints.
 * Size: (2^(finest+1) − 1) × summarised producers × state types × 12 bytes.
 */
public final class GanttSummary {
  /** The file's name in the store's directory. */
  public static final String FILE = "gantt-summary.bin";
  /**
   * Below this many states no summary: at 2×10⁷ states (768 ranks) a 1 s window's chart costs
   * about as much from the summary as from the records, its drawing being most of it (decision 057).
   */
  public static final long MIN_STATES = 50_000_000;
  /** The finest level at most: 65,536 buckets (153 µs of a 10 s trace). */
  static final int MAX_LEVEL = 16;
  /** Coarser than this the summary is not worth it (a chart is up to 16,384 pixels wide). */
  static final int MIN_LEVEL = 8;
  /** The file's size at most: the finest level is lowered until it fits. */
  public static final long MAX_BYTES = 1L << 30;
  /** A pixel column reads the coarsest level with at least this many buckets in it, when there is one. */
  static final int BUCKETS_PER_COLUMN = 4;
  private static final long MAGIC = 0x4f43_4753_554d_4d31L; // "OCGSUMM1"
  // 2: the header says whether states nest (decision 077); a version-1 file is rewritten (Workspace).
  private static final int VERSION = 2;
  private static final int HEADER = 56;
  private static final int CELL_BYTES = Double.BYTES + Integer.BYTES;
  /** Slices per kernel pass while building: its three arrays stay near 100 MB at 768 ranks. */
  private static final int PIECE = 2048;

  private final MappedByteBuffer data;
  private final int finest;
  private final int[] slotOfProducer;
  private final int[] slotOfType;
  private final int slots;
  private final int types;
  private final double start;
  private final double end;
  private final boolean nested;
  private final long tables;

  private GanttSummary(MappedByteBuffer data, int finest, int[] slotOfProducer, int[] slotOfType, int slots, int types,
      double start, double end, boolean nested) {
    this.data = data;
    this.finest = finest;
    this.slotOfProducer = slotOfProducer;
    this.slotOfType = slotOfType;
    this.slots = slots;
    this.types = types;
    this.start = start;
    this.end = end;
    this.nested = nested;
    this.tables = HEADER + 4L * (slotOfProducer.length + slotOfType.length);
  }

  /** The finest level: 2^finest buckets over the trace. */
  public int finest() {
    return finest;
  }

  /** Whether some state of the store lies in another (its exclusive time then differs from the summary's). */
  public boolean nested() {
    return nested;
  }

  /** The length of a bucket of {@code level}, in the trace's unit. */
  public double bucketWidth(int level) {
    return (end - start) / (1L << level);
  }

  /** The file's size for a store of these counts at this finest level. */
  static long bytes(int finest, int slots, int types, int producers, int storeTypes) {
    return HEADER + 4L * (producers + storeTypes) + ((1L << (finest + 1)) - 1) * slots * types * CELL_BYTES;
  }

  /**
   * The finest level a store gets, -1 for none: below {@link #MIN_STATES} states none; else as
   * many buckets as a producer has states on average, at most 2^{@value #MAX_LEVEL}, lowered until
   * the file fits {@link #MAX_BYTES}, none under 2^{@value #MIN_LEVEL}.
   */
  public static int finestLevelFor(StoreMetadata m) {
    long states = m.count(EventCategory.STATE);
    if (states < MIN_STATES) {
      return -1;
    }
    int slots = (int) m.producers().stream().filter(p -> p.count(EventCategory.STATE) > 0).count();
    int types = (int) m.types().stream().filter(t -> t.category() == EventCategory.STATE).count();
    int level = Math.min(MAX_LEVEL, 63 - Long.numberOfLeadingZeros(Math.max(1, states / Math.max(1, slots))));
    while (level >= MIN_LEVEL && bytes(level, slots, types, m.producers().size(), m.types().size()) > MAX_BYTES) {
      level--;
    }
    return level >= MIN_LEVEL ? level : -1;
  }

  /** The summary of {@code store}, if its file exists and was made for it. */
  public static Optional<GanttSummary> open(TraceStore store) throws IOException {
    Path file = store.directory().resolve(FILE);
    StoreMetadata m = store.metadata();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer data = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
      data.order(ByteOrder.LITTLE_ENDIAN);
      if (channel.size() < HEADER || data.getLong(0) != MAGIC || data.getInt(8) != VERSION
          || data.getInt(16) != m.producers().size() || data.getInt(24) != m.types().size()
          || data.getDouble(32) != m.start() || data.getDouble(40) != m.end()) {
        return Optional.empty(); // another store's or another version's: the chart reads the records
      }
      int finest = data.getInt(12);
      int slots = data.getInt(20);
      int types = data.getInt(28);
      int[] slotOfProducer = new int[m.producers().size()];
      int[] slotOfType = new int[m.types().size()];
      for (int p = 0; p < slotOfProducer.length; p++) {
        slotOfProducer[p] = data.getInt(HEADER + 4 * p);
      }
      for (int t = 0; t < slotOfType.length; t++) {
        slotOfType[t] = data.getInt(HEADER + 4 * (slotOfProducer.length + t));
      }
      if (channel.size() != bytes(finest, slots, types, slotOfProducer.length, slotOfType.length)) {
        return Optional.empty(); // cut short
      }
      return Optional.of(new GanttSummary(data, finest, slotOfProducer, slotOfType, slots, types, m.start(), m.end(),
          data.getInt(48) != 0));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Writes the summary of {@code store} at {@code finest} next to it (under a hidden name, then
   * renamed): one pass of the scan kernel over every state, in pieces of {@value #PIECE} buckets,
   * then each coarser level from the one below.
   */
  public static void write(TraceStore store, int finest) throws IOException {
    StoreMetadata m = store.metadata();
    int[] slotOfProducer = new int[m.producers().size()];
    int slots = 0;
    for (StoreMetadata.Producer p : m.producers()) {
      slotOfProducer[p.id()] = p.count(EventCategory.STATE) > 0 ? slots++ : -1;
    }
    int[] slotOfType = new int[m.types().size()];
    int types = 0;
    for (StoreMetadata.EventType t : m.types()) {
      slotOfType[t.id()] = t.category() == EventCategory.STATE ? types++ : -1;
    }
    long size = bytes(finest, slots, types, slotOfProducer.length, slotOfType.length);
    Path file = store.directory().resolve(FILE);
    Path temporary = file.resolveSibling("." + FILE + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
        + ".part");
    try {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        MappedByteBuffer data = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        data.order(ByteOrder.LITTLE_ENDIAN);
        boolean nested = nested(store);
        GanttSummary summary = new GanttSummary(data, finest, slotOfProducer, slotOfType, slots, types, m.start(),
            m.end(), nested);
        summary.fillFinest(store);
        for (int level = finest - 1; level >= 0; level--) {
          summary.fillFromFiner(level);
        }
        data.putLong(0, MAGIC).putInt(8, VERSION).putInt(12, finest).putInt(16, slotOfProducer.length)
            .putInt(20, slots).putInt(24, slotOfType.length).putInt(28, types).putDouble(32, m.start())
            .putDouble(40, m.end()).putInt(48, nested ? 1 : 0);
        for (int p = 0; p < slotOfProducer.length; p++) {
          data.putInt(HEADER + 4 * p, slotOfProducer[p]);
        }
        for (int t = 0; t < slotOfType.length; t++) {
          data.putInt(HEADER + 4 * (slotOfProducer.length + t), slotOfType[t]);
        }
        data.force();
      }
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /**
   * Whether some state of the store lies in another (an outer type): read from the records, up to
   * the first such state, since the store's metadata does not say.
   */
  private static boolean nested(TraceStore store) {
    StateColumns columns = store.stateColumns();
    for (Chunk chunk : store.chunks(EventCategory.STATE)) {
      store.read(chunk, columns);
      int[] outer = columns.outer();
      for (int i = 0, n = columns.size(); i < n; i++) {
        if (outer[i] >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** Summarised producers' slot (−1: none), per store producer. */
  int[] slotOfProducer() {
    return slotOfProducer;
  }

  /** Summarised state types' slot (−1: not a state), per store type. */
  int[] slotOfType() {
    return slotOfType;
  }

  /** The time of one cell. */
  double time(int level, int slot, long bucket, int type) {
    return data.getDouble((int) timeAt(level, slot, bucket, type));
  }

  private long timeAt(int level, int slot, long bucket, int type) {
    long base = tables + ((1L << level) - 1) * slots * types * CELL_BYTES;
    return base + (((long) slot << level) + bucket) * types * Double.BYTES + (long) type * Double.BYTES;
  }

  private long begunAt(int level, int slot, long bucket, int type) {
    long base = tables + ((1L << level) - 1) * slots * types * CELL_BYTES + ((long) slots << level) * types * Double.BYTES;
    return base + (((long) slot << level) + bucket) * types * Integer.BYTES + (long) type * Integer.BYTES;
  }

  /** The boundary of bucket {@code k} of {@code level}: SliceGrid's expression, so a one-piece level's edges are the kernel's. */
  public double edge(int level, long k) {
    long n = 1L << level;
    return k == n ? end : start + (end - start) * k / n;
  }

  private void fillFinest(TraceStore store) {
    long n = 1L << finest;
    for (long first = 0; first < n; first += PIECE) {
      int pieceSlices = (int) Math.min(PIECE, n - first);
      SliceGrid grid = new SliceGrid(edge(finest, first), edge(finest, first + pieceSlices), pieceSlices);
      double[][] sums = ModelBuilder.stateSums(store, new ModelLayout(slotOfProducer, slotOfType, slots, types, grid));
      int cells = pieceSlices * types;
      int[] begun = new int[cells];
      for (int slot = 0; slot < slots; slot++) {
        // A producer's cells of the piece are contiguous in the kernel's arrays and in the file.
        for (int k = 0; k < cells; k++) {
          begun[k] = (int) sums[1][slot * cells + k];
        }
        times(finest, slot, first, cells).put(sums[0], slot * cells, cells);
        counts(finest, slot, first, cells).put(begun);
      }
    }
  }

  private void fillFromFiner(int level) {
    int cells = (1 << level) * types;
    double[] finer = new double[2 * cells];
    int[] finerCounts = new int[2 * cells];
    double[] time = new double[cells];
    int[] begun = new int[cells];
    for (int slot = 0; slot < slots; slot++) {
      times(level + 1, slot, 0, 2 * cells).get(finer);
      counts(level + 1, slot, 0, 2 * cells).get(finerCounts);
      for (int k = 0; k < 1 << level; k++) {
        for (int u = 0; u < types; u++) {
          time[k * types + u] = finer[2 * k * types + u] + finer[(2 * k + 1) * types + u];
          begun[k * types + u] = finerCounts[2 * k * types + u] + finerCounts[(2 * k + 1) * types + u];
        }
      }
      times(level, slot, 0, cells).put(time);
      counts(level, slot, 0, cells).put(begun);
    }
  }

  /** A producer's times from a bucket on, {@code cells} of them (buckets × types), as a view of the file. */
  private java.nio.DoubleBuffer times(int level, int slot, long bucket, int cells) {
    return data.slice((int) timeAt(level, slot, bucket, 0), cells * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN)
        .asDoubleBuffer();
  }

  private java.nio.IntBuffer counts(int level, int slot, long bucket, int cells) {
    return data.slice((int) begunAt(level, slot, bucket, 0), cells * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN)
        .asIntBuffer();
  }

  /**
   * The level a chart of {@code columns} pixel columns over [from, to) reads: the coarsest with at
   * least {@value #BUCKETS_PER_COLUMN} buckets in a column, else the finest if its buckets are no
   * wider than a column; -1 when even those are wider (the records, then).
   */
  public int levelFor(double from, double to, int columns) {
    double column = (to - from) / columns;
    for (int level = 0; level <= finest; level++) {
      if (bucketWidth(level) * BUCKETS_PER_COLUMN <= column) {
        return level;
      }
    }
    return bucketWidth(finest) <= column ? finest : -1;
  }

  /** The cells {@link #sum} reads for {@code producers} producers at {@code level} over [from, to). */
  public long cellsRead(int level, double from, double to, int producers) {
    double width = bucketWidth(level);
    return ((long) Math.ceil((to - from) / width) + 2) * producers * types;
  }

  /**
   * Adds the summarised states to a chart's sums, cells (row · columns + column) · types + type as
   * the scan kernel's: each bucket of {@code level} touching [from, to) gives its time to the
   * columns it overlaps in proportion to the overlap (all of it to a column that holds it whole),
   * and its begun states to the column holding its middle (none if that lies outside the window).
   * A column made of whole buckets thus gets exactly the records' sums (states begun before the
   * window are the caller's: the records' crossings).
   *
   * @param rowOf  per store producer, its row (-1: not summed here)
   * @param typeOf per store type, its chart type (-1: not shown)
   */
  public void sum(int level, double from, double to, int columns, int[] rowOf, int[] typeOf, int rows, int chartTypes,
      double[] time, double[] begun) {
    long n = 1L << level;
    double width = bucketWidth(level);
    long firstBucket = Math.max(0, (long) Math.floor((from - start) / width) - 1);
    long lastBucket = Math.min(n, (long) Math.ceil((to - start) / width) + 1);
    int buckets = (int) (lastBucket - firstBucket);
    // Per bucket: up to two columns (a bucket is no wider than a column) and their shares of its time.
    int[] columnA = new int[buckets];
    int[] columnB = new int[buckets];
    double[] shareA = new double[buckets];
    double[] shareB = new double[buckets];
    int[] begunColumn = new int[buckets];
    double span = to - from;
    for (int i = 0; i < buckets; i++) {
      double lo = edge(level, firstBucket + i);
      double hi = edge(level, firstBucket + i + 1);
      double x0 = snap((Math.max(lo, from) - from) / span * columns);
      double x1 = snap((Math.min(hi, to) - from) / span * columns);
      double whole = (hi - lo) / span * columns;
      columnA[i] = -1;
      columnB[i] = -1;
      double middle = snap(((lo + hi) / 2 - from) / span * columns);
      begunColumn[i] = middle >= 0 && middle < columns ? (int) middle : -1;
      if (!(x1 > x0)) {
        continue;
      }
      int a = (int) Math.floor(x0);
      int b = (int) Math.ceil(x1) - 1;
      if (a == b) {
        columnA[i] = a;
        // Whole inside one column: all of its time, not a ratio that rounding may put a hair under 1.
        shareA[i] = lo >= from && hi <= to ? 1 : (x1 - x0) / whole;
      } else {
        columnA[i] = a;
        shareA[i] = (a + 1 - x0) / whole;
        columnB[i] = a + 1;
        shareB[i] = (x1 - (a + 1)) / whole;
      }
    }
    int[] chartTypeOfSlot = new int[types];
    for (int t = 0; t < typeOf.length; t++) {
      if (slotOfType[t] >= 0) {
        chartTypeOfSlot[slotOfType[t]] = typeOf[t];
      }
    }
    int[][] producersOfRow = new int[rows][];
    int[] perRow = new int[rows];
    for (int p = 0; p < rowOf.length; p++) {
      if (rowOf[p] >= 0 && slotOfProducer[p] >= 0) {
        perRow[rowOf[p]]++;
      }
    }
    for (int r = 0; r < rows; r++) {
      producersOfRow[r] = new int[perRow[r]];
      perRow[r] = 0;
    }
    for (int p = 0; p < rowOf.length; p++) {
      if (rowOf[p] >= 0 && slotOfProducer[p] >= 0) {
        producersOfRow[rowOf[p]][perRow[rowOf[p]]++] = slotOfProducer[p];
      }
    }
    // Rows are disjoint cells: summed in parallel. A producer's buckets of the window are
    // contiguous: copied out in bulk and added to the row's buckets, which are then spread over
    // the columns once (a sum of producers, then of buckets: the records' sums to rounding).
    int cells = buckets * types;
    IntStream.range(0, rows).parallel().forEach(row -> {
      if (producersOfRow[row].length == 0) {
        return;
      }
      double[] times = new double[cells];
      int[] counts = new int[cells];
      double[] rowTimes = new double[cells];
      long[] rowCounts = new long[cells];
      for (int slot : producersOfRow[row]) {
        times(level, slot, firstBucket, cells).get(times);
        counts(level, slot, firstBucket, cells).get(counts);
        for (int k = 0; k < cells; k++) {
          rowTimes[k] += times[k];
          rowCounts[k] += counts[k];
        }
      }
      int base = row * columns * chartTypes;
      for (int i = 0; i < buckets; i++) {
        for (int u = 0; u < types; u++) {
          int shown = chartTypeOfSlot[u];
          if (shown < 0) {
            continue;
          }
          double t = rowTimes[i * types + u];
          if (columnA[i] >= 0) {
            time[base + columnA[i] * chartTypes + shown] += t * shareA[i];
          }
          if (columnB[i] >= 0) {
            time[base + columnB[i] * chartTypes + shown] += t * shareB[i];
          }
          if (begunColumn[i] >= 0) {
            begun[base + begunColumn[i] * chartTypes + shown] += rowCounts[i * types + u];
          }
        }
      }
    });
  }

  /**
   * A position in columns, put on the column edge it lies within 10⁻⁶ column of: a bucket edge and a
   * pixel edge meant to be one instant differ by rounding only (computed by different expressions).
   */
  private static double snap(double x) {
    double edge = Math.rint(x);
    return Math.abs(x - edge) < 1e-6 ? edge : x;
  }
}
