package org.ocelotl.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.view.ViewKind;

/**
 * The analysis service's JSON and CSV forms are contracts (docs/analysis.md): golden files pin
 * them byte for byte, so any change of a field, its order or its number format fails here and
 * must be made on purpose. To accept a change, run this test with {@code -Dgolden.update=true}
 * and review the diff of src/test/resources/org/ocelotl/analysis.
 *
 * <p>The model (a model file, so that no path or store id enters the answer):
 * <pre>
 *   all ── m1 ── a, b      a, b: x = 1 in every slice (m1 is homogeneous)
 *     └── c                c: x = 5 in slices 0, 1; y = 5 in slices 2, 3
 * </pre>
 */
class JsonFormGoldenTest {
  static final String TREE = "producer,parent\nall,\nm1,all\na,m1\nb,m1\nc,all\n";
  static final String MODEL = "producer,slice,type,value\n"
      + "a,0,x,1\na,1,x,1\na,2,x,1\na,3,x,1\nb,0,x,1\nb,1,x,1\nb,2,x,1\nb,3,x,1\n"
      + "c,0,x,5\nc,1,x,5\nc,2,y,5\nc,3,y,5\n";

  @TempDir static Path dir;

  static Stream<Arguments> requests() {
    return Stream.of(
        // 9 px for 3 leaves: rows of 3 px, under the visual threshold, so marks appear
        Arguments.of("spatiotemporal-mode", Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, Double.NaN, 9),
        Arguments.of("spatiotemporal-partition", Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_PARTITION, 0.0, 600),
        Arguments.of("temporal-stacked", Aggregation.TEMPORAL, ViewKind.TEMPORAL_STACKED, Double.NaN, 600),
        Arguments.of("spatial", Aggregation.SPATIAL, null, 1.0, 600));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void theJsonFormIsTheGoldenOne(String name, Aggregation aggregation, ViewKind view, double p, int height)
      throws IOException {
    AnalysisResult result = answer(aggregation, view, p, height);
    assertGolden(name + ".json", new String(result.json(), StandardCharsets.UTF_8) + "\n");
    assertGolden(name + ".csv", new String(result.breakpointCsv(), StandardCharsets.UTF_8));
    assertGolden(name + "-parts.csv", new String(result.partsCsv(), StandardCharsets.UTF_8));
  }

  @Test
  void theJsonFormParsesBackToWhatTheResultHolds() throws IOException {
    AnalysisResult result = answer(Aggregation.SPATIOTEMPORAL, ViewKind.SPATIOTEMPORAL_MODE, 0.0, 9);
    java.util.Map<?, ?> json = (java.util.Map<?, ?>) PlainJson.parse(new String(result.json(), StandardCharsets.UTF_8));
    assertEquals((long) result.partition().size(), json.get("partCount"));
    assertEquals(result.partition().size(), ((java.util.List<?>) json.get("parts")).size());
    assertEquals((long) result.analysis().breakpoints().size(), (long) ((java.util.List<?>) json.get("breakpoints")).size());
    String text = new String(result.json(), StandardCharsets.UTF_8);
    assertTrue(text.contains("\"mark\":\"DIAGONAL\"") || text.contains("\"mark\":\"CROSS\""), text);
  }

  private static AnalysisResult answer(Aggregation aggregation, ViewKind view, double p, int height) throws IOException {
    Path model = dir.resolve("m.csv");
    Path tree = dir.resolve("t.csv");
    Files.writeString(model, MODEL);
    Files.writeString(tree, TREE);
    return AnalysisService.standard().answer(
        new AnalysisRequest(new ModelInput.FromFiles(model, tree, 0), aggregation, view, p, height), Progress.NONE);
  }

  static void assertGolden(String name, String actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Path source = Path.of(System.getProperty("user.dir"), "src/test/resources/org/ocelotl/analysis", name);
      Files.writeString(source, actual);
      return;
    }
    try (InputStream in = JsonFormGoldenTest.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new AssertionError("no golden file " + name + "; create it with -Dgolden.update=true");
      }
      assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, name);
    }
  }
}
