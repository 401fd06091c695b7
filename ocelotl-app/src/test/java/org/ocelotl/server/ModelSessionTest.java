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
        "selections", "topology")) {
      assertEquals(Map.of("status", 404L, "error", "/api/" + endpoint.replaceAll("/.*", "") + " needs a trace's "
          + "records; this server shows the model file M.ocm (ocelotl view --model), which holds none"),
          PlainJson.parse(body(server, "/api/" + endpoint, 404)), endpoint);
    }
    HttpResponse<String> imported = HTTP.send(request(server, "/api/import")
        .POST(HttpRequest.BodyPublishers.ofString("{\"path\": \"/tmp/x.trace\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(404, imported.statusCode(), imported.body());
    for (String parameter : List.of("trace=x", "metric=event-count", "start=0", "slices=10", "include=rennes")) {
      String name = parameter.substring(0, parameter.indexOf('='));
      assertEquals(Map.of("status", 400L, "error", "parameter '" + name + "' chooses how a trace's model is built; "
          + "this server shows the model file M.ocm, built already"),
          PlainJson.parse(body(server, "/api/overview?" + parameter, 400)), parameter);
    }
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
