package org.ocelotl.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.trace.TraceFormatException;

/**
 * The HTTP server of the web UI: the page and its files from the classpath, and the JSON API
 * ({@link Api}), behind the {@link Access} checks. Built on the JDK's own HTTP server.
 *
 * <p>Connections run on a pool far larger than the machine's cores: a slow client (or a long
 * computation) holds one thread while the others keep serving progress polls, lists and other
 * clients. The computations themselves are capped by the analysis service
 * ({@link AnalysisService#MAX_CONCURRENT}: beyond, 503), so the pool size bounds waiting, not
 * work. A request must be read within {@value #REQUEST_SECONDS} s (the JDK server closes a
 * client that sends its headers a byte a second), its URL and body are bounded.
 */
public final class OcelotlServer implements AutoCloseable {
  private static final int THREADS = 64;
  static final int REQUEST_SECONDS = 20;
  /** A request line holds a view's state, never more than a few KB: 8 KB is generous. */
  static final int MAX_URL = 8 * 1024;
  /** The only body is an import's {"path": …}. */
  static final int MAX_BODY = 64 * 1024;

  static {
    // Read by the JDK's server when it is first used (jdk.httpserver's documented properties):
    // a request must arrive within this time, and the headers within a sane number.
    System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_SECONDS));
    System.setProperty("sun.net.httpserver.maxReqHeaders", "100");
  }

  private final HttpServer http;
  private final ExecutorService pool;
  private final Access access;
  private final Api api;
  private final String url;

  private OcelotlServer(HttpServer http, ExecutorService pool, Access access, Api api, String url) {
    this.http = http;
    this.pool = pool;
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
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(bind, port), 64);
    } catch (IOException e) {
      throw new IOException("cannot listen on " + bind.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
    }
    int actualPort = http.getAddress().getPort();
    Access access = Access.forServer(token, bind, actualPort);
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "ocelotl-http-" + threadNumber.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    String host = bind.isAnyLocalAddress() || bind.isLoopbackAddress() ? "127.0.0.1" : hostLiteral(bind);
    String url = "http://" + host + ":" + actualPort + "/?token=" + access.token();
    OcelotlServer server = new OcelotlServer(http, pool, access, api, url);
    http.createContext("/", server::handle);
    http.setExecutor(pool);
    http.start();
    return server;
  }

  private static String hostLiteral(InetAddress address) {
    String host = address.getHostAddress();
    return host.contains(":") ? "[" + host + "]" : host;
  }

  /** The page's address with the token: what the user opens. */
  public String url() {
    return url;
  }

  public int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    api.close();
    http.stop(0);
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) {
    try (exchange) {
      Response response;
      try {
        response = route(exchange);
      } catch (Exception e) {
        response = failure(e);
      }
      send(exchange, response);
    } catch (IOException e) {
      // the client went away (a cancelled fetch): nothing left to tell it
    }
  }

  private Response route(HttpExchange exchange) throws Exception {
    var headers = exchange.getRequestHeaders();
    if (!access.hostAllowed(headers)) {
      throw new HttpError(403, "this server answers only to localhost; Host '" + headers.getFirst("Host") + "' refused");
    }
    if (!access.originAllowed(headers)) {
      throw new HttpError(403, "requests from another site's page are refused (Origin " + headers.getFirst("Origin") + ")");
    }
    if (exchange.getRequestURI().toString().length() > MAX_URL) {
      throw new HttpError(414, "the URL is longer than " + MAX_URL + " bytes");
    }
    String path = exchange.getRequestURI().getRawPath();
    Params params = Params.parse(exchange.getRequestURI().getRawQuery());
    if (!access.tokenPresented(params.optional("token"), headers)) {
      if (path.equals("/")) {
        return staleTokenPage();
      }
      throw new HttpError(401, STALE_TOKEN);
    }
    String method = exchange.getRequestMethod();
    if (path.equals("/")) {
      requireMethod(method, "GET");
      exchange.getResponseHeaders().add("Set-Cookie", access.cookie());
      return asset("index.html");
    }
    if (path.startsWith("/assets/")) {
      requireMethod(method, "GET");
      return asset(path.substring("/assets/".length()));
    }
    if (path.startsWith("/api/")) {
      byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
      if (body.length > MAX_BODY) {
        throw new HttpError(413, "the request body is larger than " + MAX_BODY + " bytes");
      }
      return api.handle(method, path.substring("/api/".length()), params, new String(body, StandardCharsets.UTF_8));
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

  /** The JSON error that answers a request whose handling threw {@code e} (also what the API's fuzz target checks). */
  static Response failure(Exception e) {
    if (e instanceof HttpError http) {
      return error(http.status(), http.getMessage());
    } else if (e instanceof IllegalArgumentException) {
      return error(400, e.getMessage());
    } else if (e instanceof AnalysisService.Busy) {
      return error(503, e.getMessage());
    } else if (e instanceof TraceFormatException) {
      return error(422, e.getMessage()); // the file was read, and is malformed: the message says where
    } else if (e instanceof IOException || e instanceof UncheckedIOException) {
      return error(500, e.getMessage());
    }
    return error(500, "internal error: " + e);
  }

  private static Response error(int status, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", (long) status);
    body.put("error", message == null ? "error" : message);
    return new Response(status, "application/json; charset=utf-8",
        JsonForm.bytes(body), null);
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    var out = exchange.getResponseHeaders();
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
    exchange.sendResponseHeaders(response.status(), response.body().length == 0 ? -1 : response.body().length);
    if (response.body().length > 0) {
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(response.body());
      }
    }
  }
}
