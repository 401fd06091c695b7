package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.app.CliTest;

/**
 * The event table behind an aggregate: on the bundled trace, host lyon-c1-2 ran at 20 % speed in
 * [3, 5) s, so the longest computing states of that window are its ranks' — first in the table
 * sorted by duration. The command line and the API give the same bytes.
 */
class EventsTest {
  static final Path BUNDLED = BundledServer.BUNDLED;
  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static HttpResponse<String> api(String query) throws Exception {
    return bundled.get("events?trace=" + bundled.id() + query);
  }

  static String cli(String... args) {
    List<String> all = new ArrayList<>(List.of("events", BUNDLED.toString(), "--workspace", bundled.workspace().toString()));
    all.addAll(List.of(args));
    CliTest.Result run = CliTest.run(all.toArray(String[]::new));
    assertEquals(0, run.status(), run.err());
    return run.out();
  }

  @Test
  void theSlowHostsComputingStatesComeFirst() throws Exception {
    HttpResponse<String> json = api("&from=3&to=5&types=computing&sort=-duration&limit=4");
    assertEquals(200, json.statusCode(), json.body());
    List<?> records = (List<?>) ((Map<?, ?>) PlainJson.parse(json.body())).get("records");
    assertEquals(4, records.size());
    for (Object r : records) {
      String producer = (String) ((Map<?, ?>) r).get("producer");
      assertTrue(producer.equals("lyon/lyon-c1/lyon-c1-2/rank-34") || producer.equals("lyon/lyon-c1/lyon-c1-2/rank-35"),
          producer);
    }
  }

  @Test
  void theCommandLineAndTheApiGiveTheSameBytes() throws Exception {
    String cliCsv = cli("--from", "8", "--to", "9", "--producers", "nancy", "--kind", "state,link", "--sort", "-duration",
        "--limit", "50", "--offset", "5", "--match", "Wait|Isend");
    HttpResponse<String> apiCsv = api("&from=8&to=9&producers=nancy&kind=state%7Clink&sort=-duration&limit=50&offset=5"
        + "&match=Wait%7CIsend&format=csv");
    assertEquals(apiCsv.body(), cliCsv);
    assertTrue(cliCsv.lines().count() == 51, "a header and 50 rows");
    String cliJson = cli("--from", "3", "--to", "3.5", "--kind", "event,variable", "--limit", "20", "--json");
    HttpResponse<String> apiJson = api("&from=3&to=3.5&kind=event%7Cvariable&limit=20");
    assertEquals(apiJson.body(), cliJson);
  }

  @Test
  void theGanttChartOfTheApiIsTheCommandLinesPicture() throws Exception {
    HttpResponse<String> svg = bundled.get("gantt?trace=" + bundled.id()
        + "&from=3&to=5&producers=lyon-c1&format=svg&width=1000&height=700");
    assertEquals(200, svg.statusCode(), svg.body());
    Path file = bundled.dir().resolve("g.svg");
    CliTest.Result run = CliTest.run("gantt", BUNDLED.toString(), "--workspace", bundled.workspace().toString(),
        "--from", "3", "--to", "5", "--producers", "lyon-c1", "--width", "1000", "--height", "700", "--out",
        file.toString());
    assertEquals(0, run.status(), run.err());
    assertEquals(java.nio.file.Files.readString(file), svg.body(), "the same bytes");
    HttpResponse<String> json = bundled.get("gantt?trace=" + bundled.id() + "&from=3&to=5&producers=nope");
    assertRefused(json, "unknown producer 'nope'");
  }

  /**
   * The details of a view follow its type filter: every type but those left out (xtypes) are the
   * records of the other types named; the answer says how the page shows their times, as the
   * Gantt chart's axis of the same window does ([3, 3.5) s: in ms).
   */
  @Test
  void typesLeftOutAreTheOthersNamed() throws Exception {
    String query = "&from=3&to=3.5&producers=lyon-c1&kind=state&sort=-duration&limit=10000";
    Map<?, ?> without = (Map<?, ?>) PlainJson.parse(api(query + "&xtypes=PMPI_Waitall").body());
    Map<?, ?> others = (Map<?, ?>) PlainJson.parse(api(query + "&types="
        + URLEncoder.encode("PMPI_Init|computing|PMPI_Barrier|PMPI_Irecv|PMPI_Isend|PMPI_Allreduce|PMPI_Finalize",
            StandardCharsets.UTF_8)).body());
    List<?> records = (List<?>) without.get("records");
    assertEquals(others.get("records"), records);
    assertTrue(records.size() > 100, records.size() + " records");
    assertTrue(records.stream().noneMatch(r -> "PMPI_Waitall".equals(((Map<?, ?>) r).get("type"))));
    assertEquals(Map.of("origin", 0.0, "factor", 1000.0, "unit", "ms"), without.get("timeScale"));
    assertRefused(api("&xtypes=nope"), "unknown type 'nope'");
    assertRefused(api("&types=computing&xtypes=computing"), "every type is left out");
  }

  @Test
  void badInputNamesItsParameter() throws Exception {
    assertRefused(api("&match=%5B"), "match: not a regular expression");
    assertRefused(api("&producers=nope"), "unknown producer 'nope'");
    assertRefused(api("&types=nope"), "unknown type 'nope'");
    assertRefused(api("&from=5&to=3"), "the window needs from < to");
    assertRefused(api("&kind=frames"), "kind: expected state, event, variable or link");
    assertRefused(api("&sort=size"), "unknown column 'size'");
  }

  /**
   * A match expression that would backtrack for years on a trace's long name is answered with a
   * 400 once its matching passes about a second, instead of holding a server worker; without the
   * bound this test fails on its 60 s timeout.
   */
  @Test
  void anExpressionThatBacktracksForYearsIsRefused() throws Exception {
    Path trace = java.nio.file.Files.writeString(bundled.dir().resolve("long-name.json"), "{\"traceEvents\": [{\"name\": \""
        + "a".repeat(100) + "b\", \"ph\": \"X\", \"ts\": 0, \"dur\": 5, \"pid\": 1, \"tid\": 1}]}");
    HttpResponse<String> imported = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + bundled.server().port() + "/api/import")).header(Access.HEADER, bundled.token())
        .POST(HttpRequest.BodyPublishers.ofString(PlainJson.write(Map.of("path", trace.toString())))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, imported.statusCode(), imported.body());
    String longName = URLEncoder.encode((String) ((Map<?, ?>) PlainJson.parse(imported.body())).get("id"),
        StandardCharsets.UTF_8);
    HttpResponse<String> refused = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> bundled.get("events?trace="
        + longName + "&match=" + URLEncoder.encode("(.*a){12}$", StandardCharsets.UTF_8)));
    assertEquals(400, refused.statusCode(), refused.body());
    assertEquals("match: the regular expression took more than 1 s on the trace's names and values: it backtracks "
        + "(a repetition inside a repetition, such as (.*a){12}, can take years on a long name); write it without "
        + "nested repetitions", ((Map<?, ?>) PlainJson.parse(refused.body())).get("error"));
  }

  static void assertRefused(HttpResponse<String> response, String fragment) {
    assertEquals(400, response.statusCode(), response.body());
    assertTrue(response.body().contains(fragment), response.body());
  }
}
