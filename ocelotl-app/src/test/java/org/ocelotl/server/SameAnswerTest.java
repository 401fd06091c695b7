package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.app.CliTest;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.Workspace;

/**
 * Same question, same bytes: each request of the table is asked of the web API and of the
 * command line, on one workspace, and the answers must be identical byte for byte: the JSON
 * form, the CSV forms (breakpoints, aggregates) and the SVG picture. The table covers every aggregation the API serves,
 * every view, every metric, and every kind of filter (window, producers kept, producers
 * removed, depth, types, p, approximate allowed).
 */
class SameAnswerTest {
  static final Path GROUPED = SharedTraces.file("paje/simgrid/smpi_small_grouped.trace");
  static final Path EVENTS = SharedTraces.file("paje/pajeng/events.trace");

  @TempDir static Path dir;
  static OcelotlServer server;
  static String token;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws IOException {
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()));
    token = URI.create(server.url()).getQuery().substring("token=".length());
    for (Path trace : List.of(GROUPED, EVENTS)) {
      CliTest.Result info = cli("info", trace.toString());
      assertEquals(0, info.status(), "import " + trace + ": " + info.err());
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * One request, in both spellings.
   *
   * @param api the query string after {@code trace=ID} (lists '|'-separated, types excluded)
   * @param cli the same request as options of {@code ocelotl overview} (types kept)
   */
  record Request(String label, Path trace, String api, List<String> cli) {
    @Override
    public String toString() {
      return label;
    }
  }

  static Stream<Arguments> requests() {
    String states = "PMPI_Init,PMPI_Barrier,PMPI_Irecv,PMPI_Isend,PMPI_Waitall,PMPI_Allreduce,PMPI_Finalize";
    return Stream.of(
        new Request("temporal mode", GROUPED, "&aggregation=temporal&view=mode&slices=20",
            List.of("--mode", "temporal", "--view", "mode", "--slices", "20")),
        new Request("temporal stacked in a window", GROUPED,
            "&aggregation=temporal&view=stacked&slices=30&start=0.1&end=0.4",
            List.of("--mode", "temporal", "--view", "stacked", "--slices", "30", "--from", "0.1", "--to", "0.4")),
        new Request("temporal partition at p", GROUPED, "&aggregation=temporal&view=partition&slices=12&p=0.3",
            List.of("--mode", "temporal", "--view", "partition", "--slices", "12", "--p", "0.3")),
        new Request("spatiotemporal mode", GROUPED, "&aggregation=spatiotemporal&view=mode&slices=10",
            List.of("--mode", "spatiotemporal", "--view", "mode", "--slices", "10")),
        new Request("spatiotemporal partition, producers kept and removed", GROUPED,
            "&aggregation=spatiotemporal&view=partition&slices=10&include=rennes%7Cnancy&exclude=rennes/rennes-c2",
            List.of("--mode", "spatiotemporal", "--view", "partition", "--slices", "10", "--producers", "rennes,nancy",
                "--exclude", "rennes/rennes-c2")),
        new Request("spatiotemporal at depth 3, approximate allowed", GROUPED,
            "&aggregation=spatiotemporal&view=mode&slices=10&depth=3&exact=false",
            List.of("--mode", "spatiotemporal", "--view", "mode", "--slices", "10", "--depth", "3", "--approximate")),
        new Request("state average without computing", GROUPED,
            "&metric=state-average&aggregation=temporal&view=mode&slices=16&xtypes=computing",
            List.of("--metric", "state-average", "--mode", "temporal", "--view", "mode", "--slices", "16",
                "--types", states)),
        new Request("variable mean", GROUPED, "&metric=variable-mean&aggregation=spatiotemporal&view=mode&slices=8",
            List.of("--metric", "variable-mean", "--mode", "spatiotemporal", "--view", "mode", "--slices", "8")),
        new Request("link count", GROUPED, "&metric=link-count&aggregation=temporal&view=stacked&slices=10",
            List.of("--metric", "link-count", "--mode", "temporal", "--view", "stacked", "--slices", "10")),
        new Request("event count", EVENTS, "&metric=event-count&aggregation=temporal&view=mode&slices=6",
            List.of("--metric", "event-count", "--mode", "temporal", "--view", "mode", "--slices", "6"))
    ).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void theCommandLineAndTheApiGiveTheSameBytes(Request request) throws Exception {
    String id = traceId(request.trace());
    String query = "trace=" + URLEncoder.encode(id, StandardCharsets.UTF_8) + request.api();
    Path out = Files.createTempDirectory(dir, "cli");
    List<String> args = new ArrayList<>(List.of("overview", request.trace().toString(),
        "--out", out.resolve("o.svg").toString(), "--width", "1000", "--height", "700",
        "--json", out.resolve("o.json").toString(), "--csv", out.resolve("o.csv").toString(),
        "--parts-csv", out.resolve("parts.csv").toString()));
    args.addAll(request.cli());
    byte[] json = get("/api/overview?height=700&" + query);
    byte[] csv = get("/api/breakpoints?format=csv&" + query);
    byte[] svg = get("/api/export?format=svg&width=1000&height=700&" + query);
    byte[] parts = get("/api/export?format=csv&" + query);
    CliTest.Result run = cli(args.toArray(String[]::new));
    assertEquals(0, run.status(), request.label() + ": " + run.err());
    assertEquals(new String(json, StandardCharsets.UTF_8), Files.readString(out.resolve("o.json")), "JSON");
    assertArrayEquals(json, Files.readAllBytes(out.resolve("o.json")), "JSON bytes");
    assertArrayEquals(csv, Files.readAllBytes(out.resolve("o.csv")), "CSV bytes");
    assertArrayEquals(svg, Files.readAllBytes(out.resolve("o.svg")), "SVG bytes");
    assertArrayEquals(parts, Files.readAllBytes(out.resolve("parts.csv")), "aggregates CSV bytes");
  }

  /** What the partition hides: {@code ocelotl outliers --json} and {@code /api/outliers}, same bytes. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("outlierRequests")
  void theOutliersAreTheSameFromBothFrontEnds(Request request) throws Exception {
    String query = "trace=" + URLEncoder.encode(traceId(request.trace()), StandardCharsets.UTF_8) + request.api();
    List<String> args = new ArrayList<>(List.of("outliers", request.trace().toString(), "--json"));
    args.addAll(request.cli());
    byte[] json = get("/api/outliers?" + query);
    CliTest.Result run = cli(args.toArray(String[]::new));
    assertEquals(0, run.status(), request.label() + ": " + run.err());
    assertEquals(new String(json, StandardCharsets.UTF_8) + "\n", run.out(), "JSON");
  }

  static Stream<Arguments> outlierRequests() {
    return Stream.of(
        new Request("outliers, spatiotemporal at the default p", GROUPED, "&aggregation=spatiotemporal&slices=10",
            List.of("--mode", "spatiotemporal", "--slices", "10")),
        new Request("outliers of temporal phases at p, three listed", GROUPED,
            "&aggregation=temporal&slices=20&p=0.2&limit=3",
            List.of("--mode", "temporal", "--slices", "20", "--p", "0.2", "--limit", "3"))
    ).map(Arguments::of);
  }

  static Stream<Arguments> treemaps() {
    return Stream.of(
        new Request("treemap at the default p", GROUPED, "", List.of()),
        new Request("treemap at p, one step, producers removed", GROUPED,
            "&p=0.2&step=3&slices=10&exclude=rennes/rennes-c2",
            List.of("--p", "0.2", "--step", "3", "--slices", "10", "--exclude", "rennes/rennes-c2")),
        new Request("treemap cut at depth 2, variable mean", GROUPED, "&cut=2&metric=variable-mean&start=0.1&end=0.3",
            List.of("--cut-depth", "2", "--metric", "variable-mean", "--from", "0.1", "--to", "0.3"))
    ).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("treemaps")
  void theTreemapIsTheSameFromBothFrontEnds(Request request) throws Exception {
    String query = "trace=" + URLEncoder.encode(traceId(request.trace()), StandardCharsets.UTF_8)
        + "&width=700&height=400" + request.api();
    Path out = Files.createTempDirectory(dir, "cli");
    List<String> args = new ArrayList<>(List.of("treemap", request.trace().toString(),
        "--out", out.resolve("t.svg").toString(), "--width", "700", "--height", "400",
        "--json", out.resolve("t.json").toString()));
    args.addAll(request.cli());
    byte[] json = get("/api/treemap?" + query);
    byte[] svg = get("/api/treemap?format=svg&" + query);
    CliTest.Result run = cli(args.toArray(String[]::new));
    assertEquals(0, run.status(), request.label() + ": " + run.err());
    assertEquals(new String(json, StandardCharsets.UTF_8), Files.readString(out.resolve("t.json")), "JSON");
    assertArrayEquals(json, Files.readAllBytes(out.resolve("t.json")), "JSON bytes");
    assertArrayEquals(svg, Files.readAllBytes(out.resolve("t.svg")), "SVG bytes");
  }

  static Stream<Arguments> topologies() {
    Path topology = Path.of(System.getProperty("user.dir")).resolve("../examples/topology.trace").normalize();
    return Stream.of(
        new Request("topology of the SimGrid platform, by capacity", topology, "", List.of()),
        new Request("topology cut at the root, one step", topology, "&cut=0&step=4", List.of("--cut-depth", "0", "--step", "4")),
        new Request("topology by a metric, a group expanded and one collapsed", GROUPED,
            "&metric=state-duration&cut=1&toggles=%2Brennes%7C-rennes/rennes-c1",
            List.of("--metric", "state-duration", "--cut-depth", "1", "--expand", "rennes", "--collapse", "rennes/rennes-c1"))
    ).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("topologies")
  void theTopologyIsTheSameFromBothFrontEnds(Request request) throws Exception {
    CliTest.Result info = cli("info", request.trace().toString());
    assertEquals(0, info.status(), "import " + request.trace() + ": " + info.err());
    String query = "trace=" + URLEncoder.encode(traceId(request.trace()), StandardCharsets.UTF_8)
        + "&width=700&height=600" + request.api();
    Path out = Files.createTempDirectory(dir, "cli");
    List<String> args = new ArrayList<>(List.of("topology", request.trace().toString(),
        "--out", out.resolve("t.svg").toString(), "--width", "700", "--height", "600",
        "--json", out.resolve("t.json").toString()));
    args.addAll(request.cli());
    byte[] json = get("/api/topology?" + query);
    byte[] svg = get("/api/topology?format=svg&" + query);
    CliTest.Result run = cli(args.toArray(String[]::new));
    assertEquals(0, run.status(), request.label() + ": " + run.err());
    assertEquals(new String(json, StandardCharsets.UTF_8), Files.readString(out.resolve("t.json")), "JSON");
    assertArrayEquals(svg, Files.readAllBytes(out.resolve("t.svg")), "SVG bytes");
  }

  private static String traceId(Path trace) throws IOException, InterruptedException {
    String list = new String(get("/api/traces"), StandardCharsets.UTF_8);
    for (Object row : (List<?>) ((java.util.Map<?, ?>) org.ocelotl.analysis.PlainJson.parse(list)).get("traces")) {
      java.util.Map<?, ?> t = (java.util.Map<?, ?>) row;
      if (Path.of((String) t.get("path")).equals(trace.toRealPath())) {
        return (String) t.get("id");
      }
    }
    throw new AssertionError(trace + " is not in the server's list: " + list);
  }

  private static byte[] get(String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + pathAndQuery)).header(Access.HEADER, token).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode(), () -> pathAndQuery + ": " + new String(response.body(), StandardCharsets.UTF_8));
    return response.body();
  }

  /** The command line, its workspace this test's, output captured. */
  private static CliTest.Result cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add(1, "--workspace");
    all.add(2, dir.resolve("workspace").toString());
    return CliTest.run(all.toArray(String[]::new));
  }
}
