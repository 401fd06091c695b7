package org.ocelotl.server;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.analysis.TraceSummary;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Fuzz target for the web API's parameters (issue 14): the input is an endpoint (its first line,
 * e.g. {@code overview}) and a raw query string (the rest), with {@code {trace}} standing for the
 * id of the one trace of the workspace (the bundled {@code examples/smpi_sizes.trace}, imported
 * once per JVM). The request goes through {@link Api#handle} as a GET and any exception through
 * {@link OcelotlServer#failure}, as the server does. The property: an answer, or a JSON error below
 * 500 (a 400 naming the parameter, a 404 for an unknown trace or endpoint); a 500 or an exception
 * that escapes is a finding.
 *
 * <p>The target is the parsing, not the analysis: the model source stops a request once it is
 * parsed into a model request ({@link Parsed}), so that a valid request for 10,000 slices does not
 * run for minutes. The cheap endpoints (lists, Gantt, events, statistics) answer for real.
 */
class ApiFuzzTest {
  /** Thrown by the model source: the request parsed, and the model would be built now. */
  private static final class Parsed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Parsed() {
      super(null, null, false, false);
    }
  }

  private static final Path TRACE = Path.of(System.getProperty("user.dir")).resolve("../examples/smpi_sizes.trace")
      .normalize();
  private static Api api;
  private static String traceId;

  @FuzzTest(maxDuration = "24h")
  void params(byte[] data) throws IOException {
    String input = new String(data, StandardCharsets.ISO_8859_1).replace("{trace}", id());
    int newline = input.indexOf('\n');
    String path = newline < 0 ? input : input.substring(0, newline);
    String query = newline < 0 ? "" : input.substring(newline + 1);
    Response response;
    try {
      response = api.handle("GET", path, Params.parse(query), "");
    } catch (Exception e) {
      if (parsed(e)) {
        return;
      }
      response = OcelotlServer.failure(e);
      if (response.status() >= 500) {
        throw new AssertionError(response.status() + " for " + path + "?" + query + ": "
            + new String(response.body(), StandardCharsets.UTF_8), e);
      }
    }
    if (response.status() >= 400 && !(PlainJson.parse(new String(response.body(), StandardCharsets.UTF_8))
        instanceof Map<?, ?> error && error.get("error") instanceof String)) {
      throw new AssertionError("an error that is not JSON with a message: " + response);
    }
  }

  private static boolean parsed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof Parsed) {
        return true;
      }
    }
    return false;
  }

  private static String id() throws IOException {
    if (api == null) {
      Workspace workspace = Workspace.open(Files.createTempDirectory("ocelotl-fuzz").resolve("workspace"));
      traceId = TraceSummary.id(workspace.importTrace(TRACE, ImportOptions.DEFAULT, ImportProgress.NONE));
      api = new Api(workspace, new AnalysisService((store, request, work) -> {
        throw new Parsed();
      }));
    }
    return traceId;
  }
}
