package org.ocelotl.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.ocelotl.trace.TraceSink;

/** Writes small stores for tests. */
final class StoreFixtures {
  static final StoreMetadata.Source SOURCE =
      new StoreMetadata.Source("/traces/t.trace", 1234, 1_700_000_000_000L, "abc", "test");

  private StoreFixtures() {}

  /** Feeds a sink through a StoreWriter into {@code dir} (created) and opens the result. */
  static TraceStore write(Path dir, int capacity, Consumer<TraceSink> feed) throws IOException {
    Files.createDirectories(dir);
    StoreWriter writer = new StoreWriter(dir, capacity);
    feed.accept(writer);
    writer.finish(SOURCE);
    return TraceStore.open(dir);
  }
}
