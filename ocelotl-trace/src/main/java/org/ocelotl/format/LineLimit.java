package org.ocelotl.format;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import org.ocelotl.trace.Limit;
import org.ocelotl.trace.TraceFormatException;

/**
 * A reader that refuses a line longer than {@link Limit#LINE_BYTES} before a line reader holds it
 * all ({@link java.io.BufferedReader#readLine} would grow one string until memory runs out on a
 * file without newlines). It counts characters, never more than the line's bytes, so a line it
 * refuses is over the limit.
 */
public final class LineLimit extends FilterReader {
  private final Path file;
  private final long limit = Limit.LINE_BYTES.value();
  private long line = 1;
  private long length;

  public LineLimit(Reader in, Path file) {
    super(in);
    this.file = file;
  }

  @Override
  public int read() throws IOException {
    int c = super.read();
    if (c >= 0) {
      count((char) c);
    }
    return c;
  }

  @Override
  public int read(char[] buffer, int offset, int count) throws IOException {
    int n = super.read(buffer, offset, count);
    for (int i = offset; i < offset + n; i++) {
      count(buffer[i]);
    }
    return n;
  }

  private void count(char c) throws TraceFormatException {
    if (c == '\n') {
      line++;
      length = 0;
    } else if (++length > limit) {
      throw TraceFormatException.atLine(file, line, Limit.LINE_BYTES.exceeded(limit), null);
    }
  }
}
