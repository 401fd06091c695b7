package org.ocelotl.app;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.analysis.WarmUp;
import org.ocelotl.export.Format;
import org.ocelotl.export.GanttPicture;
import org.ocelotl.server.Api;
import org.ocelotl.server.OcelotlServer;
import org.ocelotl.server.TokenFile;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Option;

/** {@code --port}, {@code --bind}, {@code --open}: how {@code serve} and {@code view} listen. */
public final class ServerOptions {
  @Option(names = "--port", paramLabel = "P", defaultValue = "8642",
      description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only). "
          + "Reach a remote machine through an SSH tunnel rather than binding to a public address.")
  String bind;

  @Option(names = "--open", description = "Open the page in the default browser.")
  boolean open;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Keep the access token in FILE (created, owner-readable only, if missing), so the page's URL "
          + "and bookmarks stay valid across restarts. Default: a new token each run.")
  Path tokenFile;

  /**
   * Starts the server, prints its URL (token included) as the first line of output, and serves
   * until the process is stopped.
   *
   * @param served the trace the server is started on, whose own Gantt charts the warm-up draws too; null: none
   * @param query  extra query parameters for the printed URL ("&trace=…"), or ""
   */
  int serve(Api api, TraceStore served, String query, PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0 to 65535, got " + port);
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("--bind " + bind + ": unknown address");
    }
    OcelotlServer server = tokenFile == null ? OcelotlServer.start(address, port, api)
        : OcelotlServer.start(address, port, api, TokenFile.token(tokenFile));
    api.buildAheadOnlyWhile(server::idle);
    if (api.servesTraces()) {
      // The page's first Gantt chart, event table, statistics and zoom then run compiled code (decisions 063, 065, 070, 075).
      WarmUp.start(server::idle, ServerOptions::drawn, served);
    }
    String url = server.url() + query;
    out.println(url);
    out.flush();
    if (!address.isLoopbackAddress()) {
      err.println("ocelotl: listening on " + address.getHostAddress()
          + ", reachable from other machines; the token in the URL is the only guard");
    }
    err.println("ocelotl: serving; stop with Ctrl-C");
    err.flush();
    if (open) {
      openBrowser(url, err);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }));
    stopped.await();
    return 0;
  }

  private static void openBrowser(String url, PrintWriter err) {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    List<String> command = os.contains("mac") ? List.of("open", url)
        : os.contains("win") ? List.of("rundll32", "url.dll,FileProtocolHandler", url)
        : List.of("xdg-open", url);
    try {
      new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      err.println("ocelotl: could not open a browser (" + e.getMessage() + "); open the URL above yourself");
    }
  }

  /** A chart drawn as the page's SVG, to nowhere: the warm-up's drawing. */
  static void drawn(GanttView.Result chart) {
    try {
      GanttPicture.render(chart, Format.SVG, OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
