package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelSource;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.workspace.Workspace;

/**
 * The server under load and abuse, on loopback only and with bounded loops: many clients at
 * once, a client that sends its request a byte at a time, oversized and malformed requests, and
 * more computations than it may run at once. Figures (requests/s, p99) are printed for
 * docs/reliability.md, never asserted: the machine is shared.
 */
class ServerAbuseTest {
  @TempDir static Path dir;
  static OcelotlServer server;
  static String base;
  static String token;
  static String traceId;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()));
    base = "http://127.0.0.1:" + server.port();
    token = URI.create(server.url()).getQuery().substring("token=".length());
    Path trace = dir.resolve("tiny.trace");
    try (InputStream in = ServerAbuseTest.class.getResourceAsStream("tiny.trace")) {
      Files.copy(in, trace);
    }
    HttpResponse<String> imported = send(HttpRequest.newBuilder(URI.create(base + "/api/import"))
        .POST(HttpRequest.BodyPublishers.ofString(PlainJson.write(Map.of("path", trace.toString())))));
    assertEquals(200, imported.statusCode(), imported.body());
    traceId = URLEncoder.encode((String) ((Map<?, ?>) PlainJson.parse(imported.body())).get("id"), StandardCharsets.UTF_8);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.header(Access.HEADER, token).build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String pathAndQuery) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)));
  }

  /** 50 clients × 20 mixed requests: every answer right, the heap back where it was. */
  @Test
  void fiftyClientsAtOnceAllGetTheirAnswers() throws Exception {
    List<String> models = List.of("&slices=10", "&slices=12&aggregation=spatiotemporal", "&slices=16&view=stacked");
    for (String m : models) {
      assertEquals(200, get("/api/overview?trace=" + traceId + m).statusCode()); // computed once, then kept
    }
    long heapBefore = usedHeapAfterGc();
    int clients = 50;
    int perClient = 20;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<long[]>> results = new ArrayList<>();
    long started = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      long seed = 1000 + c;
      results.add(pool.submit(() -> {
        Random random = new Random(seed);
        long[] latencies = new long[perClient];
        for (int r = 0; r < perClient; r++) {
          String request = switch (random.nextInt(5)) {
            case 0 -> "/api/traces";
            case 1 -> "/api/traces/" + traceId + "/producers";
            case 2 -> "/api/breakpoints?format=csv&trace=" + traceId + models.get(random.nextInt(models.size()));
            default -> "/api/overview?trace=" + traceId + models.get(random.nextInt(models.size()))
                + "&p=" + random.nextInt(100) / 100.0;
          };
          long t0 = System.nanoTime();
          HttpResponse<String> response = get(request);
          latencies[r] = System.nanoTime() - t0;
          assertEquals(200, response.statusCode(), "seed " + seed + ": " + request + " → " + response.body());
          assertTrue(response.body().length() > 10, "seed " + seed + ": " + request);
        }
        return latencies;
      }));
    }
    long[] all = new long[clients * perClient];
    int k = 0;
    for (Future<long[]> f : results) {
      for (long latency : f.get(5, TimeUnit.MINUTES)) {
        all[k++] = latency;
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    pool.shutdown();
    Arrays.sort(all);
    long heapAfter = usedHeapAfterGc();
    System.out.printf("load: %d requests in %.2f s (%.0f requests/s), median %.1f ms, p99 %.1f ms, heap %d → %d MB%n",
        all.length, seconds, all.length / seconds, all[all.length / 2] / 1e6, all[all.length * 99 / 100] / 1e6,
        heapBefore >> 20, heapAfter >> 20);
    assertTrue(heapAfter < heapBefore + (256L << 20), "the heap after the load stays within 256 MB of before: "
        + (heapBefore >> 20) + " → " + (heapAfter >> 20) + " MB");
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }

  /** A client that sends its request a byte at a time does not delay the others. */
  @Test
  void aSlowClientDoesNotDelayTheOthers() throws Exception {
    AtomicBoolean slowDone = new AtomicBoolean();
    CountDownLatch slowStarted = new CountDownLatch(1);
    Thread slow = new Thread(() -> {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
        OutputStream out = socket.getOutputStream();
        byte[] request = ("GET /api/traces HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n"
            + Access.HEADER + ": " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 12; i++) { // 12 bytes over ~3 s, then it gives up
          out.write(request[i]);
          out.flush();
          slowStarted.countDown();
          Thread.sleep(250);
        }
      } catch (Exception e) {
        // the server may close a client this slow: that is allowed
      } finally {
        slowDone.set(true);
      }
    });
    slow.start();
    assertTrue(slowStarted.await(10, TimeUnit.SECONDS));
    for (int i = 0; i < 10; i++) {
      assertEquals(200, get("/api/traces").statusCode());
    }
    assertTrue(!slowDone.get(), "ten requests were answered while the slow client was still sending");
    slow.join();
  }

  @Test
  void oversizedAndMalformedRequestsGetAJsonRefusal() throws Exception {
    HttpResponse<String> longUrl = get("/api/traces?x=" + "a".repeat(OcelotlServer.MAX_URL));
    assertEquals(414, longUrl.statusCode());
    assertTrue(longUrl.body().startsWith("{\"status\":414"), longUrl.body());
    HttpResponse<String> bigBody = send(HttpRequest.newBuilder(URI.create(base + "/api/import"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"path\":\"" + "a".repeat(OcelotlServer.MAX_BODY) + "\"}")));
    assertEquals(413, bigBody.statusCode(), bigBody.body());
    HttpResponse<String> nested = send(HttpRequest.newBuilder(URI.create(base + "/api/import"))
        .POST(HttpRequest.BodyPublishers.ofString("[".repeat(60_000))));
    assertEquals(400, nested.statusCode(), nested.body());
    assertTrue(nested.body().contains("the body must be JSON") && nested.body().length() < 1000, nested.body());
    HttpResponse<String> unknown = get("/api/" + "x".repeat(5000));
    assertEquals(404, unknown.statusCode());
    assertTrue(unknown.body().length() < 600, "an error never echoes unbounded input: " + unknown.body().length());
  }

  @Test
  void pagesAreRememberedUpToABound() {
    Jobs jobs = new Jobs();
    for (int i = 0; i < Jobs.MAX_CLIENTS + 500; i++) {
      jobs.end(jobs.begin("page-" + i, 1));
    }
    assertEquals(Jobs.MAX_CLIENTS, jobs.clients());
    assertEquals(new Jobs.Idle(), jobs.progress("page-" + (Jobs.MAX_CLIENTS + 499)));
    // After a 503 the page asks again with the same number: allowed once the first has ended.
    Jobs.Job first = jobs.begin("retry", 7);
    HttpError inFlight = org.junit.jupiter.api.Assertions.assertThrows(HttpError.class, () -> jobs.begin("retry", 7));
    assertEquals(409, inFlight.status());
    jobs.end(first);
    jobs.end(jobs.begin("retry", 7));
    assertEquals(409, org.junit.jupiter.api.Assertions.assertThrows(HttpError.class, () -> jobs.begin("retry", 6)).status());
  }

  /**
   * Work nobody waits for stops: a request whose page polled its progress, then stopped polling
   * (closed, gone elsewhere), is abandoned at its next check; one still polled, or never polled
   * (a script), goes on.
   */
  @Test
  void aRequestWhosePageStoppedPollingIsAbandoned() throws Exception {
    Jobs quick = new Jobs(100_000_000L); // abandoned after 0.1 s without a poll
    Jobs.Job left = quick.begin("gone", 1);
    quick.progress("gone");
    Thread.sleep(300);
    HttpError abandoned = org.junit.jupiter.api.Assertions.assertThrows(HttpError.class, left::check);
    assertEquals(409, abandoned.status());
    assertEquals("request 1 was abandoned: its page stopped asking for its progress", abandoned.getMessage());
    Jobs.Job script = quick.begin(null, 0);
    Thread.sleep(300);
    script.check(); // never polled: never abandoned
    Jobs patient = new Jobs(); // 10 s
    Jobs.Job watched = patient.begin("here", 1);
    patient.progress("here");
    watched.check();
  }

  /**
   * Cancel stops the work, not just the wait: a spatiotemporal search of the bundled trace at
   * N = 100 (tens of seconds) is cancelled while computing; the request answers 409 and the
   * process's CPU time stops growing.
   */
  @Test
  void cancelStopsTheComputation() throws Exception {
    Path bundled = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz").normalize();
    HttpResponse<String> imported = send(HttpRequest.newBuilder(URI.create(base + "/api/import"))
        .POST(HttpRequest.BodyPublishers.ofString(PlainJson.write(Map.of("path", bundled.toString())))));
    assertEquals(200, imported.statusCode(), imported.body());
    String id = URLEncoder.encode((String) ((Map<?, ?>) PlainJson.parse(imported.body())).get("id"), StandardCharsets.UTF_8);
    var running = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(base + "/api/overview?trace=" + id
        + "&aggregation=spatiotemporal&slices=100&client=cancel-test&seq=1")).header(Access.HEADER, token).build(),
        HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + 120_000_000_000L;
    Map<?, ?> progress;
    do {
      Thread.sleep(100);
      progress = (Map<?, ?>) PlainJson.parse(get("/api/progress?client=cancel-test").body());
    } while (!"computing qualities and breakpoints".equals(progress.get("stage")) && System.nanoTime() < deadline);
    assertEquals("computing qualities and breakpoints", progress.get("stage"), "the search started");
    Thread.sleep(500);
    HttpResponse<String> cancel = send(HttpRequest.newBuilder(URI.create(base + "/api/cancel?client=cancel-test"))
        .POST(HttpRequest.BodyPublishers.noBody()));
    assertEquals("{\"cancelled\":true}", cancel.body());
    HttpResponse<String> answer = running.get(60, TimeUnit.SECONDS);
    assertEquals(409, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("cancelled"), answer.body());
    Thread.sleep(1000);
    Map<Long, Long> before = javaThreadsCpu();
    Thread.sleep(2000);
    Map<Long, Long> after = javaThreadsCpu();
    double busy = after.entrySet().stream().mapToLong(e -> e.getValue() - before.getOrDefault(e.getKey(), 0L)).sum() / 1e9;
    assertTrue(busy < 1.0, "CPU seconds used in the 2 s after the cancel: " + busy + " (a search still running uses ~4)");
  }

  /**
   * The CPU nanoseconds of every live Java thread but the analyses' work built ahead while idle
   * (decisions 068, 072, 078: its threads are named so), by thread id. Counted per thread, not for
   * the process: the JIT compilers and the collector (not Java threads) and a chain of parts that
   * another test's service left running in this JVM are not the cancelled search.
   */
  private static Map<Long, Long> javaThreadsCpu() {
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new java.util.HashMap<>();
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && !info.getThreadName().startsWith("ocelotl-chain")
          && !info.getThreadName().equals("ocelotl-neighbours") && !info.getThreadName().equals("ocelotl-parts-ahead")) {
        long nanos = threads.getThreadCpuTime(info.getThreadId());
        if (nanos >= 0) {
          cpu.put(info.getThreadId(), nanos);
        }
      }
    }
    return cpu;
  }

  /** Beyond the cap on concurrent computations, a 503 at once; cheap requests still answered. */
  @Test
  void moreComputationsThanTheCapAreRefusedAndListsStillAnswer() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch building = new CountDownLatch(AnalysisService.MAX_CONCURRENT);
    ModelSource slow = (store, request, work) -> {
      building.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return ModelSource.cached().build(store, request, work);
    };
    try (OcelotlServer own = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), new AnalysisService(slow)), token)) {
      String ownBase = "http://127.0.0.1:" + own.port();
      java.util.function.Function<String, HttpRequest> request = q -> HttpRequest.newBuilder(URI.create(ownBase + q))
          .header(Access.HEADER, token).build();
      List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
      for (int n = 0; n < AnalysisService.MAX_CONCURRENT; n++) {
        running.add(HTTP.sendAsync(request.apply("/api/overview?trace=" + traceId + "&slices=" + (30 + n)),
            HttpResponse.BodyHandlers.ofString()));
      }
      assertTrue(building.await(30, TimeUnit.SECONDS));
      HttpResponse<String> refused = HTTP.send(request.apply("/api/overview?trace=" + traceId + "&slices=40"),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(503, refused.statusCode(), refused.body());
      assertTrue(refused.body().contains("try again"), refused.body());
      assertEquals(200, HTTP.send(request.apply("/api/traces"), HttpResponse.BodyHandlers.ofString()).statusCode());
      release.countDown();
      for (var r : running) {
        assertEquals(200, r.get(60, TimeUnit.SECONDS).statusCode());
      }
      assertEquals(200, HTTP.send(request.apply("/api/overview?trace=" + traceId + "&slices=40"),
          HttpResponse.BodyHandlers.ofString()).statusCode(), "once one is done, the next is computed");
    }
  }
}
