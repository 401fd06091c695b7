package org.ocelotl.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.ocelotl.analysis.JsonForm;

/**
 * {@code answer=view} (decision 068): the overview's answer without {@code parts},
 * {@code breakpoints} and {@code curves}, every other field the full answer's, exactly, at every p
 * asked — breakpoints, points between them, the default p — for the full and the first
 * ({@code progressive=1}) answers. On the bundled trace at N = 30.
 */
class ViewAnswerTest {
  static final Set<String> LEFT_OUT = Set.of("parts", "breakpoints", "curves");

  @RegisterExtension static final BundledServer bundled = new BundledServer();

  static HttpResponse<String> get(String query) throws Exception {
    return bundled.get("overview?trace=" + bundled.id() + "&slices=30&view=mode&height=400" + query);
  }

  static ObjectNode overview(String query) throws Exception {
    HttpResponse<String> r = get(query);
    assertEquals(200, r.statusCode(), r.body());
    return (ObjectNode) JsonForm.parse(r.body());
  }

  /** The full answer less the fields left out, in its order, equals the view answer, field for field. */
  static void assertViewOf(ObjectNode full, ObjectNode view, String where) {
    List<String> kept = new ArrayList<>();
    full.fieldNames().forEachRemaining(name -> {
      if (!LEFT_OUT.contains(name)) {
        kept.add(name);
      }
    });
    List<String> names = new ArrayList<>();
    view.fieldNames().forEachRemaining(names::add);
    assertEquals(kept, names, where + ": the full answer's fields but the three, in its order");
    for (String name : kept) {
      assertEquals(full.get(name), view.get(name), where + ": " + name);
    }
  }

  @Test
  void theViewAnswerIsTheFullAnswerLessPartsBreakpointsAndCurves() throws Exception {
    for (String aggregation : List.of("spatiotemporal", "temporal")) {
      String model = "&aggregation=" + aggregation;
      ObjectNode first = overview(model);
      JsonNode breakpoints = first.get("breakpoints");
      assertTrue(breakpoints.size() > 10, aggregation + ": " + breakpoints.size() + " breakpoints");
      List<String> ps = new ArrayList<>(List.of("")); // the default p
      for (int k = 0; k < breakpoints.size(); k += Math.max(1, breakpoints.size() / 6)) {
        double p = breakpoints.get(k).get("p").asDouble();
        ps.add("&p=" + p);
        double next = k + 1 < breakpoints.size() ? breakpoints.get(k + 1).get("p").asDouble() : 1;
        ps.add("&p=" + (p + next) / 2); // between two breakpoints: the lower one's partition
      }
      for (String p : ps) {
        // The view answer first: its partition is built by its own request, not by the full one's.
        ObjectNode view = overview(model + p + "&answer=view&progressive=1");
        ObjectNode full = overview(model + p);
        assertViewOf(full, view, aggregation + p);
        assertTrue(full.get("parts").size() == full.get("partCount").asInt() && view.get("overview").get("blocks")
            .size() > 0, aggregation + p);
      }
    }
  }

  /** A first answer before the breakpoints are searched, asked so, is the first full answer less the same fields. */
  @Test
  void theFirstAnswerToo() throws Exception {
    String window = "&aggregation=spatiotemporal&start=3&end=10";
    ObjectNode view = overview(window + "&p=0.05&progressive=1&answer=view");
    assertEquals(true, view.get("provisional").asBoolean(), "a window not searched yet");
    // The same request, full: still a first answer (a first answer starts no search).
    ObjectNode full = overview("&aggregation=spatiotemporal&start=3&end=10&progressive=1&p=0.05&answer=full");
    assertEquals(true, full.get("provisional").asBoolean(), "still not searched: first answers compute no breakpoints");
    assertViewOf(full, view, "provisional");
  }

  @Test
  void aWordItDoesNotTakeIsRefused() throws Exception {
    for (String bad : List.of("light", "", "parts")) {
      HttpResponse<String> r = get("&aggregation=spatiotemporal&answer=" + bad);
      if (bad.isEmpty()) {
        assertEquals(200, r.statusCode(), "empty: the default, full");
        assertTrue(r.body().contains("\"curves\":{"), "the full answer");
        continue;
      }
      assertEquals(400, r.statusCode(), r.body());
      assertEquals("{\"status\":400,\"error\":\"parameter 'answer': expected one of full, view, found '" + bad + "'\"}", r.body());
    }
    HttpResponse<String> outliers = bundled.get("outliers?trace=" + bundled.id() + "&answer=view");
    assertEquals(400, outliers.statusCode(), "the overview's own: " + outliers.body());
    assertTrue(outliers.body().contains("unknown parameter 'answer'"), outliers.body());
  }
}
