package org.ocelotl.app;

import java.io.IOException;
import java.nio.file.Path;
import org.ocelotl.workspace.Workspace;
import picocli.CommandLine.Option;

/** {@code --workspace DIR}, shared by every command that touches imported traces. */
public final class WorkspaceOption {
  @Option(names = "--workspace", paramLabel = "DIR",
      description = "Where imported traces are kept (default: $OCELOTL_HOME, else $XDG_CACHE_HOME/ocelotl, else ~/.cache/ocelotl).")
  Path directory;

  public Workspace open() throws IOException {
    return Workspace.open(directory != null ? directory : Workspace.defaultDirectory());
  }
}
