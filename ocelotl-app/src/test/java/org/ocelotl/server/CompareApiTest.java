package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.app.Main;
import org.ocelotl.workspace.Workspace;

/**
 * {@code GET /api/compare}, the web page's comparison of two runs, on the SimGrid pair of
 * {@code CompareCommandTest} (16 ranks; {@code cmp_slow}: host nancy-c2-3 at 20% of its speed
 * during [1, 2) s): byte for byte the answer of {@code ocelotl compare --json} to the same
 * parameters and the picture of its {@code --out}, a window given in OTHER's time matched onto BASE by the align, and refusals in one
 * line.
 */
class CompareApiTest {
  static final Path BASE = pair("cmp_base");
  static final Path SLOW = pair("cmp_slow");
  /** The two runs' spans, [0, 3.839177) s and [0, 4.518749) s (their traces' headers). */
  static final double BASE_END = 3.839177;
  static final double SLOW_END = 4.518749;

  @TempDir static Path dir;
  static OcelotlServer server;
  static String token;
  static String baseId;
  static String slowId;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static Path pair(String name) {
    return Path.of(System.getProperty("user.dir")).resolve("src/test/resources/compare/" + name + ".trace.gz");
  }

  @BeforeAll
  static void start() throws Exception {
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()));
    token = URI.create(server.url()).getQuery().substring("token=".length());
    for (Path trace : List.of(BASE, SLOW)) {
      assertEquals(0, cli("info", trace.toString()), "import " + trace);
    }
    baseId = traceId(BASE);
    slowId = traceId(SLOW);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** One request: its query after base and other, and the same as options of {@code ocelotl compare}. */
  record Request(String label, String api, List<String> cli) {
    @Override
    public String toString() {
      return label;
    }
  }

  static Stream<Arguments> requests() {
    return Stream.of(
        new Request("default p, align start", "", List.of()),
        new Request("at p, three listed", "&p=0.05&limit=3", List.of("--p", "0.05", "--limit", "3")),
        new Request("stretched, 40 slices", "&align=stretch&slices=40", List.of("--align", "stretch", "--slices", "40")),
        new Request("a window of OTHER, producers kept", "&start=1&end=2&include=nancy",
            List.of("--from", "1", "--to", "2", "--producers", "nancy")),
        new Request("a window since the start, with a unit", "&from=500ms&to=2.5s", List.of("--from", "500ms", "--to", "2.5s"))
    ).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void theApiAnswersWithTheCommandLinesBytes(Request request) throws Exception {
    byte[] api = get(compareQuery(request.api())).body();
    byte[] svg = get(compareQuery(request.api() + "&format=svg&width=1000&height=700")).body();
    Path out = Files.createTempDirectory(dir, "cli");
    List<String> args = new ArrayList<>(List.of("compare", BASE.toString(), SLOW.toString(), "--json",
        out.resolve("c.json").toString(), "--out", out.resolve("c.svg").toString(), "--width", "1000", "--height", "700"));
    args.addAll(request.cli());
    assertEquals(0, cli(args.toArray(String[]::new)), request.label());
    assertEquals(Files.readString(out.resolve("c.json")), new String(api, StandardCharsets.UTF_8), "JSON");
    assertArrayEquals(Files.readAllBytes(out.resolve("c.json")), api, "JSON bytes");
    assertArrayEquals(Files.readAllBytes(out.resolve("c.svg")), svg, "SVG bytes");
  }

  /** The slowed host over its window is the first difference the page lists. */
  @Test
  void theFirstDifferenceIsTheSlowedHost() throws Exception {
    Map<String, Object> answer = json(get(compareQuery("&limit=5")));
    Map<String, Object> first = differences(answer).get(0);
    assertEquals("nancy/nancy-c2/nancy-c2-3", first.get("producer"));
    assertEquals("computing", first.get("type"));
    assertTrue(number(first, "start") >= 0.95 && number(first, "end") <= 2.05, first.toString());
    assertEquals(5, differences(answer).size());
  }

  /**
   * A window of OTHER's time is the same window of BASE with the start align, and the same
   * fraction of BASE's span with the stretch: the page's zoom, and what both runs' views show.
   */
  @Test
  void aWindowOfOtherIsMatchedOntoBaseByTheAlign() throws Exception {
    Map<String, Object> start = compare(json(get(compareQuery("&start=1&end=2"))));
    assertEquals(List.of(1.0, 2.0), start.get("baseWindow"));
    assertEquals(List.of(1.0, 2.0), start.get("otherWindow"));
    Map<String, Object> stretch = compare(json(get(compareQuery("&align=stretch&start=1&end=2"))));
    assertEquals(List.of(1.0, 2.0), stretch.get("otherWindow"));
    List<?> base = (List<?>) stretch.get("baseWindow");
    double scale = BASE_END / SLOW_END;
    assertEquals(scale, ((Number) base.get(0)).doubleValue(), 1e-12);
    assertEquals(2 * scale, ((Number) base.get(1)).doubleValue(), 1e-12);
    Map<String, Object> whole = compare(json(get(compareQuery("&align=stretch"))));
    assertEquals(List.of(0.0, BASE_END), whole.get("baseWindow"));
    assertEquals(List.of(0.0, SLOW_END), whole.get("otherWindow"));
  }

  @Test
  void badQuestionsAreRefusedInOneLine() throws Exception {
    refused(400, "must lie within [0.0, 3.839177) s", get(compareQuery("&start=1&end=4.2")));
    refused(400, "start < end", get(compareQuery("&start=2&end=1")));
    refused(404, "no trace 'nothing'", get("/api/compare?base=nothing&other="
        + URLEncoder.encode(slowId, StandardCharsets.UTF_8)));
    refused(400, "other", get("/api/compare?base=" + URLEncoder.encode(baseId, StandardCharsets.UTF_8)));
    // A saved selection is a window and filters of one trace: a comparison takes none.
    refused(400, "selection", get(compareQuery("&selection=mine")));
    refused(400, "align", get(compareQuery("&align=sideways")));
  }

  // ---- helpers --------------------------------------------------------------------------

  /** A refusal: the status, and a JSON error that mentions {@code fragment}. */
  static void refused(int status, String fragment, HttpResponse<byte[]> response) {
    String body = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(status, response.statusCode(), body);
    String error = (String) ((Map<?, ?>) PlainJson.parse(body)).get("error");
    assertTrue(error.contains(fragment), "error '" + error + "' should mention '" + fragment + "'");
  }

  static String compareQuery(String extra) {
    return "/api/compare?base=" + URLEncoder.encode(baseId, StandardCharsets.UTF_8) + "&other="
        + URLEncoder.encode(slowId, StandardCharsets.UTF_8) + extra;
  }

  static HttpResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
        .header(Access.HEADER, token).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(HttpResponse<byte[]> response) {
    assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    return (Map<String, Object>) PlainJson.parse(new String(response.body(), StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> compare(Map<String, Object> answer) {
    return (Map<String, Object>) answer.get("compare");
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> differences(Map<String, Object> answer) {
    return (List<Map<String, Object>>) answer.get("differences");
  }

  static double number(Map<String, Object> map, String key) {
    return ((Number) map.get(key)).doubleValue();
  }

  private static String traceId(Path trace) throws IOException, InterruptedException {
    String list = new String(get("/api/traces").body(), StandardCharsets.UTF_8);
    for (Object row : (List<?>) ((Map<?, ?>) PlainJson.parse(list)).get("traces")) {
      Map<?, ?> t = (Map<?, ?>) row;
      if (Path.of((String) t.get("path")).equals(trace.toRealPath())) {
        return (String) t.get("id");
      }
    }
    throw new AssertionError(trace + " is not in the server's list: " + list);
  }

  private static int cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(1, "--workspace");
    all.add(2, dir.resolve("workspace").toString());
    return Main.run(all.toArray(String[]::new));
  }
}
