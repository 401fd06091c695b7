package org.ocelotl.app;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --progress}, shared by every command that can take more than a second. */
public final class ProgressOption {
  @Option(names = "--progress",
      description = "Report progress on stderr even when it is not a terminal (on a terminal it always is).")
  boolean asked;

  ProgressBar bar(PrintWriter err) {
    return ProgressBar.of(err, asked);
  }
}
