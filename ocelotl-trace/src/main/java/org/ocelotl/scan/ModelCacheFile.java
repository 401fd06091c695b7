package org.ocelotl.scan;

import org.ocelotl.model.BuiltInMetric;
import org.ocelotl.model.Metric;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The layout of one cached model file, owned here and nowhere else. All numbers little-endian.
 * <pre>
 *  0  magic "OCLMODEL"     8 bytes
 *  8  format version       int
 * 12  metric code          int   (ordinal + 1 of {@link BuiltInMetric}; 0 for a plug-in's metric,
 *                                 which the key names with its version: NAME-vVERSION-HASH)
 * 16  leaves               int
 * 20  slices               int
 * 24  types                int
 * 28  arrays               int   ({@link ModelSums#arrayCount})
 * 32  window start         double
 * 40  window end           double
 * 48  store identity       long  (hash of the trace file's path, size, time and fingerprint)
 * 56  key length           int   (bytes of the UTF-8 key)
 * 60  occupied cells       int   (cells where some array holds a value other than +0.0)
 * 64  key, zero-padded to a multiple of 8
 * then the occupancy bitmap: ⌈leaves × slices × types / 64⌉ longs, bit c of long c / 64
 *      set for an occupied cell c (model order)
 * then the arrays, each as the doubles of the occupied cells in model order
 * </pre>
 * Sparse because most cells are empty: a producer runs a few of a trace's state types in a
 * slice, and the one cache file of a trace holds every producer and type (the large SimGrid
 * trace at N = 1000: see docs/models.md).
 * A file that disagrees with what the reader expects in any field is not an error for the
 * user: the cache drops it and scans again.
 */
final class ModelCacheFile {
  static final byte[] MAGIC = "OCLMODEL".getBytes(StandardCharsets.US_ASCII);
  /** 3: a state metric's key names its time, exclusive or inclusive (decision 037). */
  static final int VERSION = 3;
  static final int VERSION_OFFSET = MAGIC.length;
  static final int METRIC_OFFSET = VERSION_OFFSET + Integer.BYTES;
  static final int LEAVES_OFFSET = METRIC_OFFSET + Integer.BYTES;
  static final int SLICES_OFFSET = LEAVES_OFFSET + Integer.BYTES;
  static final int TYPES_OFFSET = SLICES_OFFSET + Integer.BYTES;
  static final int ARRAYS_OFFSET = TYPES_OFFSET + Integer.BYTES;
  static final int START_OFFSET = ARRAYS_OFFSET + Integer.BYTES;
  static final int END_OFFSET = START_OFFSET + Double.BYTES;
  static final int IDENTITY_OFFSET = END_OFFSET + Double.BYTES;
  static final int KEY_LENGTH_OFFSET = IDENTITY_OFFSET + Long.BYTES;
  static final int OCCUPIED_OFFSET = KEY_LENGTH_OFFSET + Integer.BYTES;
  static final int KEY_OFFSET = OCCUPIED_OFFSET + Integer.BYTES;
  static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
  static final String SUFFIX = ".model";

  private ModelCacheFile() {}

  /** What a header says. */
  record Header(int metricCode, int leaves, SliceGrid grid, int types, int arrays, long identity, String key,
      int occupied) {}

  static int headerBytes(String key) {
    return KEY_OFFSET + (int) align8(key.getBytes(StandardCharsets.UTF_8).length);
  }

  static long fileBytes(String key, ModelSums sums) {
    return fileBytes(key, sums.cells(), sums.arrays().length, occupancy(sums).cardinality());
  }

  private static long fileBytes(String key, long cells, int arrays, long occupied) {
    return headerBytes(key) + (cells + 63) / 64 * Long.BYTES + arrays * occupied * Double.BYTES;
  }

  /** The cells where some array holds a value other than +0.0 (-0.0 is kept, bit for bit). */
  private static java.util.BitSet occupancy(ModelSums sums) {
    java.util.BitSet occupied = new java.util.BitSet(sums.cells());
    for (double[] array : sums.arrays()) {
      for (int c = 0; c < array.length; c++) {
        if (Double.doubleToRawLongBits(array[c]) != 0) {
          occupied.set(c);
        }
      }
    }
    return occupied;
  }

  private static long align8(long bytes) {
    return (bytes + 7) & ~7L;
  }

  /** The file name of a model: its key and a hash of its grid. */
  static String fileName(String key, SliceGrid grid) {
    long bits = Double.doubleToLongBits(grid.start()) * 31 + Double.doubleToLongBits(grid.end());
    bits = bits * 31 + grid.slices();
    return key + "-" + Long.toHexString(bits * 0x9E3779B97F4A7C15L) + SUFFIX;
  }

  /** Writes the sums to a temporary file beside {@code file} and renames it into place. */
  static void write(Path file, long identity, String key, ModelSums sums, Path temporary) throws IOException {
    byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
    ByteBuffer header = ByteBuffer.allocate(headerBytes(key)).order(ORDER);
    header.put(0, MAGIC);
    header.putInt(VERSION_OFFSET, VERSION);
    header.putInt(METRIC_OFFSET, metricCode(sums.metric()));
    header.putInt(LEAVES_OFFSET, sums.leaves());
    header.putInt(SLICES_OFFSET, sums.grid().slices());
    header.putInt(TYPES_OFFSET, sums.types());
    header.putInt(ARRAYS_OFFSET, sums.arrays().length);
    header.putDouble(START_OFFSET, sums.grid().start());
    header.putDouble(END_OFFSET, sums.grid().end());
    header.putLong(IDENTITY_OFFSET, identity);
    header.putInt(KEY_LENGTH_OFFSET, keyBytes.length);
    java.util.BitSet occupied = occupancy(sums);
    header.putInt(OCCUPIED_OFFSET, occupied.cardinality());
    header.put(KEY_OFFSET, keyBytes);
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        java.io.DataOutputStream out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(
            java.nio.channels.Channels.newOutputStream(channel), 1 << 16))) {
      out.write(header.array());
      long[] words = occupied.toLongArray();
      long wordCount = (sums.cells() + 63L) / 64;
      for (int w = 0; w < wordCount; w++) {
        out.writeLong(Long.reverseBytes(w < words.length ? words[w] : 0));
      }
      for (double[] array : sums.arrays()) {
        for (int c = occupied.nextSetBit(0); c >= 0; c = occupied.nextSetBit(c + 1)) {
          out.writeLong(Long.reverseBytes(Double.doubleToRawLongBits(array[c])));
        }
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** What the header says of a metric: a built-in one's code, 0 for a plug-in's (named by the key). */
  static int metricCode(Metric metric) {
    return metric instanceof BuiltInMetric builtIn ? builtIn.ordinal() + 1 : 0;
  }

  private static void writeFully(FileChannel channel, ByteBuffer buffer, long at) throws IOException {
    long offset = at;
    buffer.rewind();
    while (buffer.hasRemaining()) {
      offset += channel.write(buffer, offset);
    }
  }

  /** The header of a cache file, or null when it is not one this version wrote whole. */
  static Header readHeader(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size < KEY_OFFSET) {
      return null;
    }
    ByteBuffer fixed = ByteBuffer.allocate(KEY_OFFSET).order(ORDER);
    readFully(channel, fixed, 0);
    byte[] magic = new byte[MAGIC.length];
    fixed.get(0, magic);
    int metricCode = fixed.getInt(METRIC_OFFSET);
    int keyLength = fixed.getInt(KEY_LENGTH_OFFSET);
    if (!Arrays.equals(magic, MAGIC) || fixed.getInt(VERSION_OFFSET) != VERSION
        || metricCode < 0 || metricCode > BuiltInMetric.values().length || keyLength < 1 || keyLength > 1024) {
      return null;
    }
    ByteBuffer keyBytes = ByteBuffer.allocate(keyLength);
    readFully(channel, keyBytes, KEY_OFFSET);
    String key = new String(keyBytes.array(), StandardCharsets.UTF_8);
    int leaves = fixed.getInt(LEAVES_OFFSET);
    int slices = fixed.getInt(SLICES_OFFSET);
    int types = fixed.getInt(TYPES_OFFSET);
    int arrays = fixed.getInt(ARRAYS_OFFSET);
    double start = fixed.getDouble(START_OFFSET);
    double end = fixed.getDouble(END_OFFSET);
    if (leaves < 1 || types < 1 || slices < 1 || slices > SliceGrid.MAX_SLICES || !(end > start)
        || Double.isInfinite(start) || Double.isInfinite(end) || arrays < 1 || arrays > Metrics.MAX_SUMS
        || (metricCode > 0 && arrays != ModelSums.arrayCount(BuiltInMetric.values()[metricCode - 1]))) {
      return null;
    }
    long cells = (long) leaves * slices * types;
    int occupied = fixed.getInt(OCCUPIED_OFFSET);
    if (cells > Integer.MAX_VALUE || occupied < 0 || occupied > cells
        || size != fileBytes(key, cells, arrays, occupied)) {
      return null;
    }
    return new Header(metricCode, leaves, new SliceGrid(start, end, slices), types, arrays,
        fixed.getLong(IDENTITY_OFFSET), key, occupied);
  }

  /** The sums of {@code metric} stored after a validated header, or null when its bitmap disagrees with it. */
  static ModelSums readSums(FileChannel channel, Header header, Metric metric) throws IOException {
    int cells = header.leaves() * header.grid().slices() * header.types();
    int words = (int) ((cells + 63L) / 64);
    MappedByteBuffer in = channel.map(FileChannel.MapMode.READ_ONLY, headerBytes(header.key()),
        (long) words * Long.BYTES + (long) header.arrays() * header.occupied() * Double.BYTES);
    in.order(ORDER);
    long[] bits = new long[words];
    in.asLongBuffer().get(bits);
    java.util.BitSet occupied = java.util.BitSet.valueOf(bits);
    if (occupied.cardinality() != header.occupied() || occupied.length() > cells) {
      return null;
    }
    java.nio.DoubleBuffer values = in.position(words * Long.BYTES).slice().order(ORDER).asDoubleBuffer();
    double[][] arrays = new double[header.arrays()][cells];
    for (double[] array : arrays) {
      for (int c = occupied.nextSetBit(0); c >= 0; c = occupied.nextSetBit(c + 1)) {
        array[c] = values.get();
      }
    }
    return new ModelSums(metric, header.grid(), header.leaves(), header.types(), arrays);
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer, long at) throws IOException {
    long offset = at;
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, offset);
      if (read < 0) {
        throw new java.io.EOFException("cache file shorter than its header says");
      }
      offset += read;
    }
  }
}
