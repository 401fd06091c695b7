package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.analysis.Progress;
import org.ocelotl.analysis.TreemapRequest;
import org.ocelotl.app.Main;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.view.ViewKind;

/**
 * A model session ({@code ocelotl view --model}): the API on a model file written by {@code
 * ocelotl model} from the bundled trace answers the bytes that a separate analysis service gives
 * for the same {@link ModelInput.FromFiles}; the CSV form with its tree answers as the binary one;
 * what needs the trace's records is refused with one clear 4xx.
 */
class ModelSessionTest {
  /** The bundled trace's model at this N: 64 ranks (4 sites, 2 clusters each) × 8 state types. */
  static final int SLICES = 30;

  @TempDir static Path dir;
  static Path binary;
  static Path csv;
  static Path tree;
  static OcelotlServer server;
  static OcelotlServer csvServer;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws IOException {
    binary = dir.resolve("M.ocm");
    csv = dir.resolve("M.csv");
    tree = dir.resolve("T.csv");
    String workspace = dir.resolve("workspace").toString();
    String trace = BundledServer.BUNDLED.toString();
    assertEquals(0, Main.run("model", trace, "--workspace", workspace, "--slices", "" + SLICES, "--out", binary.toString()));
    assertEquals(0, Main.run("model", trace, "--workspace", workspace, "--slices", "" + SLICES, "--out", csv.toString(),
        "--tree-out", tree.toString()));
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        Api.forModel(new ModelInput.FromFiles(binary, null, 0), AnalysisService.standard()));
    csvServer = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        Api.forModel(new ModelInput.FromFiles(csv, tree, 0), AnalysisService.standard()));
  }

  @AfterAll
  static void stop() {
    server.close();
    csvServer.close();
  }

  @Test
  void theSessionDescribesTheModel() throws Exception {
    assertEquals(Map.of("model", Map.of("name", "M.ocm", "slices", (long) SLICES, "leaves", 64L, "depth", 4L,
        "types", List.of("PMPI_Init", "computing", "PMPI_Barrier", "PMPI_Irecv", "PMPI_Isend", "PMPI_Waitall",
            "PMPI_Allreduce", "PMPI_Finalize"))), PlainJson.parse(body(server, "/api/session", 200)));
  }

  @Test
  void overviewsAreTheServicesAnswerOnTheSameFiles() throws Exception {
    AnalysisService own = AnalysisService.standard();
    ModelInput.FromFiles files = new ModelInput.FromFiles(binary, null, 0);
    for (String aggregation : List.of("temporal", "spatiotemporal")) {
      for (String p : List.of("", "0.05")) {
        ViewKind view = ViewKind.of(aggregation, "mode");
        AnalysisResult expected = own.answer(new AnalysisRequest(files, AnalysisRequest.aggregationOf(view), view,
            p.isEmpty() ? Double.NaN : Double.parseDouble(p), 400), Progress.NONE);
        String query = "?aggregation=" + aggregation + "&height=400" + (p.isEmpty() ? "" : "&p=" + p);
        byte[] answer = bytes(server, "/api/overview" + query, 200);
        assertArrayEquals(expected.json(), answer, aggregation + " p=" + p);
        // The model's own: no trace, the slices as its time axis.
        Map<?, ?> json = (Map<?, ?>) PlainJson.parse(new String(answer, StandardCharsets.UTF_8));
        assertEquals(java.util.Arrays.asList(null, "slice", 0.0, (double) SLICES, (long) SLICES, 64L),
            java.util.Arrays.asList(json.get("trace"), json.get("timeUnit"), json.get("start"), json.get("end"),
                json.get("slices"), json.get("leaves")));
        assertArrayEquals(expected.breakpointCsv(), bytes(server, "/api/breakpoints" + query + "&format=csv", 200));
        assertArrayEquals(expected.partsCsv(), bytes(server, "/api/export" + query + "&format=csv", 200));
        // The CSV model with its tree is the same model: the same answer, byte for byte.
        assertArrayEquals(answer, bytes(csvServer, "/api/overview" + query, 200), "CSV model, " + aggregation);
      }
    }
  }

  @Test
  void theTreemapIsTheServicesAnswer() throws Exception {
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromFiles(binary, null, 0), Aggregation.SPATIAL,
        null, 0.1, AnalysisRequest.DEFAULT_HEIGHT);
    byte[] expected = AnalysisService.standard().treemap(new TreemapRequest(analysis, -1, 7, 500, 400), Progress.NONE)
        .json();
    assertArrayEquals(expected, bytes(server, "/api/treemap?p=0.1&step=7&width=500&height=400", 200));
  }

  @Test
  void whatNeedsTheTraceIsRefusedWithTheReason() throws Exception {
    for (String endpoint : List.of("traces", "traces/x", "traces/x/producers", "gantt", "events", "stats",
        "selections", "topology", "query")) {
      assertEquals(Map.of("status", 404L, "error", "/api/" + endpoint.replaceAll("/.*", "") + " needs a trace's "
          + "records; this server shows the model file M.ocm (ocelotl view --model), which holds none"),
          PlainJson.parse(body(server, "/api/" + endpoint, 404)), endpoint);
    }
    HttpResponse<String> imported = HTTP.send(request(server, "/api/import")
        .POST(HttpRequest.BodyPublishers.ofString("{\"path\": \"x.trace\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(404, imported.statusCode(), imported.body());
    for (String parameter : List.of("trace=x", "metric=event-count", "slices=10", "include=rennes")) {
      String name = parameter.substring(0, parameter.indexOf('='));
      assertEquals(Map.of("status", 400L, "error", "parameter '" + name + "' chooses how a trace's model is built; "
          + "this server shows the model file M.ocm, built already"),
          PlainJson.parse(body(server, "/api/overview?" + parameter, 400)), parameter);
    }
  }

  /** The window of a zoom: slices [7, 19) of the 30. */
  static final int FROM = 7;
  static final int TO = 19;

  /**
   * A zoom on slices [7, 19): the service answers what it answers for a model file that holds
   * only those slices (written here cell by cell from the whole model), on the whole model's
   * slice numbers — the same bytes once the window file's times are moved by 7; the breakpoint
   * table, which holds no time, byte for byte as it is. The API answers the service's bytes, and
   * the CSV model with its tree the binary one's.
   */
  @Test
  void aWindowIsTheAnswerOfAModelFileHoldingOnlyItsSlices() throws Exception {
    MicroscopicModel whole = ModelFiles.read(binary, null, 0);
    double[] values = new double[whole.leaves() * (TO - FROM) * whole.typeCount()];
    int i = 0;
    for (int leaf = 0; leaf < whole.leaves(); leaf++) {
      for (int slice = FROM; slice < TO; slice++) {
        for (int type = 0; type < whole.typeCount(); type++) {
          values[i++] = whole.value(leaf, slice, type);
        }
      }
    }
    Path alone = dir.resolve("slices-7-19.ocm");
    ModelFiles.write(new MicroscopicModel(whole.tree(), TO - FROM, whole.types(), values), alone);
    AnalysisService own = AnalysisService.standard();
    for (String aggregation : List.of("temporal", "spatiotemporal")) {
      for (String p : List.of("", "0.05")) {
        ViewKind view = ViewKind.of(aggregation, "mode");
        double chosen = p.isEmpty() ? Double.NaN : Double.parseDouble(p);
        AnalysisResult expected = own.answer(new AnalysisRequest(new ModelInput.FromFiles(alone, null, 0),
            AnalysisRequest.aggregationOf(view), view, chosen, 400), Progress.NONE);
        AnalysisResult zoomed = own.answer(new AnalysisRequest(new ModelInput.FromFiles(binary, null, 0, FROM, TO),
            AnalysisRequest.aggregationOf(view), view, chosen, 400), Progress.NONE);
        String what = aggregation + " p=" + p;
        assertArrayEquals(moved(expected.json(), FROM), zoomed.json(), what);
        assertArrayEquals(expected.breakpointCsv(), zoomed.breakpointCsv(), what);
        String query = "?aggregation=" + aggregation + "&height=400" + (p.isEmpty() ? "" : "&p=" + p)
            + "&start=" + FROM + "&end=" + TO;
        byte[] answer = bytes(server, "/api/overview" + query, 200);
        assertArrayEquals(zoomed.json(), answer, what);
        Map<?, ?> json = (Map<?, ?>) PlainJson.parse(new String(answer, StandardCharsets.UTF_8));
        assertEquals(List.of((double) FROM, (double) TO, (long) (TO - FROM)),
            List.of(json.get("start"), json.get("end"), json.get("slices")), what);
        assertArrayEquals(zoomed.breakpointCsv(), bytes(server, "/api/breakpoints" + query + "&format=csv", 200), what);
        assertArrayEquals(zoomed.partsCsv(), bytes(server, "/api/export" + query + "&format=csv", 200), what);
        assertArrayEquals(answer, bytes(csvServer, "/api/overview" + query, 200), "CSV model, " + what);
      }
    }
    // The whole model's window is the whole model: the same answer as without one.
    assertArrayEquals(bytes(server, "/api/overview?p=0.05", 200),
        bytes(server, "/api/overview?p=0.05&start=0&end=" + SLICES, 200));
  }

  /** The treemap of a window steps through the window's slices: step 3 is the model's slice 10. */
  @Test
  void theTreemapOfAWindowIsTheServicesAnswer() throws Exception {
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromFiles(binary, null, 0, FROM, TO),
        Aggregation.SPATIAL, null, 0.1, AnalysisRequest.DEFAULT_HEIGHT);
    byte[] expected = AnalysisService.standard().treemap(new TreemapRequest(analysis, -1, 3, 500, 400), Progress.NONE)
        .json();
    byte[] answer = bytes(server, "/api/treemap?p=0.1&step=3&width=500&height=400&start=" + FROM + "&end=" + TO, 200);
    assertArrayEquals(expected, answer);
    Map<?, ?> treemap = (Map<?, ?>) ((Map<?, ?>) PlainJson.parse(new String(answer, StandardCharsets.UTF_8)))
        .get("treemap");
    assertEquals(List.of(10.0, 11.0), List.of(treemap.get("stepStart"), treemap.get("stepEnd")));
  }

  @Test
  void aWindowThatIsNotWholeSlicesOfTheModelIsRefusedInOneLine() throws Exception {
    Map<String, String> refused = new java.util.LinkedHashMap<>();
    refused.put("start=5&end=3", "the window [5, 3) holds no slice: its start must be below its end");
    refused.put("start=5&end=5", "the window [5, 5) holds no slice: its start must be below its end");
    refused.put("end=0", "the window [0, 0) holds no slice: its start must be below its end");
    refused.put("start=-1&end=5", "the window [-1, 5) starts before slice 0");
    refused.put("start=20&end=40", "the window [20, 40) ends beyond the model: its end must be at most 30");
    refused.put("start=31", "the window [31, 30) holds no slice: its start must be below its end");
    refused.put("start=2.5&end=7", "the window [2.5, 7) cuts a slice: a model file's window is in whole slices");
    for (Map.Entry<String, String> bad : refused.entrySet()) {
      for (String endpoint : List.of("overview", "breakpoints", "export", "treemap")) {
        assertEquals(Map.of("status", 400L, "error", bad.getValue()),
            PlainJson.parse(body(server, "/api/" + endpoint + "?" + bad.getKey(), 400)), endpoint + "?" + bad.getKey());
      }
    }
    assertEquals(Map.of("status", 400L, "error", "parameter 'start': expected a number, found 'x'"),
        PlainJson.parse(body(server, "/api/overview?start=x", 400)));
  }

  /**
   * The JSON of an answer on a model file of the window's slices alone, its times (every {@code
   * start}, {@code end}, {@code stepStart}, {@code stepEnd}: slice numbers) moved by the window's
   * first slice, written again as the service writes it.
   */
  private static byte[] moved(byte[] json, int by) {
    return PlainJson.write(moved(PlainJson.parse(new String(json, StandardCharsets.UTF_8)), by))
        .getBytes(StandardCharsets.UTF_8);
  }

  private static Object moved(Object json, int by) {
    if (json instanceof List<?> list) {
      return list.stream().map(e -> moved(e, by)).toList();
    }
    if (!(json instanceof Map<?, ?> map)) {
      return json;
    }
    Map<Object, Object> copy = new java.util.LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      boolean time = List.of("start", "end", "stepStart", "stepEnd").contains(e.getKey()) && e.getValue() instanceof Double;
      copy.put(e.getKey(), time ? (Double) e.getValue() + by : moved(e.getValue(), by));
    }
    return copy;
  }

  /** A model file rewritten while the server runs (a new cluster run) is read again, not answered from memory. */
  @Test
  void aRewrittenModelFileIsReadAgain() throws Exception {
    Path model = dir.resolve("rewritten.csv");
    Files.writeString(model, "producer,slice,type,value\na,0,u,1\na,1,u,1\n");
    OcelotlServer rewritten = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        Api.forModel(new ModelInput.FromFiles(model, null, 0), AnalysisService.standard()));
    try {
      assertEquals(2L, ((Map<?, ?>) PlainJson.parse(body(rewritten, "/api/overview", 200))).get("slices"));
      FileTime before = Files.getLastModifiedTime(model);
      Files.writeString(model, "producer,slice,type,value\na,0,u,1\na,1,u,1\na,2,v,3\n");
      Files.setLastModifiedTime(model, FileTime.fromMillis(before.toMillis() + 10_000));
      assertEquals(3L, ((Map<?, ?>) PlainJson.parse(body(rewritten, "/api/overview", 200))).get("slices"));
    } finally {
      rewritten.close();
    }
  }

  private static HttpRequest.Builder request(OcelotlServer to, String pathAndQuery) {
    String token = URI.create(to.url()).getQuery().substring("token=".length());
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + pathAndQuery)).header(Access.HEADER, token);
  }

  private static byte[] bytes(OcelotlServer to, String pathAndQuery, int status) throws Exception {
    HttpResponse<byte[]> response = HTTP.send(request(to, pathAndQuery).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(status, response.statusCode(), () -> pathAndQuery + ": " + new String(response.body(), StandardCharsets.UTF_8));
    return response.body();
  }

  private static String body(OcelotlServer to, String pathAndQuery, int status) throws Exception {
    return new String(bytes(to, pathAndQuery, status), StandardCharsets.UTF_8);
  }
}
