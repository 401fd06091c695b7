package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.analysis.PlainJson;

/**
 * The first answer to a spatiotemporal overview whose breakpoints are not searched yet
 * ({@code progressive=1}): the optimal partition at the request's p by one programme — the very
 * partition the full answer shows at that p — or at a provisional p; once the full answer is
 * kept, {@code progressive=1} gets it directly. On the bundled trace at N = 30 (seconds, not
 * minutes, for the test; the web UI asks N = 100).
 */
class ProvisionalTest {
  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static Map<?, ?> overview(String query) throws Exception {
    HttpResponse<String> r = bundled.get("overview?trace=" + bundled.id()
        + "&aggregation=spatiotemporal&slices=30&view=mode&height=400" + query);
    assertEquals(200, r.statusCode(), r.body());
    return (Map<?, ?>) PlainJson.parse(r.body());
  }

  @Test
  void firstThePartitionAtPThenTheFullAnswer() throws Exception {
    Map<?, ?> first = overview("&p=0.02&progressive=1");
    assertEquals(true, first.get("provisional"));
    assertNull(first.get("defaultP"), "p is the request's; the default is not known yet");
    assertEquals(List.of(), first.get("breakpoints"));
    assertNull(first.get("curves"));
    Map<?, ?> full = overview("&p=0.02");
    assertNull(full.get("provisional"));
    assertTrue(((List<?>) full.get("breakpoints")).size() > 10, "the full answer has the breakpoints");
    assertEquals(full.get("partCount"), first.get("partCount"), "the same partition at p");
    assertEquals(full.get("parts"), first.get("parts"));
    // The same partition; the full answer's gain comes from the breakpoint search, which adds the
    // parts' gains in another order (docs/aggregation.md): equal to the last bits.
    double gain = ((Number) full.get("gain")).doubleValue();
    assertEquals(gain, ((Number) first.get("gain")).doubleValue(), 1e-12 * gain);
    assertEquals(full.get("overview"), first.get("overview"), "the same picture");
    assertNull(overview("&p=0.02&progressive=1").get("provisional"), "once known, the full answer at once");
  }

  /** Without p, the first answer is already the full answer's default p and partition. */
  @Test
  void withoutPTheExactDefaultPAndItsPartition() throws Exception {
    Map<?, ?> first = overview("&start=1&end=12&progressive=1");
    assertEquals(true, first.get("provisional"));
    assertNull(first.get("curves"));
    double p = ((Number) first.get("p")).doubleValue();
    assertEquals(p, ((Number) first.get("defaultP")).doubleValue());
    Map<?, ?> full = overview("&start=1&end=12");
    double defaultP = ((Number) full.get("defaultP")).doubleValue();
    assertEquals(defaultP, p, 1e-9 * defaultP, "the search's default p, to the rounding of its crossing");
    assertEquals(full.get("partCount"), first.get("partCount"));
    assertEquals(full.get("parts"), first.get("parts"), "the search's partition at its default p");
    assertEquals(full.get("overview"), first.get("overview"), "the same picture");
  }

  /**
   * A zoom's first answer as the page asks it (decision 064): the window at the p of the picture
   * the analyst zoomed from, by one programme — the very partition the window's full answer
   * shows at that p, though that p is no breakpoint of the window's and not its default.
   */
  @Test
  void aZoomFirstAtThePreviousWindowsP() throws Exception {
    // The picture zoomed from, full (a window of its own: the other tests' must stay unsearched).
    double yours = ((Number) overview("&start=2&end=11").get("defaultP")).doubleValue();
    Map<?, ?> first = overview("&start=4&end=9&progressive=1&p=" + yours);
    assertEquals(true, first.get("provisional"));
    assertEquals(yours, ((Number) first.get("p")).doubleValue(), "the analyst's p, not the window's default");
    assertNull(first.get("defaultP"), "the window's default p is the next request's");
    Map<?, ?> atDefault = overview("&start=4&end=9&progressive=1");
    assertEquals(true, atDefault.get("provisional"), "the window's default p: still before its breakpoints");
    Map<?, ?> full = overview("&start=4&end=9&p=" + yours);
    assertNull(full.get("provisional"));
    assertEquals(full.get("parts"), first.get("parts"), "the full answer's partition at the analyst's p");
    double gain = ((Number) full.get("gain")).doubleValue();
    assertEquals(gain, ((Number) first.get("gain")).doubleValue(), 1e-12 * gain);
    assertEquals(full.get("overview"), first.get("overview"), "the same picture");
    double defaultP = ((Number) full.get("defaultP")).doubleValue();
    assertTrue(Math.abs(defaultP - yours) > 1e-6 * yours, "a test where the two p differ: " + yours + ", " + defaultP);
    assertEquals(defaultP, ((Number) atDefault.get("p")).doubleValue(), 1e-9 * defaultP);
  }

  @Test
  void temporalRequestsGetTheFullAnswerAtOnce() throws Exception {
    HttpResponse<String> r = bundled.get("overview?trace=" + bundled.id()
        + "&aggregation=temporal&slices=30&view=stacked&height=400&progressive=1");
    assertEquals(200, r.statusCode(), r.body());
    Map<?, ?> answer = (Map<?, ?>) PlainJson.parse(r.body());
    assertNull(answer.get("provisional"));
    assertTrue(((List<?>) answer.get("breakpoints")).size() > 1);
  }
}
