package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Part;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.OutliersRequest;
import org.ocelotl.analysis.OutliersResult;
import org.ocelotl.analysis.PlainJson;
import org.ocelotl.analysis.Progress;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.model.Metric;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * Issue 29 on the bundled run (lyon-c1-2 at 20 % of its speed during [3, 5) s, nancy's uplink at
 * 0.2 % of its bandwidth during [8, 9) s), the overview's own request (spatiotemporal, 100 slices,
 * every level): "lyon-c1-2 over [3, 5) s and the nancy ranks over [8, 9) s come first whenever
 * the shown p merges them" (decision 061). A perturbed producer is <em>merged</em> at p when, over
 * at least half of the slices meeting its window, its leaves share a part with leaves outside it;
 * then the list, as shown, puts it first: the nancy ranks as its first entry (found by the uplink's
 * use), lyon-c1-2 as its first producer cell of the states. Where it is not merged the partition
 * shows it by parts of its own.
 */
class OutliersFirstTest {
  @TempDir static Path tmp;
  private static TraceStore store;

  /** p from fine to one part: the default p (NaN) among them. */
  private static final double[] PS = {0.01, 0.02, 0.03, Double.NaN, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 1};

  @BeforeAll
  static void open() throws Exception {
    store = Workspace.open(tmp.resolve("ws")).store(OverviewCommandTest.BUNDLED, new ImportOptions(null, false, null),
        ImportProgress.NONE);
  }

  private static OutliersResult outliers(double p) throws Exception {
    ModelRequest model = new ModelRequest(Metric.STATE_DURATION, Double.NaN, Double.NaN,
        Integer.parseInt(RequestSpec.SLICES.fallback()), new ProducerSelection(List.of(), List.of(), 0), List.of(), true);
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromTrace(store, model), Aggregation.SPATIOTEMPORAL,
        ViewKind.SPATIOTEMPORAL_MODE, p, AnalysisRequest.DEFAULT_HEIGHT);
    return AnalysisService.standard().outliers(new OutliersRequest(analysis, OutliersRequest.DEFAULT_LIMIT),
        Progress.NONE);
  }

  /** Whether the producer (by name)'s leaves share a part with others over at least half the slices meeting [t0, t1). */
  private static boolean merged(OutliersResult r, String producer, double t0, double t1) {
    ProducerTree tree = r.shown().built().model().tree();
    SliceGrid grid = r.shown().built().grid();
    int node = tree.find(producer); // by name: unique in this trace
    int from = tree.firstLeaf(node);
    int to = from + tree.leafCount(node);
    int meeting = 0;
    int shared = 0;
    for (int k = 0; k < grid.slices(); k++) {
      if (grid.boundary(k) < t1 && grid.boundary(k + 1) > t0) {
        meeting++;
        int slice = k;
        boolean with = r.shown().partition().parts().stream().anyMatch((Part part) -> part.first() <= slice
            && part.last() >= slice && tree.firstLeaf(part.node()) < to
            && tree.firstLeaf(part.node()) + tree.leafCount(part.node()) > from && tree.leafCount(part.node()) > to - from);
        shared += with ? 1 : 0;
      }
    }
    return 2 * shared >= meeting;
  }

  private static double number(Map<String, Object> map, String key) {
    return ((Number) map.get(key)).doubleValue();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> listed(OutliersResult r) {
    return (List<Map<String, Object>>) ((Map<String, Object>) PlainJson.parse(
        new String(r.json(), java.nio.charset.StandardCharsets.UTF_8))).get("outliers");
  }

  @Test
  void whereThePartitionMergesThemTheSlowedHostAndTheSlowedUplinksSiteComeFirst() throws Exception {
    Map<String, String> seen = new TreeMap<>();
    for (double p : PS) {
      OutliersResult r = outliers(p);
      List<Map<String, Object>> listed = listed(r);
      double slice = r.shown().built().grid().width();
      String at = "p " + r.shown().p() + ": " + listed.subList(0, 3);
      List<String> merged = new ArrayList<>();
      if (merged(r, "nancy", 8, 9)) {
        merged.add("nancy");
        Map<String, Object> first = listed.get(0);
        assertEquals(List.of("nancy", "nancy-uplink"), List.of(first.get("producer"), first.get("link")), at);
        assertTrue(number(first, "start") >= 8 && number(first, "end") <= 9, at);
      }
      if (merged(r, "lyon-c1-2", 3, 5)) {
        merged.add("lyon-c1-2");
        Map<String, Object> host = listed.stream().filter(o -> "who".equals(o.get("kind")) && !o.containsKey("link"))
            .findFirst().orElseThrow();
        assertEquals("lyon/lyon-c1/lyon-c1-2", host.get("producer"), at);
        assertTrue(number(host, "start") >= 3 - slice && number(host, "end") <= 5 + slice, at);
        // Second: after the nancy ranks where the links name them, else first.
        assertEquals(listed.get(0).containsKey("link") ? 1 : 0, listed.indexOf(host), at);
      }
      if (Double.isNaN(p) || p == 0.1 || p == 0.3) {
        // The brief's three p, pinned as found: the nancy ranks over [8.27, 8.54) s by the uplink,
        // then lyon-c1-2 (at the default p it is its own part over most of its window, and its
        // first cell merged is the onset, [3.12, 3.25) s; at 0.1 and 0.3 [2.98, 5.02) s).
        List<Object> head = new ArrayList<>();
        for (Map<String, Object> o : listed.subList(0, 2)) {
          head.addAll(List.of(o.get("producer"), (int) number(o, "firstSlice"), (int) number(o, "lastSlice")));
        }
        assertEquals(List.of("nancy", 61, 62, "lyon/lyon-c1/lyon-c1-2", Double.isNaN(p) ? 23 : 22,
            Double.isNaN(p) ? 23 : 36), head, at);
      }
      seen.put(String.format(java.util.Locale.ROOT, "%.4f", r.shown().p()), String.join(" ", merged));
    }
    // Which p merge them, as found: every p from the default up merges the nancy ranks; lyon-c1-2
    // has parts of its own over most of its window up to p = 0.07.
    assertEquals(Map.ofEntries(Map.entry("0.0100", ""), Map.entry("0.0200", ""), Map.entry("0.0300", ""),
        Map.entry("0.0431", ""), Map.entry("0.0500", ""), Map.entry("0.0700", ""),
        Map.entry("0.1000", "nancy lyon-c1-2"), Map.entry("0.1500", "nancy lyon-c1-2"),
        Map.entry("0.2000", "nancy lyon-c1-2"), Map.entry("0.3000", "nancy lyon-c1-2"),
        Map.entry("0.5000", "nancy lyon-c1-2"), Map.entry("1.0000", "nancy lyon-c1-2")), seen);
  }
}
