package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ocelotl.server.ApiTest.assertError;
import static org.ocelotl.server.ApiTest.get;
import static org.ocelotl.server.ApiTest.json;
import static org.ocelotl.server.ApiTest.post;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/selections} and the {@code selection} parameter (docs/api.md), on ApiTest's server
 * and tiny trace: a saved selection gives the answer of the parameters it stands for, byte for
 * byte; bad bodies and names are 400s naming what is wrong.
 */
class SelectionApiTest {
  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    ApiTest.dir = dir;
    ApiTest.start();
  }

  @AfterAll
  static void stop() {
    ApiTest.stop();
  }

  private static String trace() {
    return URLEncoder.encode(ApiTest.traceId, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> delete(String pathAndQuery) throws IOException, InterruptedException {
    return ApiTest.http.send(HttpRequest.newBuilder(URI.create(ApiTest.base + pathAndQuery))
        .header(Access.HEADER, ApiTest.token).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> patch(String pathAndQuery, String body) throws IOException, InterruptedException {
    return ApiTest.http.send(HttpRequest.newBuilder(URI.create(ApiTest.base + pathAndQuery))
        .header(Access.HEADER, ApiTest.token).method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aSavedSelectionAnswersAsItsParameters() throws Exception {
    HttpResponse<String> saved = post("/api/selections?trace=" + trace(),
        "{\"name\": \"node2-wait\", \"from\": 3, \"to\": 9, \"producers\": [\"node2\"], \"note\": \"the perturbation\"}");
    assertEquals(200, saved.statusCode(), saved.body());
    assertEquals(Map.of("name", "node2-wait", "from", 3.0, "to", 9.0, "producers", List.of("node2"), "types", List.of(),
        "note", "the perturbation", "rule", Map.of()).keySet(), json(saved).keySet());
    assertEquals(List.of(json(saved)), json(get("/api/selections?trace=" + trace())).get("selections"));

    String byName = get("/api/overview?trace=" + trace() + "&slices=10&aggregation=spatiotemporal&selection=node2-wait").body();
    String byParameters = get("/api/overview?trace=" + trace() + "&slices=10&aggregation=spatiotemporal&start=3&end=9"
        + "&include=node2").body();
    assertEquals(byParameters, byName);
    assertEquals(get("/api/events?trace=" + trace() + "&from=3&to=9&producers=node2").body(),
        get("/api/events?trace=" + trace() + "&selection=node2-wait").body());
    assertEquals(get("/api/gantt?trace=" + trace() + "&from=3&to=9&producers=node2").body(),
        get("/api/gantt?trace=" + trace() + "&selection=node2-wait").body());

    // A derived rule: the ranks whose share of wait in [4, 8) is above one half — rank3 alone.
    HttpResponse<String> derived = post("/api/selections?trace=" + trace(),
        "{\"name\": \"slow\", \"from\": 4, \"to\": 8, \"rule\": {\"kind\": \"share\", \"types\": [\"wait\"], \"above\": 0.5}}");
    assertEquals(200, derived.statusCode(), derived.body());
    assertEquals(List.of("node2/rank3"), json(derived).get("producers"));

    assertError(400, "selection 'node2-wait' already exists", post("/api/selections?trace=" + trace(),
        "{\"name\": \"node2-wait\"}"));
    assertError(400, "a selection ('node2-wait') sets the window", get("/api/overview?trace=" + trace()
        + "&selection=node2-wait&start=1"));
    assertError(400, "no selection 'nope'", get("/api/events?trace=" + trace() + "&selection=nope"));
    assertError(400, "field 'name': expected a string", post("/api/selections?trace=" + trace(), "{\"from\": 1}"));
    assertError(400, "unknown producer 'node9'", post("/api/selections?trace=" + trace(),
        "{\"name\": \"x\", \"producers\": [\"node9\"]}"));
    assertError(400, "the body must be a JSON", post("/api/selections?trace=" + trace(), "{"));

    assertEquals(Map.of("renamed", "slow", "name", "rank3-wait"),
        json(patch("/api/selections?trace=" + trace() + "&name=slow", "{\"name\": \"rank3-wait\"}")));
    assertEquals(List.of("node2-wait", "rank3-wait"), ((List<?>) json(get("/api/selections?trace=" + trace()))
        .get("selections")).stream().map(s -> ((Map<?, ?>) s).get("name")).sorted().toList());
    assertError(400, "selection 'node2-wait' already exists",
        patch("/api/selections?trace=" + trace() + "&name=rank3-wait", "{\"name\": \"node2-wait\"}"));
    assertError(400, "no selection 'slow'", patch("/api/selections?trace=" + trace() + "&name=slow", "{\"name\": \"x\"}"));
    assertError(400, "field 'name': expected a string",
        patch("/api/selections?trace=" + trace() + "&name=rank3-wait", "{\"to\": 1}"));
    assertEquals(Map.of("renamed", "rank3-wait", "name", "slow"),
        json(patch("/api/selections?trace=" + trace() + "&name=rank3-wait", "{\"name\": \"slow\"}")));
    assertEquals(Map.of("deleted", "slow"), json(delete("/api/selections?trace=" + trace() + "&name=slow")));
    assertEquals(Map.of("deleted", "node2-wait"), json(delete("/api/selections?trace=" + trace() + "&name=node2-wait")));
    assertError(400, "no selection 'slow'", delete("/api/selections?trace=" + trace() + "&name=slow"));
    assertEquals(List.of(), json(get("/api/selections?trace=" + trace())).get("selections"));
  }
}
