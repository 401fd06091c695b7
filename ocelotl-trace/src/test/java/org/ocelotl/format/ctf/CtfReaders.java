package org.ocelotl.format.ctf;

import java.io.IOException;
import java.nio.file.Path;
import org.ocelotl.trace.TraceReader;

/** CTF readers that tests outside this package need (the fuzz targets in {@code org.ocelotl.fuzz}). */
public final class CtfReaders {
  private CtfReaders() {}

  /**
   * A reader of traces whose metadata file is {@code metadataFile}, parsed here once and never
   * read again: every trace it reads must keep that file as it is now.
   */
  public static TraceReader withMetadataOf(Path metadataFile) throws IOException {
    CtfMetadata metadata = CtfMetadata.read(metadataFile);
    return new CtfReader(file -> {
      if (!file.equals(metadataFile)) {
        throw new AssertionError(file + ": not the metadata file this reader parsed, " + metadataFile);
      }
      return metadata;
    });
  }
}
