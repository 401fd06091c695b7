package org.ocelotl.workspace;

/** Told from time to time (never per record) how far an import has come. */
@FunctionalInterface
public interface ImportProgress {
  ImportProgress NONE = (bytesRead, totalBytes, records) -> { };

  void update(long bytesRead, long totalBytes, long records);
}
