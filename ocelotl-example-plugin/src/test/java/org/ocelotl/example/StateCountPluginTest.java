package org.ocelotl.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.example.SpansPluginTest.Result;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.Metrics;
import org.ocelotl.scan.ModelCache;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.server.Api;
import org.ocelotl.server.OcelotlServer;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The example metric plug-in, state-count, found on the class path as a user's would be (this
 * module's classes and META-INF/services beside Ocelotl's) and used by name as a built-in metric
 * is: its model, an overview, the model cache, the lists of metrics, the refusal of an unknown one.
 * Expected values are counted by brute force from the records the test wrote.
 */
class StateCountPluginTest {
  static final long SEED = 20261129L;
  /** Four ranks on two nodes; names unique, so the model's CSV names them alone. */
  static final String[] RANKS = {"node-0/rank-0", "node-0/rank-1", "node-1/rank-2", "node-1/rank-3"};
  static final String[] TYPES = {"compute", "send", "wait"};
  /** The window [0, 8) s in 16 slices of 0.5 s; every time a multiple of 1/8 s, so boundaries are exact. */
  static final int SLICES = 16;
  static final double WIDTH = 0.5;

  @TempDir Path tmp;
  Path trace;
  /** The states written: rank, type, start, end. */
  final List<Object[]> states = new ArrayList<>();

  @BeforeEach
  void writeTrace() throws IOException {
    Random random = new Random(SEED);
    StringBuilder text = new StringBuilder(SpansFormat.MAGIC + "\n");
    for (int i = 0; i < 80; i++) {
      String rank = RANKS[random.nextInt(RANKS.length)];
      String type = TYPES[random.nextInt(TYPES.length)];
      double start = random.nextInt(64) / 8.0;
      double end = Math.min(8, start + (1 + random.nextInt(24)) / 8.0);
      states.add(new Object[] {rank, type, start, end});
      text.append(rank).append(',').append(type).append(',').append(start).append(',').append(end).append('\n');
    }
    text.append("node-1/rank-2,checkpoint,1.25\n"); // an event: not a state, never counted
    trace = Files.writeString(tmp.resolve("random.spans"), text);
  }

  /** "rank,slice,type" → states of the type beginning on the rank in the slice, by brute force. */
  private Map<String, Double> expectedCells() {
    Map<String, Double> cells = new TreeMap<>();
    for (Object[] s : states) {
      String rank = ((String) s[0]).substring(((String) s[0]).indexOf('/') + 1);
      int slice = (int) ((double) s[2] / WIDTH);
      cells.merge(rank + "," + slice + "," + s[1], 1.0, Double::sum);
    }
    return cells;
  }

  private String workspace() {
    return tmp.resolve("ws").toString();
  }

  private Result ocelotl(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--workspace", workspace()));
    return SpansPluginTest.ocelotl(all.toArray(String[]::new));
  }

  @Test
  void theModelCountsTheStatesBegunInEachSlice() throws IOException {
    Path csv = tmp.resolve("m.csv");
    Result model = ocelotl("model", trace.toString(), "--metric", "state-count", "--slices", "16", "--from", "0",
        "--to", "8", "--depth", "0", "--out", csv.toString());
    assertEquals(0, model.status(), model.err());
    assertTrue(model.err().contains("state-count model, 4 producers × 16 slices × 3 types") && model.err().contains("values in states"),
        model.err());
    Map<String, Double> cells = new TreeMap<>();
    for (String row : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
      String[] f = row.split(",");
      if (Double.parseDouble(f[3]) != 0) {
        cells.put(f[0] + "," + f[1] + "," + f[2], Double.parseDouble(f[3]));
      }
    }
    assertEquals(expectedCells(), cells, "seed " + SEED);
  }

  /** A temporal overview at p = 0: each part's value is the states begun in its slices, every rank and type summed. */
  @Test
  void anOverviewOfTheStatesBegun() throws IOException {
    Path parts = tmp.resolve("parts.csv");
    Path json = tmp.resolve("o.json");
    Result overview = ocelotl("overview", trace.toString(), "--metric", "state-count", "--slices", "16", "--from", "0",
        "--to", "8", "--aggregation", "temporal", "--view", "stacked", "--p", "0", "--out", tmp.resolve("o.svg").toString(),
        "--parts-csv", parts.toString(), "--json", json.toString());
    assertEquals(0, overview.status(), overview.err());
    String answer = Files.readString(json);
    assertTrue(answer.contains("\"metric\":\"state-count\",\"metricLabel\":\"states begun\",\"valueUnit\":\"states\""),
        answer.substring(0, Math.min(400, answer.length())));
    double[] perSlice = new double[SLICES];
    expectedCells().forEach((cell, count) -> perSlice[Integer.parseInt(cell.split(",")[1])] += count);
    List<String> rows = Files.readAllLines(parts);
    List<String> header = List.of(rows.get(0).split(","));
    int first = header.indexOf("first_slice");
    int last = header.indexOf("last_slice");
    int value = header.indexOf("value");
    int next = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split(",");
      assertEquals(next, Integer.parseInt(f[first]), row);
      double expected = 0;
      for (int k = next; k <= Integer.parseInt(f[last]); k++) {
        expected += perSlice[k];
      }
      assertEquals(expected, Double.parseDouble(f[value]), row + " (seed " + SEED + ")");
      next = Integer.parseInt(f[last]) + 1;
    }
    assertEquals(SLICES, next, "the parts cover every slice");
    assertEquals(states.size(), java.util.Arrays.stream(perSlice).sum());
  }

  /** Cached under its name and version; a coarser grid is summed from the cached one, exactly, with no scan. */
  @Test
  void cachedAndSummedIntoACoarserGrid() throws IOException {
    TraceStore store = Workspace.open(tmp.resolve("ws")).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    ModelCache cache = new ModelCache(1 << 20);
    ModelRequest fine = ModelRequest.of(Metrics.parse("state-count"), SLICES).withWindow(0, 8);
    cache.build(store, fine);
    ModelRequest coarse = fine.withSlices(SLICES / 4);
    BuiltModel built = cache.build(store, coarse);
    assertEquals(1, cache.scans(), "the coarse model from the cached fine one");
    assertTrue(built.exact());
    try (Stream<Path> files = Files.list(store.directory().resolve(ModelCache.DIRECTORY))) {
      assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith("state-count-v1-")), "the cache file's key");
    }
    double total = 0;
    double[] perCoarse = new double[SLICES / 4];
    for (Object[] s : states) {
      perCoarse[(int) ((double) s[2] / (4 * WIDTH))]++;
    }
    for (int k = 0; k < SLICES / 4; k++) {
      double sum = 0;
      for (int leaf = 0; leaf < built.model().leaves(); leaf++) {
        for (int u = 0; u < built.model().typeCount(); u++) {
          sum += built.model().value(leaf, k, u);
        }
      }
      assertEquals(perCoarse[k], sum, "slice " + k + ", seed " + SEED);
      total += sum;
    }
    assertEquals(states.size(), total);
  }

  @Test
  void listedWhereMetricsAreListed() {
    Result info = ocelotl("info", trace.toString());
    assertEquals(0, info.status(), info.err());
    assertTrue(info.out().lines().toList().contains("metrics    state-duration, state-average, event-count, state-count"),
        info.out());
    assertTrue(RequestSpec.vocabulary().metrics().contains(new RequestSpec.MetricChoice("state-count", "states begun",
        "state")));
    Result help = SpansPluginTest.ocelotl("overview", "--help");
    assertTrue(help.out().replaceAll("\\s+", " ").contains("link-volume, state-count. Default: state-duration."),
        help.out());
  }

  /** The API's metric key takes it, as the web page sends it (the page builds its menu from /api/vocabulary). */
  @Test
  void askedForByTheApi() throws Exception {
    OcelotlServer server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(tmp.resolve("ws")), AnalysisService.standard()));
    try {
      String token = URI.create(server.url()).getQuery();
      String base = "http://127.0.0.1:" + server.port() + "/api/";
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> imported = http.send(HttpRequest.newBuilder(URI.create(base + "import?" + token))
          .POST(HttpRequest.BodyPublishers.ofString("{\"path\": \"" + trace + "\"}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, imported.statusCode(), imported.body());
      String id = imported.body().replaceAll("(?s).*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
      HttpResponse<String> vocabulary = http.send(HttpRequest.newBuilder(URI.create(base + "vocabulary?" + token)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(vocabulary.body().contains("{\"name\":\"state-count\",\"label\":\"states begun\",\"category\":\"state\"}"),
          vocabulary.body());
      HttpResponse<String> overview = http.send(HttpRequest.newBuilder(URI.create(base + "overview?" + token + "&trace="
          + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8)
          + "&metric=state-count&slices=16&start=0&end=8&aggregation=temporal&p=0")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, overview.statusCode(), overview.body());
      assertTrue(overview.body().contains("\"metric\":\"state-count\",\"metricLabel\":\"states begun\""),
          overview.body().substring(0, Math.min(400, overview.body().length())));
    } finally {
      server.close();
    }
  }

  @Test
  void anUnknownMetricIsOneLineListingThePlugins() {
    Result unknown = ocelotl("model", trace.toString(), "--metric", "state-counts", "--slices", "4", "--out", "-");
    assertEquals(1, unknown.status());
    assertEquals(1, unknown.err().lines().count(), unknown.err());
    assertEquals("ocelotl: --metric: expected one of state-duration, state-average, event-count, variable-mean, "
        + "utilization, link-count, link-volume, state-count, found 'state-counts'\n", unknown.err());
  }
}
