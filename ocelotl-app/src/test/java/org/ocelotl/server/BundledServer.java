package org.ocelotl.server;

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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.workspace.Workspace;

/**
 * A server on a fresh workspace in a directory of its own, the bundled trace imported through the
 * API: what the tests of one endpoint start from. A test class holds one as
 * {@code @RegisterExtension static final BundledServer bundled = new BundledServer();}: it is
 * started before the class's first test and closed, its directory deleted, after the last. The
 * tests that compare with the command line run it on the same {@link #workspace()}.
 */
final class BundledServer implements BeforeAllCallback, AfterAllCallback {
  static final Path BUNDLED = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_perturbed.trace.gz")
      .normalize();

  private Path dir;
  private OcelotlServer server;
  private String token;
  private String id;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    dir = Files.createTempDirectory("bundled-server");
    server = OcelotlServer.start(InetAddress.getLoopbackAddress(), 0,
        new Api(Workspace.open(workspace()), AnalysisService.standard()));
    token = URI.create(server.url()).getQuery().substring("token=".length());
    HttpResponse<String> imported = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + server.port() + "/api/import")).header(Access.HEADER, token)
        .POST(HttpRequest.BodyPublishers.ofString(PlainJson.write(Map.of("path", BUNDLED.toString())))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, imported.statusCode(), imported.body());
    id = URLEncoder.encode((String) ((Map<?, ?>) PlainJson.parse(imported.body())).get("id"), StandardCharsets.UTF_8);
  }

  /** JUnit calls this even when {@link #beforeAll} failed half way. */
  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    if (server != null) {
      server.close();
    }
    if (dir != null) {
      try (Stream<Path> all = Files.walk(dir)) {
        List<Path> deepestFirst = all.sorted(Comparator.reverseOrder()).toList();
        for (Path path : deepestFirst) {
          Files.delete(path);
        }
      }
    }
  }

  /** The class's own directory, for the files its tests write. */
  Path dir() {
    return dir;
  }

  /** The server's workspace, where the command line finds the bundled trace already imported. */
  Path workspace() {
    return dir.resolve("workspace");
  }

  OcelotlServer server() {
    return server;
  }

  String token() {
    return token;
  }

  /** The trace's id, URL-encoded. */
  String id() {
    return id;
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
