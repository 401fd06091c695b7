package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.workspace.Workspace;

/**
 * A server on a fresh workspace in {@code dir}, the bundled trace imported through the API: what
 * the tests of one endpoint start from.
 *
 * @param id the trace's id, URL-encoded
 */
record BundledServer(OcelotlServer server, String token, String id) {
  static final Path BUNDLED = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz")
      .normalize();

  static BundledServer start(Path dir) throws Exception {
    OcelotlServer server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(dir.resolve("workspace")), AnalysisService.standard()));
    String token = URI.create(server.url()).getQuery().substring("token=".length());
    HttpResponse<String> imported = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + server.port() + "/api/import")).header(Access.HEADER, token)
        .POST(HttpRequest.BodyPublishers.ofString(PlainJson.write(Map.of("path", BUNDLED.toString())))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, imported.statusCode(), imported.body());
    String id = URLEncoder.encode((String) ((Map<?, ?>) PlainJson.parse(imported.body())).get("id"),
        StandardCharsets.UTF_8);
    return new BundledServer(server, token, id);
  }

  /** {@code GET /api/PATH_AND_QUERY} with the token, the answer as text. */
  HttpResponse<String> get(String pathAndQuery) throws Exception {
    return get(pathAndQuery, HttpResponse.BodyHandlers.ofString());
  }

  /** {@code GET /api/PATH_AND_QUERY} with the token, the answer as {@code body} reads it. */
  <T> HttpResponse<T> get(String pathAndQuery, HttpResponse.BodyHandler<T> body) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + "/api/" + pathAndQuery)).header(Access.HEADER, token).build(), body);
  }
}
