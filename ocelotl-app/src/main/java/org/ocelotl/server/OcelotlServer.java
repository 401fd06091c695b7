package org.ocelotl.server;

import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.trace.TraceFormatException;

/**
 * The HTTP server of the web UI: the page and its files from the classpath, and the JSON API
 * ({@link Api}), behind the {@link Access} checks, over the connections of {@link HttpListener}.
 *
 * <p>Connections run on threads far more numerous than the machine's cores: a slow client (or a
 * long computation) holds one thread while the others keep serving progress polls, lists and
 * other clients. The computations themselves are capped by the analysis service
 * ({@link AnalysisService#MAX_CONCURRENT}: beyond, 503), so the threads bound waiting, not work.
 * A request must arrive within {@value HttpListener#REQUEST_SECONDS} s, its URL and body are
 * bounded; a request that runs the heap out gets a 503, and the server goes on.
 */
public final class OcelotlServer implements AutoCloseable {
  /** A request line holds a view's state, never more than a few KB: 8 KB is generous. */
  static final int MAX_URL = 8 * 1024;
  /** The only body is an import's {"path": …}. */
  static final int MAX_BODY = 64 * 1024;

  private final HttpListener http;
  private final Access access;
  private final Api api;
  private final String url;
  /** How long after its last answer the server counts as idle: a page's requests come in bursts. */
  static final long QUIET_NANOS = 250_000_000L;
  /** Requests being answered, and when the last one was: what {@link #idle} reads. */
  private final java.util.concurrent.atomic.AtomicInteger answering = new java.util.concurrent.atomic.AtomicInteger();
  private volatile long lastAnswered = System.nanoTime();

  private OcelotlServer(HttpListener http, Access access, Api api, String url) {
    this.http = http;
    this.access = access;
    this.api = api;
    this.url = url;
  }

  /**
   * Starts a server on {@code bind:port} (port 0: any free port) answering with {@code api}.
   *
   * @throws IOException if the address cannot be bound (the message names it)
   */
  public static OcelotlServer start(InetAddress bind, int port, Api api) throws IOException {
    return start(bind, port, api, Access.newToken());
  }

  /** As {@link #start(InetAddress, int, Api)}, with a given token (one kept across restarts). */
  public static OcelotlServer start(InetAddress bind, int port, Api api, String token) throws IOException {
    // The handler needs the server, which needs the port: set once the socket is bound.
    java.util.concurrent.atomic.AtomicReference<OcelotlServer> server = new java.util.concurrent.atomic.AtomicReference<>();
    HttpListener http;
    try {
      http = HttpListener.start(new InetSocketAddress(bind, port), (request, headers) -> {
        OcelotlServer ready = server.get();
        if (ready == null) {
          throw new HttpError(503, "the server is starting; try again");
        }
        ready.answering.incrementAndGet();
        try {
          return ready.route(request, headers);
        } catch (Exception e) {
          return failure(e, ClientInput.of(request));
        } finally {
          ready.lastAnswered = System.nanoTime();
          ready.answering.decrementAndGet();
        }
      }, OcelotlServer::failure, MAX_BODY);
    } catch (IOException e) {
      throw new IOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
    }
    int actualPort = http.port();
    Access access = Access.forServer(token, bind, actualPort);
    String host = bind.isAnyLocalAddress() || bind.isLoopbackAddress() ? "127.0.0.1" : hostLiteral(bind);
    String url = "http://" + host + ":" + actualPort + "/?token=" + access.token();
    server.set(new OcelotlServer(http, access, api, url));
    return server.get();
  }

  private static String hostLiteral(InetAddress address) {
    String host = address.getHostAddress();
    return host.contains(":") ? "[" + host + "]" : host;
  }

  /** The page's address with the token: what the user opens. */
  public String url() {
    return url;
  }

  /**
   * Whether no request is being answered nor was in the last {@value #QUIET_NANOS} ns: background
   * work (the Gantt warm-up) runs only then.
   */
  public boolean idle() {
    return answering.get() == 0 && System.nanoTime() - lastAnswered >= QUIET_NANOS;
  }

  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    api.close();
    http.close();
  }

  private Response route(HttpListener.Request request, Headers responseHeaders) throws Exception {
    var headers = request.headers();
    if (!access.hostAllowed(headers)) {
      throw new HttpError(403, "this server answers only to localhost; Host '"
          + HttpError.quote(String.valueOf(headers.getFirst("Host"))) + "' refused");
    }
    if (!access.originAllowed(headers)) {
      throw new HttpError(403, "requests from another site's page are refused (Origin "
          + HttpError.quote(String.valueOf(headers.getFirst("Origin"))) + ")");
    }
    if (request.uri().toString().length() > MAX_URL) {
      throw new HttpError(414, "the URL is longer than " + MAX_URL + " bytes");
    }
    String path = request.uri().getRawPath();
    if (path == null) {
      throw HttpError.notFound("no such page: " + HttpError.quote(request.uri().toString()));
    }
    Params params = Params.parse(request.uri().getRawQuery());
    if (!access.tokenPresented(params.optional("token"), headers)) {
      if (path.equals("/")) {
        return staleTokenPage();
      }
      throw new HttpError(401, STALE_TOKEN);
    }
    String method = request.method();
    if (path.equals("/")) {
      requireMethod(method, "GET");
      responseHeaders.add("Set-Cookie", access.cookie());
      return asset("index.html");
    }
    if (path.startsWith("/assets/")) {
      requireMethod(method, "GET");
      return asset(path.substring("/assets/".length()));
    }
    if (path.startsWith("/api/")) {
      return api.handle(method, path.substring("/api/".length()), params,
          new String(request.body(), StandardCharsets.UTF_8));
    }
    throw HttpError.notFound("no such page: " + HttpError.quote(path));
  }

  static final String STALE_TOKEN = "this page's access token is not the server's: the server was restarted "
      + "(each run draws a new token) or the URL is incomplete. Open the URL that 'ocelotl serve' or "
      + "'ocelotl view' printed when it started; to keep one URL across restarts, start it with --token-file FILE";

  /** A person opening a bookmarked page after a restart reads why it fails and what to do. */
  private static Response staleTokenPage() {
    String html = "<!doctype html><meta charset=\"utf-8\"><title>Ocelotl: open the server's current URL</title>"
        + "<body style=\"font:15px/1.5 system-ui,sans-serif;max-width:42em;margin:3em auto\">"
        + "<h1>This link has expired</h1><p>Its access token is not this server's: the server was restarted "
        + "(each run draws a new token), or the URL was cut.</p><p>Open the URL that <code>ocelotl serve</code> or "
        + "<code>ocelotl view TRACE</code> printed when it started. To keep one URL (and your bookmarks) across "
        + "restarts, start the server with <code>--token-file FILE</code>.</p>";
    return new Response(401, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8), null);
  }

  static void requireMethod(String method, String expected) {
    if (!method.equals(expected)) {
      throw new HttpError(405, "method " + method + " not allowed here; use " + expected);
    }
  }

  private static Response asset(String name) throws IOException {
    if (!Assets.exists(name)) {
      throw HttpError.notFound("no such file: " + name);
    }
    return new Response(200, Assets.contentType(name), Assets.read(name), null);
  }

  /**
   * The JSON error that answers a request whose handling threw {@code e}, with every run of the
   * client's input in its message cut to {@value HttpError#ECHOED} characters (a 7,000-character
   * parameter name comes back as its first 200 and its length): wherever a refusal quotes what
   * it refuses, it never sends unbounded input back.
   */
  static Response failure(Throwable e, ClientInput input) {
    Response answer = failure(e);
    String message = e.getMessage();
    if (answer.status() >= 500 || message == null || !input.longerThanEchoed()) {
      return answer;
    }
    return error(answer.status(), input.cut(message));
  }

  /** The JSON error that answers a request whose handling threw {@code e} (also what the API's fuzz target checks). */
  static Response failure(Throwable e) {
    if (e instanceof HttpError http) {
      return error(http.status(), http.getMessage());
    } else if (e instanceof IllegalArgumentException) {
      return error(400, e.getMessage());
    } else if (e instanceof AnalysisService.Busy || e instanceof org.ocelotl.aggregation.HeapBudget.Busy) {
      return error(503, e.getMessage());
    } else if (e instanceof OutOfMemoryError) {
      return error(503, "this request ran the server's heap out (" + (Runtime.getRuntime().maxMemory() >> 20)
          + " MB): it was stopped and the server goes on; try again later, with fewer slices or producers, "
          + "or start the server with more memory (OCELOTL_JAVA_OPTS=-Xmx…)");
    } else if (e instanceof TraceFormatException) {
      return error(422, e.getMessage()); // the file was read, and is malformed: the message says where
    } else if (e instanceof IOException || e instanceof UncheckedIOException) {
      return error(500, e.getMessage());
    }
    return error(500, "internal error: " + e);
  }

  /** The body of every error answer. */
  record ErrorBody(int status, String error) {}

  private static Response error(int status, String message) {
    return new Response(status, "application/json; charset=utf-8",
        JsonForm.bytes(new ErrorBody(status, message == null ? "error" : message)), null);
  }

  /** The headers of every answer: its type, and no caching, sniffing, referrer or framing. */
  static void standardHeaders(Headers out, Response response) {
    out.set("Content-Type", response.contentType());
    out.set("Cache-Control", "no-store");
    out.set("X-Content-Type-Options", "nosniff");
    // The token is in the page's URL: never send it on as a referrer.
    out.set("Referrer-Policy", "no-referrer");
    out.set("X-Frame-Options", "DENY");
    out.set("Content-Security-Policy",
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    if (response.fileName() != null) {
      out.set("Content-Disposition", "attachment; filename=\"" + response.fileName() + "\"");
    }
  }
}
