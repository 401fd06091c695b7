package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 10: the command line and the page answer the same request the same way, so what
 * neither is told must be the same too. The page starts from the API's defaults (it reads them from
 * {@code /api/vocabulary}); the command line's overview and outliers differ only where documented:
 * they open spatiotemporal, and a picture's height fits its rows (RequestSpec.OVERVIEW_COMMAND).
 */
class FrontEndDefaultsTest {
  /** Where the command line's default is its own, on purpose (docs/cli.md). */
  private static final Set<String> OWN = Set.of("aggregation", "height");

  @Test
  void theCommandLineStartsFromThePagesDefaults() {
    assertSameDefaults(RequestSpec.PICTURE, RequestSpec.OVERVIEW_COMMAND);
    assertSameDefaults(RequestSpec.OUTLIERS, RequestSpec.OUTLIERS_COMMAND);
    assertEquals("spatiotemporal", RequestSpec.in(RequestSpec.OVERVIEW_COMMAND, RequestSpec.AGGREGATION).fallback());
    // N: 100 slices in both, whatever the aggregation (the page kept 100 where the command line took 50).
    for (List<Param> request : List.of(RequestSpec.OVERVIEW, RequestSpec.PICTURE, RequestSpec.OVERVIEW_COMMAND,
        RequestSpec.OUTLIERS, RequestSpec.OUTLIERS_COMMAND, RequestSpec.COMPARE)) {
      assertEquals("100", RequestSpec.in(request, RequestSpec.SLICES).fallback());
    }
  }

  /**
   * The producer depth: auto in every request that has one, the page's start (decision 053: at 768
   * ranks, every level draws rows thinner than a pixel); the page takes it from the spec, its own
   * copy serving only until the spec is read.
   */
  @Test
  void theProducerDepthIsAutomaticInEveryFrontEnd() throws IOException {
    for (List<Param> request : List.of(RequestSpec.MODEL, RequestSpec.OVERVIEW, RequestSpec.PICTURE,
        RequestSpec.OVERVIEW_COMMAND, RequestSpec.OUTLIERS, RequestSpec.OUTLIERS_COMMAND, RequestSpec.COMPARE,
        RequestSpec.TREEMAP, RequestSpec.TOPOLOGY, RequestSpec.DATASET_MODEL)) {
      assertEquals("auto", RequestSpec.in(request, RequestSpec.DEPTH).fallback());
    }
    try (InputStream page = FrontEndDefaultsTest.class.getResourceAsStream("/org/ocelotl/web/state.js")) {
      String state = new String(page.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(state.contains("depth: fallback('depth', 'auto')"), "the page's depth is the spec's");
    }
  }

  private static void assertSameDefaults(List<Param> api, List<Param> command) {
    assertEquals(api.stream().map(Param::name).toList(), command.stream().map(Param::name).toList());
    for (Param p : api) {
      if (!OWN.contains(p.name())) {
        Param c = RequestSpec.in(command, p);
        assertEquals(p.fallback(), c.fallback(), p.name());
        assertEquals(p.range(), c.range(), p.name());
      }
    }
  }
}
