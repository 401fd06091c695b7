package org.ocelotl.workspace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.ocelotl.store.SourceFile;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.StoreWriter;
import org.ocelotl.trace.ReadOptions;
import org.ocelotl.trace.StateRules;
import org.ocelotl.trace.TraceFormat;
import org.ocelotl.trace.TraceFormatException;

/** Streams one trace file through its reader into a store directory. */
public final class Importer {
  private static final String CTF = "ctf";

  private Importer() {}

  /**
   * Reads {@code trace} into the empty directory {@code store}. On failure the directory holds
   * partial files and is the caller's to delete ({@link org.ocelotl.workspace.Workspace} does).
   *
   * @param trace the trace file, canonical
   * @throws TraceFormatException for malformed input
   */
  public static StoreMetadata importTrace(Path trace, TraceFormat format, ImportOptions options,
      ImportProgress progress, Path store, int chunkCapacity) throws IOException {
    return importTrace(trace, format, options, progress, new StoreWriter(store, chunkCapacity));
  }

  /**
   * Reads {@code trace} into {@code writer} and finishes it, or aborts it on failure: the import
   * above, with the writer chosen by the caller (the fuzz targets use {@link StoreWriter#discarding}).
   *
   * @throws TraceFormatException for malformed input
   */
  public static StoreMetadata importTrace(Path trace, TraceFormat format, ImportOptions options,
      ImportProgress progress, StoreWriter writer) throws IOException {
    StoreMetadata.Source source;
    try {
      source = SourceFile.describeReading(trace, format.name());
    } catch (IOException | RuntimeException e) {
      writer.abort();
      throw e;
    }
    return importTrace(trace, source, format, options, progress, writer);
  }

  /**
   * The import above, of a trace the caller has described: one on another file system (Hadoop's),
   * which {@code format}'s reader does not open through {@code trace} (the Spark jobs replay what
   * their tasks read), {@code trace} then only naming it in messages.
   */
  public static StoreMetadata importTrace(Path trace, StoreMetadata.Source source, TraceFormat format,
      ImportOptions options, ImportProgress progress, StoreWriter writer) throws IOException {
    boolean finished = false;
    try {
      long total = source.size();
      if (options.states() != null && !format.name().equals(CTF)) {
        throw new TraceFormatException(trace + ": state rules apply to CTF traces, whose states are pairs of"
            + " events; this trace is " + format.name() + ", whose states the format itself defines");
      }
      ReadOptions read = new ReadOptions(options.lenient(),
          bytes -> progress.update(bytes, total, writer.records()),
          options.states() != null ? options.states() : StateRules.DEFAULT);
      format.reader().get().read(trace, writer, read);
      StoreMetadata metadata = writer.finish(source);
      finished = true;
      progress.update(total, total, writer.records());
      return metadata;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (IllegalArgumentException | IllegalStateException e) {
      // The sink refuses ids a reader let through: say which file, since the user only sees that.
      throw new TraceFormatException(trace + ": " + e.getMessage());
    } finally {
      if (!finished) {
        writer.abort();
      }
    }
  }
}
