package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.app.CliTest;

/**
 * {@code ocelotl stats} and {@code GET /api/stats} on the bundled trace: the same bytes, and the
 * nancy ranks waiting behind their slow uplink in [8, 9) s; bad input gets one line, no trace.
 */
class StatsTest {
  static final Path BUNDLED = EventsTest.BUNDLED;
  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static HttpResponse<String> api(String query) throws Exception {
    return bundled.get("stats?trace=" + bundled.id() + query);
  }

  static CliTest.Result cli(String... args) {
    List<String> all = new ArrayList<>(List.of("stats", BUNDLED.toString(), "--workspace",
        bundled.workspace().toString()));
    all.addAll(List.of(args));
    return CliTest.run(all.toArray(String[]::new));
  }

  @Test
  void nancyWaitsInEightToNine() throws Exception {
    HttpResponse<String> json = api("&from=8&to=9&producers=nancy&kind=state");
    assertEquals(200, json.statusCode(), json.body());
    Map<?, ?> stats = (Map<?, ?>) PlainJson.parse(json.body());
    List<?> types = (List<?>) stats.get("types");
    Map<?, ?> first = (Map<?, ?>) types.get(0);
    assertEquals("PMPI_Waitall", first.get("type"), "the dominant type comes first");
    double sum = types.stream().mapToDouble(t -> (Double) ((Map<?, ?>) t).get("total")).sum();
    assertEquals(16.0, sum, 1e-9, "16 ranks, one state at a time each, over 1 s");
    assertEquals((Double) first.get("total") / sum, (Double) first.get("share"), 1e-12);
    assertTrue((Double) first.get("share") > 0.45, "nancy waits almost half of the time: " + first.get("share"));
  }

  @Test
  void theCommandLineAndTheApiGiveTheSameBytes() throws Exception {
    CliTest.Result csv = cli("--from", "8", "--to", "9", "--producers", "nancy,lyon-c1", "--by", "producer", "--top", "3");
    assertEquals(0, csv.status(), csv.err());
    HttpResponse<String> apiCsv = api("&from=8&to=9&producers=nancy%7Clyon-c1&by=producer&top=3&format=csv");
    assertEquals(apiCsv.body(), csv.out());
    assertTrue(csv.out().startsWith("type,kind,producer,total,share,records,min,mean,median,p90,p99,max,producer_min,producer_max\n"));
    CliTest.Result json = cli("--from", "3", "--to", "5", "--by", "depth:2", "--kind", "state,link", "--buckets", "20", "--json");
    assertEquals(0, json.status(), json.err());
    assertEquals(api("&from=3&to=5&by=depth:2&kind=state%7Clink&buckets=20").body(), json.out());
  }

  @Test
  void badInputGetsOneLine() throws Exception {
    for (String[] c : new String[][] {
        {"unknown producer 'nope'", "--producers", "nope"},
        {"unknown type 'nope'", "--types", "nope"},
        {"the window needs from < to, got from = 5.0, to = 3.0", "--from", "5", "--to", "3"},
        {"by: expected type, producer or depth:K (K ≥ 1), got 'rank'", "--by", "rank"},
        {"top: only with by producer or depth:K, where rows are groups", "--top", "3"}}) {
      CliTest.Result run = cli(java.util.Arrays.copyOfRange(c, 1, c.length));
      assertEquals(new CliTest.Result(1, "", "ocelotl: " + c[0] + "\n"), run);
    }
    CliTest.Result both = cli("--json", "--csv");
    assertEquals(2, both.status(), "a usage error");
    assertTrue(both.err().startsWith("Error: --json, --csv are mutually exclusive"), both.err());
    assertRefused(api("&producers=nope"), "unknown producer 'nope'");
    assertRefused(api("&by=depth:x"), "by: expected type, producer or depth:K");
    assertRefused(api("&from=5&to=3"), "the window needs from < to");
    assertRefused(api("&buckets=0"), "buckets");
    assertRefused(api("&top=2"), "top: only with by producer");
  }

  static void assertRefused(HttpResponse<String> response, String fragment) {
    assertEquals(400, response.statusCode(), response.body());
    assertTrue(response.body().contains(fragment), response.body());
  }
}
