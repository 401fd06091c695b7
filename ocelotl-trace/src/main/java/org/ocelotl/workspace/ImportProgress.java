package org.ocelotl.workspace;

/** Told from time to time (never per record) how far an import has come. */
@FunctionalInterface
public interface ImportProgress {
  ImportProgress NONE = (bytesRead, totalBytes, records) -> { };

  void update(long bytesRead, long totalBytes, long records);

  /** A one-line note for the user before the import starts, e.g. why the trace is imported again. */
  default void note(String message) {}
}
