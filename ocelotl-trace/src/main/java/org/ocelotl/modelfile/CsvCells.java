package org.ocelotl.modelfile;

import static org.ocelotl.modelfile.ModelCsv.MODEL_HEADER;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The cells of a model CSV file as primitive columns, read from its bytes: a line costs no object
 * (names are looked up by their bytes, numbers parsed in place), which made reading 5–10× faster
 * than a String, a field list and a record per line (docs/benchmarks.md).
 *
 * <p>A file of several megabytes is cut into byte ranges, one per processor, each starting where a
 * line starts, and the ranges are read on as many threads: in a fresh JVM most of the read runs in
 * the interpreter and in code compiled without optimisation, and two threads do that twice as fast
 * on two free processors (docs/benchmarks.md, issue 18 item 3). Each range numbers the names it
 * meets in its own order; joining renumbers them so that names come in the order of their first
 * appearance in the file, and line numbers count from the file's first line. The earliest range
 * that fails reports its error, whose line is then the file's first bad line, as a reading from
 * start to end would find it.
 */
final class CsvCells {
  /** A range smaller than this is not worth a thread of its own. */
  static final long MIN_RANGE = 4 << 20;
  /**
   * A range starts at the first line start at or after its nominal offset, looked for within this
   * many bytes; a model line (a name, two numbers and a value) is far shorter, and a longer one
   * merges two ranges.
   */
  static final int LINE_START_SEARCH = 1 << 16;

  final Names producers;
  final Names types;
  /** The ranges in file order, their cells numbered in the names above. */
  final List<Range> ranges;
  /** The highest slice of any cell, −1 without cells. */
  final int highest;

  private CsvCells(Names producers, Names types, List<Range> ranges, int highest) {
    this.producers = producers;
    this.types = types;
    this.ranges = ranges;
    this.highest = highest;
  }

  /** How many ranges the file is read in: one per processor, each at least {@link #MIN_RANGE} bytes. */
  static int rangesFor(Path file) throws IOException {
    return (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), Files.size(file) / MIN_RANGE));
  }

  /** Reads the file in at most {@code ranges} byte ranges, each on its own thread. */
  static CsvCells read(Path file, int ranges) throws IOException {
    String name = file.toString();
    if (ranges == 1) {
      try (InputStream in = Files.newInputStream(file)) {
        return joined(new Range[] {Range.read(in, name, true)});
      }
    }
    try (FileChannel channel = FileChannel.open(file)) {
      long[] starts = lineStarts(channel, ranges);
      Range[] read = new Range[starts.length];
      Throwable[] failed = new Throwable[starts.length];
      Thread[] threads = new Thread[starts.length];
      for (int k = 1; k < starts.length; k++) {
        int range = k;
        long end = k + 1 < starts.length ? starts[k + 1] : Long.MAX_VALUE;
        threads[k] = new Thread(() -> {
          try {
            read[range] = Range.read(new RangeStream(channel, starts[range], end), name, false);
          } catch (IOException | RuntimeException | Error e) {
            failed[range] = e;
          }
        }, "model-csv-" + k);
        threads[k].setDaemon(true);
        threads[k].start();
      }
      try {
        read[0] = Range.read(new RangeStream(channel, 0, starts.length > 1 ? starts[1] : Long.MAX_VALUE), name, true);
      } catch (IOException | RuntimeException | Error e) {
        failed[0] = e;
      }
      join(threads);
      return joined(read, failed);
    }
  }

  /**
   * Where each range starts: 0, then the line start at or after each k · size / ranges; a nominal
   * offset with no line start within {@link #LINE_START_SEARCH} bytes, or the same start as the
   * range before, adds no range.
   */
  static long[] lineStarts(FileChannel channel, int ranges) throws IOException {
    long size = channel.size();
    long[] starts = new long[ranges];
    int count = 1;
    byte[] bytes = new byte[LINE_START_SEARCH + 1];
    for (int k = 1; k < ranges; k++) {
      long share = size * k / ranges;
      long start = share == 0 ? 0 : lineStart(channel, share, bytes);
      if (start > starts[count - 1] && start < size) {
        starts[count++] = start;
      }
    }
    return Arrays.copyOf(starts, count);
  }

  /**
   * The first line start at or after {@code offset} (≥ 1), −1 if none within the search: after a
   * \n, or after a \r that no \n follows (\r\n is one line end, so a range never starts between
   * them, where a reading from the start would not see a line start either).
   */
  private static long lineStart(FileChannel channel, long offset, byte[] bytes) throws IOException {
    long at = offset - 1;
    int length = readFully(channel, at, bytes);
    for (int i = 0; i < length; i++) {
      if (bytes[i] == '\n') {
        return at + i + 1;
      }
      if (bytes[i] == '\r') {
        if (i + 1 < length) {
          return at + i + (bytes[i + 1] == '\n' ? 2 : 1);
        }
        return length < bytes.length ? at + i + 1 : -1; // a \r that ends the file, or a search cut after it
      }
    }
    return -1;
  }

  private static int readFully(FileChannel channel, long at, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining() && channel.read(buffer, at + buffer.position()) >= 0) {
      // positional reads of a regular file stop short only at its end
    }
    return buffer.position();
  }

  private static void join(Thread[] threads) throws InterruptedIOException {
    for (Thread thread : threads) {
      try {
        if (thread != null) {
          thread.join();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading a model file");
      }
    }
  }

  /** The ranges joined, or the first failure in file order with its line counted from the file's start. */
  private static CsvCells joined(Range[] ranges, Throwable[] failed) throws IOException {
    long lines = 0;
    for (int k = 0; k < ranges.length; k++) {
      if (failed[k] instanceof ModelFormatException format) {
        throw format.linesLater(lines);
      } else if (failed[k] instanceof IOException other) {
        throw other;
      } else if (failed[k] instanceof RuntimeException other) {
        throw other;
      } else if (failed[k] != null) {
        throw (Error) failed[k];
      }
      lines += ranges[k].lines;
    }
    return joined(ranges);
  }

  /** The first range's names become the file's; the others' are renumbered into them, in order. */
  private static CsvCells joined(Range[] ranges) throws CharacterCodingException {
    Names producers = ranges[0].producers;
    Names types = ranges[0].types;
    int highest = ranges[0].highest;
    for (int k = 1; k < ranges.length; k++) {
      Range range = ranges[k];
      range.renumber(range.producers.idsIn(producers), range.types.idsIn(types));
      range.linesBefore = ranges[k - 1].linesBefore + ranges[k - 1].lines;
      highest = Math.max(highest, range.highest);
    }
    return new CsvCells(producers, types, List.of(ranges), highest);
  }

  /** The bytes [from, to) of a file, by positional reads, so that the ranges share one channel. */
  private static final class RangeStream extends InputStream {
    private final FileChannel channel;
    private final long to;
    private long position;

    RangeStream(FileChannel channel, long from, long to) {
      this.channel = channel;
      this.position = from;
      this.to = to;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
      if (position >= to) {
        return -1;
      }
      int read = channel.read(ByteBuffer.wrap(bytes, offset, (int) Math.min(length, to - position)), position);
      if (read > 0) {
        position += read;
      }
      return read;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }
  }

  /** The cells of one byte range of the file, its lines numbered from 1 until joined. */
  static final class Range {
    final Names producers = new Names();
    final Names types = new Names();
    /** The lines of the file before the range. */
    long linesBefore;
    /** The range's lines, the blank ones included. */
    long lines;
    int count;
    int highest = -1;
    int[] producer = new int[1024];
    int[] slice = new int[1024];
    int[] type = new int[1024];
    double[] value = new double[1024];
    private int[] line = new int[1024];

    /** The line of cell k in the file. */
    long line(int k) {
      return linesBefore + line[k];
    }

    static Range read(InputStream in, String file, boolean header) throws IOException {
      Range range = new Range();
      LineSplitter lines = new LineSplitter(in, file);
      if (header) {
        ModelCsv.requireHeader(lines, file, MODEL_HEADER);
      }
      try {
        while (lines.next()) {
          range.add(lines, file);
        }
      } catch (CharacterCodingException e) {
        throw new ModelFormatException(file, lines.number(), "the line is not UTF-8 text");
      }
      range.lines = lines.number();
      return range;
    }

    private void renumber(int[] producers, int[] types) {
      for (int k = 0; k < count; k++) {
        producer[k] = producers[producer[k]];
        type[k] = types[type[k]];
      }
    }

    private void add(LineSplitter lines, String file) throws IOException {
      byte[] b = lines.bytes();
      int from = lines.from();
      int to = lines.to();
      if (blank(b, from, to)) {
        return;
      }
      int line = Math.toIntExact(lines.number());
      int c1 = indexOf(b, from, to);
      int c2 = c1 < 0 ? -1 : indexOf(b, c1 + 1, to);
      int c3 = c2 < 0 ? -1 : indexOf(b, c2 + 1, to);
      int p;
      int u;
      int s;
      double v;
      if (c3 < 0 || indexOf(b, c3 + 1, to) >= 0 || b[from] == '"' || b[c2 + 1] == '"') {
        // Quoted names, or a wrong number of fields: the general splitter, which says what is wrong.
        List<String> fields = ModelCsv.fields(lines.text(), file, line, 4);
        s = parseSlice(fields.get(1), file, line);
        v = parseValue(fields.get(3), file, line);
        p = producers.id(fields.get(0));
        u = types.id(fields.get(2));
      } else {
        s = parseSlice(b, c1 + 1, c2, file, line);
        v = parseValue(b, c3 + 1, to, file, line);
        p = producers.id(b, lines.from(), c1);
        u = types.id(b, c2 + 1, c3);
      }
      if (count == producer.length) {
        int grown = count * 2;
        producer = Arrays.copyOf(producer, grown);
        slice = Arrays.copyOf(slice, grown);
        type = Arrays.copyOf(type, grown);
        value = Arrays.copyOf(value, grown);
        this.line = Arrays.copyOf(this.line, grown);
      }
      producer[count] = p;
      slice[count] = s;
      type[count] = u;
      value[count] = v;
      this.line[count] = line;
      count++;
      highest = Math.max(highest, s);
    }
  }

  private static boolean blank(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == ',') {
        return i;
      }
    }
    return -1;
  }

  private static int firstNonSpace(byte[] b, int from, int to) {
    while (from < to && b[from] == ' ') {
      from++;
    }
    return from;
  }

  private static int afterLastNonSpace(byte[] b, int from, int to) {
    while (to > from && b[to - 1] == ' ') {
      to--;
    }
    return to;
  }

  private static int parseSlice(byte[] b, int from, int to, String file, long line) throws ModelFormatException {
    int start = firstNonSpace(b, from, to);
    int end = afterLastNonSpace(b, start, to);
    long slice = 0;
    for (int i = start; i < end; i++) {
      int digit = b[i] - '0';
      if (digit < 0 || digit > 9 || slice > Integer.MAX_VALUE) {
        return parseSlice(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
      }
      slice = slice * 10 + digit;
    }
    if (start == end || slice > Integer.MAX_VALUE) {
      return parseSlice(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    return (int) slice;
  }

  private static double parseValue(byte[] b, int from, int to, String file, long line) throws ModelFormatException {
    int start = firstNonSpace(b, from, to);
    int end = afterLastNonSpace(b, start, to);
    double value;
    try {
      value = JavaDoubleParser.parseDouble(b, start, end - start);
    } catch (NumberFormatException e) {
      return parseValue(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    if (!(value >= 0) || Double.isInfinite(value)) {
      return parseValue(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    return value;
  }

  private static int parseSlice(String field, String file, long line) throws ModelFormatException {
    try {
      int slice = Integer.parseInt(field.strip());
      if (slice >= 0) {
        return slice;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ModelFormatException(file, line, "expected a slice number ≥ 0, found \"" + field + "\"");
  }

  private static double parseValue(String field, String file, long line) throws ModelFormatException {
    double value;
    try {
      value = Double.parseDouble(field.strip());
    } catch (NumberFormatException e) {
      throw new ModelFormatException(file, line, "expected a number as value, found \"" + field + "\"");
    }
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new ModelFormatException(file, line, "expected a finite value ≥ 0, found " + field.strip());
    }
    return value;
  }
}
