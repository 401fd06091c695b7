package org.ocelotl.server;

import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The server's HTTP/1.1 connections: accepted within bounds, their requests read within a time,
 * handed to a handler, answered. Written here rather than taken from the JDK's server, which can
 * bound neither the connections of one address nor the time to read a request's head apart from
 * the time to answer it, and cannot tell a handler that its client has gone
 * (docs/decisions/030-own-http-connections.md).
 *
 * <p>One thread per connection, at most {@value #MAX_CONNECTIONS} in all and {@value
 * #MAX_PER_ADDRESS} per client address; beyond, a connection gets a 503 and is closed at once.
 * A request's head and body must arrive within {@value #REQUEST_SECONDS} s of its first byte, a
 * kept-alive connection may wait {@value #IDLE_SECONDS} s for its next request, and an answer must
 * be taken within {@value #ANSWER_SECONDS} s: a client that sends or reads a byte at a time
 * holds one of many threads for a bounded time. While a request is handled, its connection is
 * watched: a client that closed it has gone, and {@link #clientGone} says so to the handler's
 * work, which stops.
 *
 * <p>The accepting thread and the watcher allocate almost nothing and survive any error, an
 * {@link OutOfMemoryError} included: a computation that exhausts the heap fails alone.
 */
final class HttpListener implements AutoCloseable {
  static final int MAX_CONNECTIONS = 256;
  /** Above 80: on localhost every client, the page included, is one address. */
  static final int MAX_PER_ADDRESS = 128;
  static final int REQUEST_SECONDS = 10;
  static final int IDLE_SECONDS = 30;
  static final int ANSWER_SECONDS = 60;
  /** A request line and headers: the URL bound ({@link OcelotlServer#MAX_URL}) and room for headers. */
  static final int MAX_HEAD = 64 * 1024;
  static final int MAX_HEADERS = 100;
  /** How often connections are looked at: deadlines and clients gone are seen within this. */
  static final long WATCH_MILLIS = 250;

  /** A request as read: what the handler needs of it. */
  record Request(String method, URI uri, Headers headers, byte[] body) {}

  /** What answers a request; may throw, the exception then rendered by the failure function. */
  interface Handler {
    Response handle(Request request, Headers responseHeaders) throws Exception;
  }

  private static final ThreadLocal<Connection> CURRENT = new ThreadLocal<>();

  private final ServerSocket socket;
  private final Handler handler;
  private final java.util.function.Function<Throwable, Response> failure;
  private final int maxBody;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService watcher;
  private final Set<Connection> open = ConcurrentHashMap.newKeySet();
  private final Map<InetAddress, AtomicInteger> perAddress = new ConcurrentHashMap<>();
  private final Thread acceptor;
  private volatile boolean closed;

  private HttpListener(ServerSocket socket, Handler handler, java.util.function.Function<Throwable, Response> failure,
      int maxBody) {
    this.socket = socket;
    this.handler = handler;
    this.failure = failure;
    this.maxBody = maxBody;
    AtomicInteger numbers = new AtomicInteger();
    // No queue: the caps below keep the connections within the threads.
    this.workers = new ThreadPoolExecutor(0, MAX_CONNECTIONS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(r, "ocelotl-http-" + numbers.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.watcher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ocelotl-http-watch");
      t.setDaemon(true);
      return t;
    });
    this.acceptor = new Thread(this::accept, "ocelotl-http-accept");
    acceptor.setDaemon(true);
  }

  /** Listens on {@code address} (port 0: any free port) and serves until {@link #close}. */
  static HttpListener start(InetSocketAddress address, Handler handler,
      java.util.function.Function<Throwable, Response> failure, int maxBody) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      socket.setReuseAddress(true);
      socket.bind(address, 64);
    } catch (IOException e) {
      socket.close();
      throw e;
    }
    HttpListener listener = new HttpListener(socket, handler, failure, maxBody);
    listener.watcher.scheduleWithFixedDelay(listener::watch, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    listener.acceptor.start();
    return listener;
  }

  int port() {
    return socket.getLocalPort();
  }

  /**
   * Whether the client of the request this thread is handling has closed its connection; always
   * false off a request's thread (the command line).
   */
  static BooleanSupplier clientGone() {
    Connection connection = CURRENT.get();
    return connection == null ? () -> false : () -> connection.gone;
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    watcher.shutdownNow();
    open.forEach(Connection::close);
    workers.shutdownNow();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void accept() {
    while (!closed) {
      Socket client = null;
      try {
        client = socket.accept();
        admit(client);
      } catch (Throwable e) { // an error here must never end the accepting: not even an OutOfMemoryError
        if (client != null) {
          closeQuietly(client);
        }
      }
    }
  }

  private void admit(Socket client) throws IOException {
    InetAddress address = client.getInetAddress();
    AtomicInteger mine = perAddress.compute(address, (a, count) -> {
      AtomicInteger counted = count == null ? new AtomicInteger() : count;
      counted.incrementAndGet();
      return counted;
    });
    int ofAddress = mine.get();
    Connection connection = new Connection(client, address);
    if (open.size() >= MAX_CONNECTIONS || ofAddress > MAX_PER_ADDRESS) {
      connection.refuse(ofAddress > MAX_PER_ADDRESS
          ? "too many connections from " + address.getHostAddress() + " (" + MAX_PER_ADDRESS + " at most); try again"
          : "too many connections (" + MAX_CONNECTIONS + " at most); try again");
      return;
    }
    open.add(connection);
    try {
      workers.execute(connection::serve);
    } catch (RuntimeException e) { // no thread left (a race with the count): as over the cap
      connection.refuse("too many connections (" + MAX_CONNECTIONS + " at most); try again");
    }
  }

  /** Closes connections past their deadline and notices clients gone while their request is handled. */
  private void watch() {
    long now = System.nanoTime();
    for (Connection connection : open) {
      try {
        connection.watch(now);
      } catch (Throwable e) { // the watcher must outlive any one connection's trouble
        connection.close();
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // nothing to tell
    }
  }

  private enum State { IDLE, READING, HANDLING, ANSWERING }

  /** One client connection: its socket, its buffered input, and what it is doing since when. */
  private final class Connection {
    private final Socket client;
    private final InetAddress address;
    private final byte[] buffer = new byte[MAX_HEAD];
    private int start;
    private int end;
    /** How far the head being read has been looked at for its end. */
    private int scanned;
    private State state = State.IDLE;
    private long since = System.nanoTime();
    private volatile boolean gone;
    private boolean released;

    Connection(Socket client, InetAddress address) {
      this.client = client;
      this.address = address;
    }

    void refuse(String why) {
      try {
        client.setSoTimeout(1000);
        write(client.getOutputStream(), failure.apply(new HttpError(503, why)), new Headers(), false, false);
      } catch (IOException | RuntimeException e) {
        // refused either way
      } finally {
        close();
      }
    }

    void serve() {
      CURRENT.set(this);
      // An answer goes out in one write of its head and body, flushed: no wait for an ACK between them.
      try (InputStream in = client.getInputStream();
          OutputStream out = new java.io.BufferedOutputStream(client.getOutputStream(), 1 << 16)) {
        client.setTcpNoDelay(true);
        boolean keepAlive = true;
        while (keepAlive && !closed) {
          keepAlive = exchange(in, out);
        }
      } catch (IOException | RuntimeException | OutOfMemoryError e) {
        // the client went away, sent what is not HTTP, or this thread ran out of memory: close it
      } finally {
        CURRENT.remove();
        close();
      }
    }

    /** Reads one request, answers it; whether the connection stays open for another. */
    private boolean exchange(InputStream in, OutputStream out) throws IOException {
      Request request;
      Response response;
      Headers responseHeaders = new Headers();
      boolean keepAlive;
      try {
        int head = readHead(in);
        if (head < 0) {
          return false;
        }
        HeadParts parts = parse(head);
        keepAlive = parts.keepAlive;
        byte[] body = readBody(in, out, parts);
        request = new Request(parts.method, parts.uri, parts.headers, body);
      } catch (HttpError e) {
        write(out, failure.apply(e), responseHeaders, false, false);
        drain(in);
        return false;
      }
      set(State.HANDLING);
      try {
        response = handler.handle(request, responseHeaders);
      } catch (Exception e) {
        response = failure.apply(e);
      } catch (OutOfMemoryError e) {
        response = failure.apply(e);
      }
      if (!set(State.ANSWERING)) {
        return false;
      }
      write(out, response, responseHeaders, keepAlive, request.method().equals("HEAD"));
      set(State.IDLE);
      return keepAlive;
    }

    /** Reads up to the head's end (a blank line); its length, or -1 when the client closed first. */
    private int readHead(InputStream in) throws IOException {
      if (start == end) {
        start = 0;
        end = 0;
      }
      scanned = start;
      while (true) {
        int found = headEnd();
        if (found >= 0) {
          return found;
        }
        if (end == buffer.length) {
          if (start == 0) {
            throw badHead(431, "the request's line and headers exceed " + MAX_HEAD + " bytes");
          }
          System.arraycopy(buffer, start, buffer, 0, end - start);
          end -= start;
          scanned -= start;
          start = 0;
        }
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
          if (end > start) {
            throw new IOException("the client closed the connection inside a request");
          }
          return -1;
        }
        synchronized (this) {
          if (state == State.IDLE) {
            state = State.READING;
            since = System.nanoTime();
          }
        }
        end += n;
      }
    }

    /**
     * The length of the head (through its blank line) from {@code start}, or -1. Bytes looked at
     * before are not looked at again (a client sending a byte at a time would cost a scan of the
     * whole head per byte), but for the last three, which may begin the blank line.
     */
    private int headEnd() {
      int from = Math.max(start, scanned - 3);
      scanned = end;
      for (int i = from; i + 1 < end; i++) {
        if (buffer[i] == '\n' && (buffer[i + 1] == '\n' || buffer[i + 1] == '\r' && i + 2 < end && buffer[i + 2] == '\n')) {
          return (buffer[i + 1] == '\n' ? i + 2 : i + 3) - start;
        }
      }
      return -1;
    }

    private HttpError badHead(int status, String why) {
      return new HttpError(status, why);
    }

    private HeadParts parse(int length) {
      String head = new String(buffer, start, length, StandardCharsets.ISO_8859_1);
      start += length;
      String[] lines = head.split("\r?\n");
      String[] request = lines[0].split(" ");
      if (request.length != 3 || !request[2].startsWith("HTTP/1.")) {
        throw badHead(400, "not an HTTP/1.1 request line: " + HttpError.quote(lines[0]));
      }
      URI uri;
      try {
        uri = new URI(request[1]);
      } catch (URISyntaxException e) {
        throw badHead(400, "the request's URL is malformed: " + HttpError.quote(e.getMessage()));
      }
      Headers headers = new Headers();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon <= 0 || Character.isWhitespace(lines[i].charAt(0))) {
          throw badHead(400, "a malformed header line: " + HttpError.quote(lines[i]));
        }
        headers.add(lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim());
      }
      if (lines.length - 1 > MAX_HEADERS) {
        throw badHead(431, "more than " + MAX_HEADERS + " request headers");
      }
      String connection = String.valueOf(headers.getFirst("Connection")).toLowerCase(java.util.Locale.ROOT);
      boolean keepAlive = request[2].equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
      return new HeadParts(request[0], uri, headers, keepAlive);
    }

    private record HeadParts(String method, URI uri, Headers headers, boolean keepAlive) {}

    private byte[] readBody(InputStream in, OutputStream out, HeadParts parts) throws IOException {
      if (parts.headers.getFirst("Transfer-Encoding") != null) {
        throw new HttpError(411, "a request body must come with its Content-Length, not a transfer encoding");
      }
      String declared = parts.headers.getFirst("Content-Length");
      long length;
      try {
        length = declared == null ? 0 : Long.parseLong(declared.trim());
      } catch (NumberFormatException e) {
        throw new HttpError(400, "Content-Length: expected a number of bytes, found " + HttpError.quote(declared));
      }
      if (length < 0) {
        throw new HttpError(400, "Content-Length: expected a number of bytes, found " + length);
      }
      if (length > maxBody) {
        throw new HttpError(413, "the request body is larger than " + maxBody + " bytes");
      }
      if (length > 0 && "100-continue".equalsIgnoreCase(parts.headers.getFirst("Expect"))) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      byte[] body = new byte[(int) length];
      int have = Math.min(end - start, body.length);
      System.arraycopy(buffer, start, body, 0, have);
      start += have;
      while (have < body.length) {
        int n = in.read(body, have, body.length - have);
        if (n < 0) {
          throw new IOException("the client closed the connection inside a request body");
        }
        have += n;
      }
      return body;
    }

    /**
     * After a refusal, reads (and drops) what the client may still be sending, for a short while:
     * closing with unread bytes would reset the connection, and the client might lose the answer.
     */
    private void drain(InputStream in) throws IOException {
      client.shutdownOutput();
      client.setSoTimeout(2000);
      byte[] sink = new byte[8192];
      long left = 16L * maxBody;
      for (int n = in.read(sink); n > 0 && left > 0; n = in.read(sink)) {
        left -= n;
      }
    }

    /** Moves to a state, unless the connection was closed meanwhile (by the watcher). */
    private synchronized boolean set(State next) {
      if (released) {
        return false;
      }
      state = next;
      since = System.nanoTime();
      return true;
    }

    /**
     * Past its deadline, closed; handled, looked at: a read of what the client sent since (it may
     * send the next request early: kept) that finds its end means the client has gone.
     */
    synchronized void watch(long now) throws IOException {
      if (released) {
        return;
      }
      long age = now - since;
      switch (state) {
        case IDLE -> {
          if (age > TimeUnit.SECONDS.toNanos(IDLE_SECONDS)) {
            close();
          }
        }
        case READING -> {
          if (age > TimeUnit.SECONDS.toNanos(REQUEST_SECONDS)) {
            close();
          }
        }
        case ANSWERING -> {
          if (age > TimeUnit.SECONDS.toNanos(ANSWER_SECONDS)) {
            close();
          }
        }
        case HANDLING -> peek();
      }
    }

    private void peek() throws IOException {
      if (gone || end == buffer.length) {
        return;
      }
      client.setSoTimeout(1);
      try {
        int n = client.getInputStream().read(buffer, end, buffer.length - end);
        if (n < 0) {
          gone = true;
        } else {
          end += n;
        }
      } catch (SocketTimeoutException e) {
        // nothing sent: still there
      } finally {
        client.setSoTimeout(0);
      }
    }

    synchronized void close() {
      if (!released) {
        released = true;
        gone = true;
        perAddress.computeIfPresent(address, (a, count) -> count.decrementAndGet() <= 0 ? null : count);
        open.remove(this);
      }
      closeQuietly(client);
    }

    private void write(OutputStream out, Response response, Headers extra, boolean keepAlive, boolean headOnly)
        throws IOException {
      StringBuilder head = new StringBuilder(512);
      head.append("HTTP/1.1 ").append(response.status()).append(' ').append(reason(response.status())).append("\r\n");
      Headers headers = new Headers();
      headers.putAll(extra);
      OcelotlServer.standardHeaders(headers, response);
      headers.set("Content-Length", String.valueOf(response.body().length));
      headers.set("Connection", keepAlive ? "keep-alive" : "close");
      headers.forEach((name, values) -> values.forEach(v -> head.append(name).append(": ").append(v).append("\r\n")));
      head.append("\r\n");
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (!headOnly) {
        out.write(response.body());
      }
      out.flush();
    }
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 411 -> "Length Required";
      case 413 -> "Payload Too Large";
      case 414 -> "URI Too Long";
      case 422 -> "Unprocessable Entity";
      case 431 -> "Request Header Fields Too Large";
      case 503 -> "Service Unavailable";
      default -> status >= 500 ? "Server Error" : "Status";
    };
  }
}
