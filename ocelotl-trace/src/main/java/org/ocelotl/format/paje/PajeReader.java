package org.ocelotl.format.paje;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.TraceFormatException;
import org.ocelotl.trace.TraceReader;
import org.ocelotl.trace.TraceSink;

/**
 * Reads a Pajé trace (PajeNG, SimGrid, ViTE, Akypuera), plain or gzip-compressed (recognised
 * by its magic bytes, whatever the file name), in one streaming pass: memory follows the
 * number of containers, types and open states or links, never the number of events.
 *
 * <p>Mapping into the sink: containers are producers (the root container "0" is producer 0,
 * kind = container type name); for states and events the event type is the entity value
 * (group = the Pajé state/event type name, colour from PajeDefineEntityValue); for variables
 * and links it is the variable or link type. Semantics follow pj_dump; docs/format-paje.md
 * lists the differences.
 */
public final class PajeReader implements TraceReader {
  private static final int GZIP_BUFFER = 1 << 16;
  /** Progress is reported after at least this many more bytes. */
  static final long PROGRESS_STEP = 4 << 20;

  /**
   * A plain trace of {@link PajeParallel#MIN_BYTES} or more, read strictly, by a process that may
   * use several processors, is read by {@link PajeParallel} (the same calls in the same order) in
   * {@link PajeParallel#parts} parts; a gzip'd one is read by one thread (its text exists only as
   * the stream inflates it), as is a lenient read.
   */
  @Override
  public void read(Path file, TraceSink sink, ReadOptions options) throws IOException {
    double origin = origin(file);
    if (!Double.isNaN(origin)) {
      sink.origin(origin);
    }
    int processors = Runtime.getRuntime().availableProcessors();
    if (processors > 1 && !options.lenient() && Files.size(file) >= PajeParallel.MIN_BYTES && !isGzip(file)) {
      PajeParallel.read(file, sink, options, PajeParallel.parts(processors));
      return;
    }
    readSequentially(file, sink, options);
  }

  /** Reads the trace on the caller's thread (and the file's read-ahead thread). */
  static void readSequentially(Path file, TraceSink sink, ReadOptions options) throws IOException {
    try (CountingInputStream raw = new CountingInputStream(new ReadAhead(file))) {
      InputStream text = isGzip(raw)
          ? new Expansion(file.toString(), new Members(raw), Files.size(file), sink::warning) : raw;
      long[] reported = {0};
      LineScanner lines = new LineScanner(text, () -> {
        if (raw.count - reported[0] >= PROGRESS_STEP) {
          reported[0] = raw.count;
          options.bytesRead().accept(raw.count);
        }
      });
      new PajeImport(file.toString(), sink, options, lines).run();
      options.bytesRead().accept(raw.count);
    } catch (EOFException | ZipException e) {
      throw gzipError(file.toString(), e);
    } catch (LineScanner.LineTooLongException e) {
      throw tooLong(file.toString(), e);
    }
  }

  /** The line a Pajé trace written by {@code ocelotl export} states its origin on (decision 053). */
  private static final Pattern ORIGIN = Pattern.compile("#\\s*ocelotl origin\\s+(\\S*)\\s*");
  /** The comment lines that open a trace are looked for the origin in its first bytes only. */
  private static final int HEAD_BYTES = 8192;

  /**
   * The time that times since the trace's start count from, when a comment line among those that
   * open the trace says it ({@code # ocelotl origin 3.5}: a part cut from a trace that started at
   * 3.5 s, written by {@code ocelotl export}); else NaN. A gzip error is left to the read proper.
   */
  static double origin(Path file) throws IOException {
    byte[] head;
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
      InputStream text = isGzip(raw) ? new GZIPInputStream(raw) : raw;
      head = text.readNBytes(HEAD_BYTES);
    } catch (EOFException | ZipException e) {
      return Double.NaN;
    }
    String[] lines = new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).split("\n", -1);
    for (int i = 0; i < lines.length - 1; i++) { // the last piece may be a line cut by HEAD_BYTES
      String line = lines[i].strip();
      if (!line.isEmpty() && !line.startsWith("#")) {
        break;
      }
      Matcher m = ORIGIN.matcher(line);
      if (m.matches()) {
        double time = parseOrigin(m.group(1));
        if (!Double.isFinite(time)) {
          throw TraceFormatException.atLine(file, i + 1, "expected a finite time after 'ocelotl origin', found '"
              + m.group(1) + "'", line);
        }
        return time;
      }
    }
    return Double.NaN;
  }

  private static double parseOrigin(String text) {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  static TraceFormatException tooLong(String file, LineScanner.LineTooLongException e) {
    return new TraceFormatException(file + ":" + e.line + ": " + e.getMessage());
  }

  private static boolean isGzip(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.read() == 0x1f && in.read() == 0x8b;
    }
  }

  /**
   * A gzip'd trace may expand {@link Limit#GZIP_RATIO} × its file's size (a gzip of 4 MB expanding
   * to 4 GB of newlines, issue 14, is no trace), and never less than this many bytes.
   */
  static final long MIN_EXPANSION = 64L << 20;

  /**
   * The text of the gzip'd trace {@code file} (its name in messages), refused beyond {@link
   * Limit#GZIP_RATIO} × its {@code compressed} size; the Spark import reads gzip'd traces with it too.
   */
  public static InputStream gunzip(String file, InputStream raw, long compressed) throws IOException {
    return new Expansion(file, new Members(raw), compressed, warning -> { });
  }

  /**
   * The gzip members of a file, one after the other, and whether bytes that are no gzip member
   * followed the last: the JDK's stream ignores them in silence (a file cut and appended to, two
   * files concatenated badly), so the text may lack what the user thinks is in it.
   */
  private static final class Members extends GZIPInputStream {
    Members(InputStream raw) throws IOException {
      super(raw, GZIP_BUFFER);
    }

    /**
     * At the end of the text: whether bytes follow the last member. The JDK's stream, after a
     * member's 8-byte trailer, tries the next bytes as a member's header and stops in silence if
     * they are none: the bytes it holds beyond the trailer, or any left in the file, are garbage.
     */
    boolean garbageAfterEnd() throws IOException {
      return inf.getRemaining() > 8 || in.read() >= 0;
    }
  }

  /** What a gzip stream's failure (cut short, or corrupt) says about the trace {@code file}. */
  public static TraceFormatException gzipError(String file, IOException e) {
    return e instanceof EOFException
        ? new TraceFormatException(file + ": truncated gzip data: the compressed stream ends early (expected the gzip trailer)")
        : new TraceFormatException(file + ": corrupt gzip data (" + e.getMessage() + ")");
  }

  /** The decompressed text, refused beyond {@link Limit#GZIP_RATIO} × the file's size. */
  private static final class Expansion extends java.io.FilterInputStream {
    private final String file;
    private final long compressed;
    private final long ratio = Limit.GZIP_RATIO.value();
    private final long limit;
    private long expanded;

    private final java.util.function.Consumer<String> warning;
    private boolean ended;

    Expansion(String file, Members in, long compressed, java.util.function.Consumer<String> warning) {
      super(in);
      this.file = file;
      this.compressed = compressed;
      this.limit = Math.max(MIN_EXPANSION, ratio * compressed);
      this.warning = warning;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? -1 : 1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      count(n);
      return n;
    }

    private void count(int n) throws IOException {
      if (n < 0) {
        if (!ended && ((Members) in).garbageAfterEnd()) {
          warning.accept(file + ": bytes that are no gzip data follow the compressed trace, and were ignored: "
              + "the file may have been cut and appended to");
        }
        ended = true;
        return;
      }
      expand(n);
    }

    private void expand(int n) throws TraceFormatException {
      expanded += n;
      if (expanded > limit) {
        throw new TraceFormatException(file + ": the gzip data expands more than " + ratio + "× its "
            + compressed + " bytes (over " + limit + " bytes): not a trace; if it is one, raise the limit with "
            + "OCELOTL_JAVA_OPTS=-Docelotl.gzip.maxRatio=N");
      }
    }
  }

  /** Whether the stream starts with the gzip magic bytes 1f 8b (the stream is not consumed). */
  private static boolean isGzip(InputStream in) throws IOException {
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    return first == 0x1f && second == 0x8b;
  }

  /** Counts the bytes read from the file (compressed bytes for gzip) for progress reports. */
  static final class CountingInputStream extends FilterInputStream {
    long count;

    CountingInputStream(InputStream in) {
      super(new BufferedInputStream(in, 1 << 16));
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public synchronized void mark(int limit) {
      in.mark(limit);
    }

    @Override
    public synchronized void reset() throws IOException {
      in.reset();
      count = 0;
    }
  }
}
