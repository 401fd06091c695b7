package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.app.Main;

/**
 * {@code GET /api/subtrace} (issue 33 item 13): the page's selection written as a trace of its
 * own, a download holding the bytes {@code ocelotl export} writes, in every format it takes, with
 * the window's absolute times; the window may be given since the start with a unit.
 */
class SubTraceApiTest {
  static final Path BUNDLED = BundledServer.BUNDLED;
  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static HttpResponse<byte[]> api(String query) throws Exception {
    return bundled.get("subtrace?trace=" + bundled.id() + query, HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The slow host of the bundled run, lyon-c1-2, in [3, 5) s: the same bytes from both front ends. */
  @Test
  void theSelectionIsTheExportsBytes() throws Exception {
    for (String format : new String[] {"paje", "csv", "chrome"}) {
      HttpResponse<byte[]> answer = api("&from=3&to=5&producers=lyon-c1-2&format=" + format);
      assertEquals(200, answer.statusCode(), new String(answer.body()));
      String extension = format.equals("paje") ? "trace" : format.equals("chrome") ? "json" : "csv";
      assertEquals("attachment; filename=\"smpi_perturbed-3-5." + extension + "\"",
          answer.headers().firstValue("Content-Disposition").orElse(""), format);
      Path out = bundled.dir().resolve("sub." + extension);
      assertEquals(0, Main.run("export", BUNDLED.toString(), "--from", "3", "--to", "5", "--producers", "lyon-c1-2",
          "--format", format, "--out", out.toString(), "--force", "--workspace", bundled.workspace().toString()));
      assertArrayEquals(Files.readAllBytes(out), answer.body(), format);
    }
    String paje = new String(api("&from=3&to=5&producers=lyon-c1-2").body());
    assertTrue(paje.startsWith("# a part of smpi_perturbed.trace.gz written by Ocelotl: [3, 5) s\n"), paje);
    // Times since the start with a unit: the bundled run starts at 0, the same window.
    assertArrayEquals(api("&from=3&to=5&producers=lyon-c1-2").body(),
        api("&from=3s&to=5000ms&producers=lyon-c1-2").body());
  }

  @Test
  void aBadFormatOrWindowIsA400() throws Exception {
    HttpResponse<byte[]> format = api("&format=parquet");
    assertEquals(400, format.statusCode());
    assertEquals("{\"status\":400,\"error\":\"parameter 'format': expected one of paje, csv, chrome, found 'parquet'\"}",
        new String(format.body()));
    HttpResponse<byte[]> window = api("&from=5&to=3");
    assertEquals(400, window.statusCode());
  }
}
