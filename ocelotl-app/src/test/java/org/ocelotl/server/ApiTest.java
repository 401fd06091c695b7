package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelSource;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.workspace.Workspace;

/**
 * Every endpoint of the API over a real in-process server on an ephemeral port, through the
 * JDK's HTTP client, on a tiny Pajé trace (tiny.trace: 2 nodes × 2 ranks over [0, 10) s, all
 * computing except a wait during [4, 5) that rank3 stretches to [4, 8)).
 */
class ApiTest {
  static {
    // The Host header is restricted in the JDK's client; the DNS-rebinding test must set it.
    System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
  }

  @TempDir static Path dir;
  static OcelotlServer server;
  static String base;
  static String token;
  static String traceId;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()));
    URI url = URI.create(server.url());
    base = "http://127.0.0.1:" + server.port();
    token = url.getQuery().substring("token=".length());
    Path trace = dir.resolve("tiny.trace");
    try (InputStream in = ApiTest.class.getResourceAsStream("tiny.trace")) {
      Files.copy(in, trace);
    }
    HttpResponse<String> imported = post("/api/import", PlainJson.write(Map.of("path", trace.toString())));
    assertEquals(200, imported.statusCode(), imported.body());
    traceId = (String) json(imported).get("id");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  // ---- helpers --------------------------------------------------------------------------

  static HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).header(Access.HEADER, token).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).header(Access.HEADER, token)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(HttpResponse<String> response) {
    return (Map<String, Object>) PlainJson.parse(response.body());
  }

  static String overviewQuery(String extra) {
    return query("&slices=10" + extra);
  }

  static String query(String extra) {
    return "/api/overview?trace=" + URLEncoder.encode(traceId, StandardCharsets.UTF_8) + extra;
  }

  /** A refusal: the status, a JSON body whose error mentions {@code fragment}. */
  static void assertError(int status, String fragment, HttpResponse<String> response) {
    assertEquals(status, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    String error = (String) json(response).get("error");
    assertTrue(error.contains(fragment), "error '" + error + "' should mention '" + fragment + "'");
  }

  // ---- access ---------------------------------------------------------------------------

  @Test
  void everyRequestNeedsTheToken() throws Exception {
    for (String path : List.of("/assets/main.js", "/api/traces", overviewQuery(""))) {
      HttpResponse<String> bare = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertError(401, "token", bare);
    }
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/?token=" + token.substring(1) + "A"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, page.statusCode());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), "a page for a person");
    assertTrue(page.body().contains("This link has expired") && page.body().contains("--token-file"), page.body());
    HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
        .header(Access.HEADER, token.substring(1) + "A").build(), HttpResponse.BodyHandlers.ofString());
    assertError(401, "token", wrong);
    HttpResponse<String> query = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces?token=" + token)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, query.statusCode());
  }

  @Test
  void aTokenFileKeepsTheUrlAcrossRestarts() throws Exception {
    Path file = dir.resolve("token");
    String first = TokenFile.token(file);
    assertTrue(Access.TOKEN.matcher(first).matches(), first);
    assertEquals(first, TokenFile.token(file), "the second run reads the same token");
    try (OcelotlServer again = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()), first)) {
      HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + again.port()
          + "/api/traces?token=" + first)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode(), ok.body());
    }
    Files.writeString(file, "not a token\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TokenFile.token(file));
    assertEquals(file + ": not an Ocelotl token (43 characters A-Z a-z 0-9 _ -); remove the file to draw a new one",
        e.getMessage());
  }

  @Test
  void thePageSetsACookieThatCarriesTheToken() throws Exception {
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/?token=" + token)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("<canvas id=\"overview\""));
    String cookie = page.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
    HttpResponse<String> withCookie = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
        .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, withCookie.statusCode());
    HttpResponse<String> otherPort = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
        .header("Cookie", "ocelotl-1=" + token).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, otherPort.statusCode(), "a cookie of another port's server does not count");
  }

  @Test
  void anotherHostNameIsRefusedEvenWithTheToken() throws Exception {
    for (String host : List.of("evil.example", "evil.example:" + server.port(), "127.0.0.1:1")) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
          .header(Access.HEADER, token).header("Host", host).build(), HttpResponse.BodyHandlers.ofString());
      assertError(403, "localhost", r);
    }
    HttpResponse<String> localhost = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
        .header(Access.HEADER, token).header("Host", "localhost:" + server.port()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, localhost.statusCode());
  }

  @Test
  void aPageOfAnotherOriginIsRefused() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/traces"))
        .header(Access.HEADER, token).header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString());
    assertError(403, "another site", r);
  }

  @Test
  void onlyListedAssetsAreServed() throws Exception {
    HttpResponse<String> js = get("/assets/main.js");
    assertEquals(200, js.statusCode());
    assertTrue(js.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
    assertTrue(js.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'self'"));
    for (String path : List.of("/assets/../../../../etc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd",
        "/assets/org/ocelotl/server/Api.class", "/assets/", "/assets/index.html/", "/etc/passwd", "/favicon.ico")) {
      HttpResponse<String> r = get(path);
      assertEquals(404, r.statusCode(), path + ": " + r.body());
    }
  }

  // ---- traces ---------------------------------------------------------------------------

  @Test
  @SuppressWarnings("unchecked")
  void listInfoProducersTypes() throws Exception {
    List<Object> traces = (List<Object>) json(get("/api/traces")).get("traces");
    assertTrue(traces.stream().anyMatch(t -> ((Map<String, Object>) t).get("id").equals(traceId)), traces.toString());
    Map<String, Object> info = json(get("/api/traces/" + traceId));
    assertEquals("tiny.trace", info.get("name"));
    assertEquals(0.0, ((Number) info.get("start")).doubleValue());
    assertEquals(10.0, ((Number) info.get("end")).doubleValue());
    assertEquals(12L, info.get("states"));
    assertEquals(4L, info.get("leaves"));
    List<Map<String, Object>> producers = (List<Map<String, Object>>) json(get("/api/traces/" + traceId + "/producers")).get("producers");
    assertEquals(List.of("", "node1", "node1/rank1", "node1/rank2", "node2", "node2/rank3", "node2/rank4"),
        producers.stream().map(p -> p.get("path")).toList());
    assertEquals(List.of(0L, 1L, 2L, 2L, 1L, 2L, 2L), producers.stream().map(p -> p.get("depth")).toList());
    List<Map<String, Object>> types = (List<Map<String, Object>>) json(get("/api/traces/" + traceId + "/types")).get("types");
    assertEquals(List.of("compute", "wait"), types.stream().map(t -> t.get("name")).toList());
    assertEquals(List.of(8L, 4L), types.stream().map(t -> t.get("count")).toList());
    assertError(404, "no trace", get("/api/traces/nope"));
    assertError(404, "no trace", get("/api/traces/..%2F..%2Fetc"));
    assertError(404, "no such API endpoint", get("/api/traces/" + traceId + "/nothing"));
  }

  @Test
  void anImportIsItsPagesJobFollowedAndCancelledAsAnOverviewIs() throws Exception {
    String body = PlainJson.write(Map.of("path", dir.resolve("tiny.trace").toString()));
    HttpResponse<String> imported = post("/api/import?client=importer&seq=2", body);
    assertEquals(200, imported.statusCode(), imported.body());
    assertEquals(traceId, json(imported).get("id"));
    assertError(409, "request 1 is not newer than request 2", post("/api/import?client=importer&seq=1", body));
    assertEquals("idle", json(get("/api/progress?client=importer")).get("stage"));
    assertError(400, "parameter", post("/api/import?client=importer&seq=3&depth=2", body));
  }

  @Test
  void importRefusesWhatIsNotARegularTraceFile() throws Exception {
    assertError(400, "JSON", post("/api/import", "not json"));
    assertError(400, "path", post("/api/import", "{\"file\": \"/x\"}"));
    assertError(400, "absolute", post("/api/import", "{\"path\": \"relative/tiny.trace\"}"));
    assertError(404, "no such file", post("/api/import", PlainJson.write(Map.of("path", dir.resolve("missing.trace").toString()))));
    assertError(400, "not a regular file", post("/api/import", PlainJson.write(Map.of("path", dir.toString()))));
    Path text = Files.writeString(dir.resolve("notes.txt"), "just some notes\nnothing like a trace\n");
    HttpResponse<String> unknown = post("/api/import", PlainJson.write(Map.of("path", text.toString())));
    assertError(415, "not a trace format", unknown);
    assertFalse(unknown.body().contains("--format"), "no command-line advice on the page: " + unknown.body());
    Path malformed = Files.writeString(dir.resolve("malformed.trace"), "%EventDef PajeDefineContainerType 0\n"
        + "% Alias string\n% Type string\n% Name string\n%EndEventDef\n0 P 0 \"Process\"\n7 1 2\n");
    assertError(422, "malformed.trace:7: unknown event id '7'",
        post("/api/import", PlainJson.write(Map.of("path", malformed.toString()))));
    assertError(405, "POST", get("/api/import"));
  }

  // ---- overviews ------------------------------------------------------------------------

  @Test
  @SuppressWarnings("unchecked")
  void temporalOverviewHasTheExpectedPartitions() throws Exception {
    // Slices of 1 s: [0,4) compute, [4] wait everywhere, [5,8) rank3 waits, [8,10) compute.
    // p = 0 keeps the finest lossless partition, coarser on ties: 4 parts; p = 1 merges all.
    Map<String, Object> fine = json(get(overviewQuery("&p=0&view=partition")));
    assertEquals(4L, fine.get("partCount"));
    assertEquals(4L, fine.get("leaves"));
    assertEquals(List.of("compute", "wait"), fine.get("types"));
    assertEquals(true, fine.get("exact"));
    Map<String, Object> overview = (Map<String, Object>) fine.get("overview");
    List<Map<String, Object>> blocks = (List<Map<String, Object>>) overview.get("blocks");
    assertEquals(List.of(0L, 4L, 5L, 8L), blocks.stream().map(b -> b.get("first")).toList());
    assertEquals(List.of(3L, 4L, 7L, 9L), blocks.stream().map(b -> b.get("last")).toList());
    Map<String, Object> coarse = json(get(overviewQuery("&p=1")));
    assertEquals(1L, coarse.get("partCount"));
    List<Map<String, Object>> breakpoints = (List<Map<String, Object>>) fine.get("breakpoints");
    assertEquals(0.0, ((Number) breakpoints.get(0).get("p")).doubleValue());
    assertEquals(4L, breakpoints.get(0).get("partCount"));
    assertEquals(1L, breakpoints.get(breakpoints.size() - 1).get("partCount"));
    for (int k = 1; k < breakpoints.size(); k++) {
      assertTrue(((Number) breakpoints.get(k).get("p")).doubleValue() > ((Number) breakpoints.get(k - 1).get("p")).doubleValue());
    }
    Map<String, Object> byDefault = json(get(overviewQuery("")));
    assertEquals(byDefault.get("defaultP"), byDefault.get("p"));
    Map<String, Object> curves = (Map<String, Object>) byDefault.get("curves");
    assertEquals(breakpoints.size(), ((List<Object>) curves.get("breakpoints")).size());
  }

  @Test
  @SuppressWarnings("unchecked")
  void spatiotemporalOverviewCutsTheTreeWhereRank3Differs() throws Exception {
    // Lossless at p = 0 with the fewest parts: root[0,3], root[4], node1[5,7], rank3[5,7],
    // rank4[5,7], root[8,9].
    Map<String, Object> r = json(get(overviewQuery("&p=0&aggregation=spatiotemporal&view=partition")));
    assertEquals(6L, r.get("partCount"));
    Map<String, Object> overview = (Map<String, Object>) r.get("overview");
    List<Map<String, Object>> axis = (List<Map<String, Object>>) overview.get("producers");
    assertTrue(axis.stream().anyMatch(a -> a.get("name").equals("rank3")), axis.toString());
    Map<String, Object> zoomed = json(get(query("&p=0&aggregation=spatiotemporal&include=node2&start=4&end=9&slices=5")));
    assertEquals(2L, zoomed.get("leaves"));
    assertEquals(4.0, ((Number) zoomed.get("start")).doubleValue());
    assertEquals(9.0, ((Number) zoomed.get("end")).doubleValue());
  }

  @Test
  void filtersChangeTheModel() throws Exception {
    assertEquals(2L, json(get(overviewQuery("&exclude=node1"))).get("leaves"));
    assertEquals(List.of("wait"), json(get(overviewQuery("&xtypes=compute"))).get("types"));
    assertEquals(2L, json(get(overviewQuery("&depth=1"))).get("leaves"));
  }

  @Test
  void badParametersGetClearErrors() throws Exception {
    assertError(400, "missing parameter 'trace'", get("/api/overview?slices=10"));
    assertError(404, "no trace", get("/api/overview?trace=nope"));
    assertError(400, "'slices': expected 2 to 10000, found 1", get(query("&slices=1")));
    assertError(400, "'slices': expected 2 to 10000, found 10001", get(query("&slices=10001")));
    assertError(400, "parameter 'slices' given 2 times", get(overviewQuery("&slices=20")));
    assertError(400, "'slices': expected an integer", get(query("&slices=ten")));
    assertError(400, "'p': expected a number in [0, 1]", get(overviewQuery("&p=2")));
    assertError(400, "'p': expected a number", get(overviewQuery("&p=half")));
    assertError(400, "is empty: it needs from < to", get(overviewQuery("&start=5&end=5")));
    assertError(400, "'start': expected a finite number", get(overviewQuery("&start=NaN")));
    assertError(400, "'metric': expected one of", get(overviewQuery("&metric=bogus")));
    assertError(400, "'view'", get(overviewQuery("&aggregation=spatiotemporal&view=stacked")));
    assertError(400, "unknown parameter 'colour'", get(overviewQuery("&colour=red")));
    assertError(400, "no states left", get(overviewQuery("&xtypes=compute%7Cwait")));
    assertError(400, "no events", get(overviewQuery("&metric=event-count")));
    assertError(400, "'exact'", get(overviewQuery("&exact=maybe")));
    assertError(400, "rank9", get(overviewQuery("&include=rank9")));
    assertError(405, "GET", post(overviewQuery(""), ""));
    assertError(404, "no such API endpoint", get("/api/nothing"));
    assertError(400, "'height'", get(overviewQuery("&height=0")));
  }

  @Test
  void exportsOfDifferentViewsHaveDifferentNamesAndCaptionsStateTheFilters() throws Exception {
    String whole = fileName(get(overviewQuery("&format=csv").replace("/api/overview", "/api/export")));
    String zoomed = fileName(get(overviewQuery("&format=csv&start=2&end=6").replace("/api/overview", "/api/export")));
    String filtered = fileName(get(overviewQuery("&format=csv&include=node1").replace("/api/overview", "/api/export")));
    assertTrue(whole.matches("tiny\\.trace-temporal-mode-0-10s-N10-p[0-9.]+-parts\\.csv"), whole);
    assertTrue(zoomed.contains("-2-6s-N10-"), zoomed);
    assertTrue(filtered.matches(".*-f[0-9a-f]{8}-parts\\.csv"), filtered);
    assertEquals(3, java.util.Set.of(whole, zoomed, filtered).size());
    HttpResponse<String> csv = get(overviewQuery("&format=csv&include=node1").replace("/api/overview", "/api/export"));
    assertEquals("producer,leaves,start,end,first_slice,last_slice,mode,value,share:compute,share:wait",
        csv.body().split("\n")[0]);
    HttpResponse<String> svg = get(overviewQuery("&format=svg&include=node1&xtypes=wait").replace("/api/overview", "/api/export"));
    assertTrue(svg.body().contains("producers: node1"), "the caption states the producer filter");
    assertTrue(svg.body().contains("types: compute"), "the caption states the type filter");
  }

  private static String fileName(HttpResponse<String> response) {
    assertEquals(200, response.statusCode(), response.body());
    String disposition = response.headers().firstValue("Content-Disposition").orElse("");
    return disposition.substring(disposition.indexOf("filename=\"") + 10, disposition.length() - 1);
  }

  @Test
  void theMetricMenuOffersWhatTheTraceHoldsAndUnknownTypesAreRefused() throws Exception {
    assertEquals(List.of("state-duration", "state-average"), json(get("/api/traces/" + traceId)).get("metrics"));
    assertError(400, "parameter 'xtypes': unknown state type 'nope'", get(overviewQuery("&xtypes=nope")));
    assertError(400, "parameter 'xkinds': no producer of type 'Core'", get(overviewQuery("&xkinds=Core")));
    // Leaving out a whole producer type is the same as naming each of its producers.
    Map<String, Object> byKind = json(get(overviewQuery("&aggregation=spatiotemporal&xkinds=Node")));
    assertEquals(400L, byKind.get("status"), "every rank lies under a node: nothing is left");
  }

  @Test
  void breakpointTableAndPictures() throws Exception {
    HttpResponse<String> csv = get(overviewQuery("&format=csv").replace("/api/overview", "/api/breakpoints"));
    assertEquals(200, csv.statusCode(), csv.body());
    String[] lines = csv.body().split("\n");
    assertEquals("p,part_count,gain,loss,gain_fraction,loss_fraction", lines[0]);
    assertTrue(lines[1].startsWith("0.0,4,"), lines[1]);
    assertTrue(lines[lines.length - 1].contains(",1,"), lines[lines.length - 1]);
    assertTrue(csv.headers().firstValue("Content-Disposition").orElse("").contains("tiny.trace"));
    HttpResponse<String> svg = get(overviewQuery("&format=svg").replace("/api/overview", "/api/export"));
    assertEquals(200, svg.statusCode());
    assertTrue(svg.body().contains("<svg"), svg.body().substring(0, 100));
    HttpResponse<byte[]> png = http.send(HttpRequest.newBuilder(URI.create(base
        + overviewQuery("&format=png&width=600&height=400").replace("/api/overview", "/api/export")))
        .header(Access.HEADER, token).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, png.statusCode());
    assertEquals("image/png", png.headers().firstValue("Content-Type").orElse(""));
    assertEquals((byte) 0x89, png.body()[0]);
    assertEquals('P', png.body()[1]);
    assertError(400, "'format'", get(overviewQuery("&format=gif").replace("/api/overview", "/api/export")));
    assertError(400, "'width'", get(overviewQuery("&width=10").replace("/api/overview", "/api/export")));
  }

  // ---- concurrency and cancellation -----------------------------------------------------

  @Test
  void concurrentClientsGetTheirOwnAnswers() throws Exception {
    double[] ps = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    long[] expected = {4, 1};
    ExecutorService clients = Executors.newFixedThreadPool(6);
    try {
      List<Future<Map<String, Object>>> answers = new ArrayList<>();
      for (int i = 0; i < ps.length; i++) {
        String query = overviewQuery("&p=" + ps[i] + "&client=c" + i + "&seq=1" + (i % 3 == 0 ? "&view=stacked" : ""));
        answers.add(clients.submit(() -> json(get(query))));
      }
      for (int i = 0; i < ps.length; i++) {
        Map<String, Object> answer = answers.get(i).get(60, TimeUnit.SECONDS);
        assertEquals(expected[(int) ps[i]], answer.get("partCount"), "client " + i);
        assertEquals(ps[i], ((Number) answer.get("p")).doubleValue(), "client " + i);
      }
    } finally {
      clients.shutdownNow();
    }
  }

  @Test
  void aNewerRequestOfTheSamePageCancelsTheOlderOne() throws Exception {
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ModelSource slow = (store, request, work) -> {
      if (request.slices() == 7) {
        building.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return ModelSource.cached().build(store, request, work);
    };
    try (OcelotlServer own = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), new AnalysisService(slow)))) {
      String ownBase = "http://127.0.0.1:" + own.port();
      String ownToken = URI.create(own.url()).getQuery().substring("token=".length());
      String id = URLEncoder.encode(traceId, StandardCharsets.UTF_8);
      java.util.function.Function<String, HttpRequest> request = q -> HttpRequest.newBuilder(
          URI.create(ownBase + "/api/" + q)).header(Access.HEADER, ownToken).build();
      var first = http.sendAsync(request.apply("overview?trace=" + id + "&slices=7&client=page&seq=1"),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(building.await(30, TimeUnit.SECONDS));
      HttpResponse<String> progress = http.send(request.apply("progress?client=page"), HttpResponse.BodyHandlers.ofString());
      assertEquals("building the model", json(progress).get("stage"));
      assertEquals(1L, json(progress).get("seq"));
      HttpResponse<String> second = http.send(request.apply("overview?trace=" + id + "&slices=8&client=page&seq=2"),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, second.statusCode(), second.body());
      assertEquals(8L, json(second).get("slices"));
      HttpResponse<String> stale = http.send(request.apply("overview?trace=" + id + "&slices=8&client=page&seq=1"),
          HttpResponse.BodyHandlers.ofString());
      assertError(409, "not newer", stale);
      release.countDown();
      assertError(409, "cancelled", first.get(30, TimeUnit.SECONDS));
      HttpResponse<String> idle = http.send(request.apply("progress?client=page"), HttpResponse.BodyHandlers.ofString());
      assertEquals("idle", json(idle).get("stage"));
    }
  }
}
