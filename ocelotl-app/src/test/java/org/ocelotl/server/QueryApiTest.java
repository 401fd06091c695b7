package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.app.CliTest;

/**
 * The web UI's Query tab and the event table's sequence field, through the API: a read-only query
 * answers the bytes of {@code ocelotl sql --json} (and its CSV those of {@code --csv}); anything
 * but one SELECT or WITH statement is refused with one line; a sequence's occurrences are those of
 * {@code ocelotl events --sequence}, and saved as a selection by {@code POST /api/selections}.
 */
class QueryApiTest {
  static final Path BUNDLED = BundledServer.BUNDLED;
  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static HttpResponse<String> get(String path) throws Exception {
    return bundled.get(path);
  }

  static HttpResponse<String> query(String sql, String format) throws Exception {
    return get("query?trace=" + bundled.id() + "&format=" + format + "&sql=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
  }

  static String cli(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.addAll(List.of("--workspace", bundled.dir().resolve("cli").toString()));
    CliTest.Result run = CliTest.run(all.toArray(String[]::new));
    assertEquals(0, run.status(), run.err());
    return run.out();
  }

  static final String LONGEST = """
      SELECT p.path, t.name AS state, s.start_time, s.end_time - s.start_time AS duration
      FROM states s JOIN types t ON t.id = s.type JOIN producers p ON p.id = s.producer
      ORDER BY duration DESC, p.path LIMIT 5""";

  @Test
  void aQueryAnswersTheCommandsBytes() throws Exception {
    HttpResponse<String> json = query(LONGEST, "json");
    assertEquals(200, json.statusCode(), json.body());
    assertEquals(cli("sql", BUNDLED.toString(), LONGEST, "--json"), json.body() + "\n");
    Map<?, ?> answer = (Map<?, ?>) PlainJson.parse(json.body());
    assertEquals(List.of("path", "state", "start_time", "duration"), answer.get("columns"));
    assertEquals(List.of("grenoble/grenoble-c1/grenoble-c1-4/rank-55", "PMPI_Allreduce", 3.501073, 0.8048150000000005),
        ((List<?>) answer.get("rows")).get(0));
    HttpResponse<String> csv = query(LONGEST, "csv");
    assertEquals(200, csv.statusCode(), csv.body());
    assertEquals(cli("sql", BUNDLED.toString(), LONGEST, "--csv"), csv.body());
    assertTrue(csv.headers().firstValue("Content-Disposition").orElse("").contains("query.csv"));
    // Semicolons and keywords inside strings, names and comments are the query's own.
    HttpResponse<String> quoted = query("-- DROP TABLE states;\nWITH x AS (SELECT 'a;b' AS \"DELETE;\") SELECT * "
        + "FROM x; /* one trailing semicolon */", "json");
    assertEquals(200, quoted.statusCode(), quoted.body());
    assertEquals("{\"columns\":[\"DELETE;\"],\"types\":[\"VARCHAR\"],\"rows\":[[\"a;b\"]]}", quoted.body());
  }

  @Test
  void anythingButOneQueryIsRefused() throws Exception {
    String[][] cases = {
        {"DROP VIEW states", "SQL: only a query (SELECT or WITH) is run here, not DROP; the command line's ocelotl sql "
            + "runs any statement"},
        {"COPY states TO '/tmp/x.csv'", "SQL: only a query (SELECT or WITH) is run here, not COPY; the command line's "
            + "ocelotl sql runs any statement"},
        {"SELECT 1; DROP VIEW states", "SQL: one statement only (a ';' separates two)"},
        {"  -- nothing\n", "SQL: the query is empty"}};
    for (String[] c : cases) {
      HttpResponse<String> r = query(c[0], "json");
      assertEquals(400, r.statusCode(), c[0]);
      assertEquals(c[1], ((Map<?, ?>) PlainJson.parse(r.body())).get("error"), c[0]);
    }
    // The views are still there: nothing ran.
    assertEquals(200, query("SELECT count(*) FROM states", "json").statusCode());
    HttpResponse<String> bad = query("SELECT nope FROM states", "json");
    assertEquals(400, bad.statusCode());
    assertTrue(((String) ((Map<?, ?>) PlainJson.parse(bad.body())).get("error"))
        .startsWith("SQL: Binder Error: Referenced column \"nope\" not found"), bad.body());
  }

  @Test
  void aSequencesOccurrencesAreTheCommandsAndASavedSelection() throws Exception {
    HttpResponse<String> json = get("events?trace=" + bundled.id() + "&sequence=computing%7CPMPI_Allreduce&within=0.5"
        + "&sort=-duration&limit=3");
    assertEquals(200, json.statusCode(), json.body());
    assertEquals(cli("events", BUNDLED.toString(), "--sequence", "computing,PMPI_Allreduce", "--within", "0.5",
        "--sort", "-duration", "--limit", "3", "--json"), json.body());
    Map<?, ?> answer = (Map<?, ?>) PlainJson.parse(json.body());
    assertTrue(((Number) answer.get("total")).longValue() > 100, json.body().substring(0, 400));
    HttpResponse<String> saved = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + bundled.server().port() + "/api/selections?trace=" + bundled.id())).header(Access.HEADER, bundled.token())
        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"reductions\", \"producers\": [\"nancy\"], "
            + "\"rule\": {\"kind\": \"sequence\", \"types\": [\"computing\", \"PMPI_Allreduce\"], \"longest\": 0.5}}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, saved.statusCode(), saved.body());
    Map<?, ?> selection = (Map<?, ?>) PlainJson.parse(saved.body());
    assertEquals(Map.of("kind", "sequence", "types", List.of("computing", "PMPI_Allreduce"), "longest", 0.5,
        "within", List.of("nancy")), selection.get("rule"));
    for (Object p : (List<?>) selection.get("producers")) {
      assertTrue(((String) p).startsWith("nancy/"), p.toString());
    }
  }
}
