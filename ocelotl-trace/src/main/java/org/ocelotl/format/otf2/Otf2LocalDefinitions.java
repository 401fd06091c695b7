package org.ocelotl.format.otf2;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.util.Arrays;
import org.ocelotl.trace.TraceFormatException;

/**
 * One location's local definitions ({@code NAME/LOCATION.def}), as Score-P writes them after
 * unifying its definitions: the location's events keep the ids the location gave while it
 * recorded, and MappingTable records say which global id each local one stands for; ClockOffset
 * records correct the location's timestamps to the global clock. Other local definition records
 * (a not yet unified archive's) are skipped by their length, as OTF2's own event reader ignores
 * them.
 *
 * <p>The semantics follow the OTF2 library's event reader, which otf2-print shows:
 * <ul>
 *   <li>an id absent from its table (or a table absent) stands for itself;
 *   <li>offsets (t<sub>i</sub>, o<sub>i</sub>) form intervals [t<sub>i</sub>, t<sub>i+1</sub>];
 *       a raw time t in an interval becomes rint(t + slope·(t − t<sub>i</sub>) + o<sub>i</sub>)
 *       with slope = (o<sub>i+1</sub> − o<sub>i</sub>) / (t<sub>i+1</sub> − t<sub>i</sub>), all in
 *       doubles; times before the first interval and after the last extrapolate them; a single
 *       offset makes no interval and corrects nothing;
 *   <li>the interval is searched forward from the previous event's, as times grow.
 * </ul>
 */
final class Otf2LocalDefinitions {
  static final int MAPPING_TABLE = 5;
  static final int CLOCK_OFFSET = 6;

  // OTF2_MappingType values of the ids this reader resolves.
  static final int MAPPING_REGION = 3;
  static final int MAPPING_METRIC = 5;
  static final int MAPPING_COMM = 6;
  private static final int MAPPING_TYPES = 15;

  private static final int ID_MAP_DENSE = 0;
  private static final int ID_MAP_SPARSE = 1;

  /** A location without a local definition file: ids and times as they are. */
  static final Otf2LocalDefinitions NONE = new Otf2LocalDefinitions();

  /** Per mapping type: local ids in ascending order (null for a dense table, indexed by local id). */
  private final long[][] locals = new long[MAPPING_TYPES][];
  /** Per mapping type: the global ids, parallel to {@link #locals} or indexed by local id. */
  private final long[][] globals = new long[MAPPING_TYPES][];

  // Clock intervals [begins[i], ends[i]]: the offset at the start and the slope over it.
  private long[] begins = new long[0];
  private long[] ends = new long[0];
  private long[] offsets = new long[0];
  private double[] slopes = new double[0];
  private int current;

  private Otf2LocalDefinitions() {}

  /** Reads the local definitions of {@code location}; {@link #NONE} when the archive has none. */
  static Otf2LocalDefinitions read(Otf2Anchor anchor, long location) throws IOException {
    Otf2Input in = Otf2Input.openIfPresent(anchor.files(), anchor.localDefinitionFile(location),
        anchor.defChunkSize(), false);
    if (in == null) {
      return NONE;
    }
    Otf2LocalDefinitions local = new Otf2LocalDefinitions();
    try (in) {
      local.readAll(in);
    }
    return local;
  }

  private void readAll(Otf2Input in) throws IOException {
    long pendingTime = 0;
    long pendingOffset = 0;
    boolean pending = false;
    while (true) {
      int kind = in.nextDefinition("local definitions");
      if (kind == Otf2Input.END_OF_FILE) {
        return;
      }
      long recordAt = in.offset() - 1;
      try {
        int end = in.recordEnd();
        if (kind == MAPPING_TABLE) {
          mappingTable(in, recordAt);
        } else if (kind == CLOCK_OFFSET) {
          long time = in.u64Full();
          long offset = in.u64();
          if (pending && Long.compareUnsigned(pendingTime, time) >= 0) {
            throw in.error("clock offset at time " + Long.toUnsignedString(time)
                + ": expected a time after the previous offset's " + Long.toUnsignedString(pendingTime), recordAt);
          }
          if (pending) {
            addInterval(pendingTime, time, pendingOffset, offset);
          }
          pendingTime = time;
          pendingOffset = offset;
          pending = true;
        }
        in.seek(end);
      } catch (BufferUnderflowException e) {
        throw in.error("local definition record " + kind + " is shorter than its fields", recordAt);
      }
    }
  }

  /** Layout: mapping type (u8), then the id map: its size and mode, then the ids. */
  private void mappingTable(Otf2Input in, long recordAt) throws TraceFormatException {
    int type = in.u8();
    long size = in.u64();
    int mode = in.u8();
    if (mode != ID_MAP_DENSE && mode != ID_MAP_SPARSE) {
      throw in.error("mapping table mode " + mode + ": expected 0 (dense) or 1 (sparse)", recordAt);
    }
    // Each id takes at least one byte: a size beyond what remains is a damaged record.
    long bytes = mode == ID_MAP_DENSE ? size : 2 * size;
    if (size < 0 || bytes > in.remaining()) {
      throw in.error("mapping table of " + Long.toUnsignedString(size) + " ids in the " + in.remaining()
          + " bytes left of its chunk", recordAt);
    }
    long[] localIds = mode == ID_MAP_DENSE ? null : new long[(int) size];
    long[] globalIds = new long[(int) size];
    for (int i = 0; i < size; i++) {
      if (localIds != null) {
        localIds[i] = in.u64();
        if (i > 0 && Long.compareUnsigned(localIds[i - 1], localIds[i]) >= 0) {
          throw in.error("sparse mapping table: local ids expected in ascending order, found "
              + Long.toUnsignedString(localIds[i]) + " after " + Long.toUnsignedString(localIds[i - 1]), recordAt);
        }
      }
      globalIds[i] = in.u64();
    }
    if (type < MAPPING_TYPES) { // later OTF2 versions may add types: nothing here refers to them
      locals[type] = localIds;
      globals[type] = globalIds;
    }
  }

  private void addInterval(long begin, long end, long beginOffset, long endOffset) {
    int n = begins.length;
    begins = Arrays.copyOf(begins, n + 1);
    ends = Arrays.copyOf(ends, n + 1);
    offsets = Arrays.copyOf(offsets, n + 1);
    slopes = Arrays.copyOf(slopes, n + 1);
    begins[n] = begin;
    ends[n] = end;
    offsets[n] = beginOffset;
    slopes[n] = ((double) endOffset - (double) beginOffset) / (unsigned(end) - unsigned(begin));
  }

  /** The global id of local id {@code id} of mapping type {@code type}. */
  long map(int type, long id) {
    long[] globalIds = globals[type];
    if (globalIds == null) {
      return id;
    }
    long[] localIds = locals[type];
    if (localIds == null) {
      return id >= 0 && id < globalIds.length ? globalIds[(int) id] : id;
    }
    int at = unsignedSearch(localIds, id);
    return at >= 0 ? globalIds[at] : id;
  }

  private static int unsignedSearch(long[] sorted, long id) {
    int low = 0;
    int high = sorted.length - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int c = Long.compareUnsigned(sorted[middle], id);
      if (c == 0) {
        return middle;
      }
      if (c < 0) {
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return -1;
  }

  /** The raw timestamp {@code raw} (unsigned ticks) on the global clock, as a double of ticks. */
  double correct(long raw) {
    double time = unsigned(raw);
    if (begins.length == 0) {
      return time;
    }
    // Forward only, like OTF2's reader: a time past this interval's end moves to the next one.
    while (current + 1 < begins.length && Long.compareUnsigned(raw, ends[current]) > 0) {
      current++;
    }
    double corrected = time + slopes[current] * (time - unsigned(begins[current])) + offsets[current];
    return Math.rint(corrected);
  }

  /** Unsigned 64-bit ticks as a double: exact below 2^53 (104 days at 1 ns), rounded above. */
  static double unsigned(long raw) {
    return raw >= 0 ? raw : (double) (raw >>> 1) * 2.0;
  }
}
