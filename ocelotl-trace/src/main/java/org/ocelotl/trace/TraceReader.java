package org.ocelotl.trace;

import java.io.IOException;
import java.nio.file.Path;

/** A reader of one trace format: streams the file(s) once into a sink. */
public interface TraceReader {
  /**
   * Reads the trace at {@code file} into {@code sink}, calling {@link TraceSink#end} last.
   *
   * @throws TraceFormatException for malformed input, naming file, line (or offset) and what
   *     was expected; nothing the sink received may then be kept
   */
  void read(Path file, TraceSink sink, ReadOptions options) throws IOException;
}
