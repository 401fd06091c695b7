package org.ocelotl.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ocelotl.analysis.TraceSummary;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The traces the server shows: the stores of its workspace, named by their store directory
 * (an id a client can only pick from the list, never a path), opened once and kept.
 */
final class Traces {
  private final Workspace workspace;
  private final Map<String, TraceStore> open = new ConcurrentHashMap<>();

  Traces(Workspace workspace) {
    this.workspace = workspace;
  }

  Workspace workspace() {
    return workspace;
  }

  /** Every trace of the workspace, by name. */
  List<TraceStore> list() throws IOException {
    List<TraceStore> stores = new ArrayList<>();
    for (TraceStore listed : workspace.list()) {
      stores.add(open.computeIfAbsent(TraceSummary.id(listed), k -> listed));
    }
    return stores;
  }

  /** @throws HttpError 404 when no trace of the workspace has that id */
  TraceStore get(String id) throws IOException {
    TraceStore store = open.get(id);
    if (store != null) {
      return store;
    }
    for (TraceStore listed : list()) {
      if (TraceSummary.id(listed).equals(id)) {
        return listed;
      }
    }
    throw HttpError.notFound("no trace '" + HttpError.quote(id) + "' in the workspace; GET /api/traces lists them");
  }

  /**
   * The explicit import action: the only place a path sent by a client is read. It must name
   * an existing regular file (not a directory, device or pipe) of a format Ocelotl recognises.
   */
  TraceStore importFile(String pathText, ImportProgress progress) throws IOException {
    Path path;
    try {
      path = Path.of(pathText);
    } catch (java.nio.file.InvalidPathException e) {
      throw HttpError.badRequest("not a valid path: " + pathText);
    }
    if (!path.isAbsolute()) {
      throw HttpError.badRequest("give an absolute path on the server's machine, found '" + pathText + "'");
    }
    if (!Files.exists(path)) {
      throw HttpError.notFound(pathText + ": no such file on the server's machine");
    }
    if (!Files.isRegularFile(path)) {
      throw HttpError.badRequest(pathText + ": not a regular file; give the trace file itself (for OTF2, its .otf2 anchor file; for CTF, its metadata file)");
    }
    if (!Files.isReadable(path)) {
      throw new HttpError(403, pathText + ": the server may not read this file");
    }
    try {
      workspace.formats().detect(path);
    } catch (org.ocelotl.trace.TraceFormatException e) {
      // Not the detector's message: its advice names a command-line option the page does not have.
      throw new HttpError(415, pathText + ": not a trace format Ocelotl recognises ("
          + String.join(", ", workspace.formats().all().stream().map(org.ocelotl.trace.TraceFormat::name).toList()) + ")");
    }
    TraceStore store = workspace.store(path, ImportOptions.DEFAULT, progress);
    open.put(TraceSummary.id(store), store);
    return store;
  }

  /** The workspace's store for a file given on the command line (imported on first use). */
  TraceStore openFile(Path path, ImportProgress progress) throws IOException {
    TraceStore store = workspace.store(path, ImportOptions.DEFAULT, progress);
    open.put(TraceSummary.id(store), store);
    return store;
  }
}
