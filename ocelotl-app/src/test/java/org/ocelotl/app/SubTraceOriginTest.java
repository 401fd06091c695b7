package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ocelotl.analysis.PlainJson;

/**
 * A part of a trace, exported and imported again, reads as the original did over its window
 * (issue 33 item 13, decision 053): [3, 5) s of the bundled run, written by {@code ocelotl
 * export} and opened as a trace of its own, shows 3 s to 5 s on the overview's and the
 * statistics' axes, not 0 to 2 s; {@code --from 3.5s} names the same instant in both; and a
 * part of the part still counts from the original's start.
 */
class SubTraceOriginTest {
  static final Path BUNDLED = Path.of("../examples/smpi_perturbed.trace.gz");

  @TempDir Path tmp;

  /** The window [from, to) of {@code trace} exported in {@code format} as the file {@code name}. */
  private Path part(Path trace, String format, String from, String to, String name) {
    Path out = tmp.resolve(name);
    CliTest.Result exported = CliTest.run("export", trace.toString(), "--workspace", workspace(), "--format", format,
        "--from", from, "--to", to, "--out", out.toString());
    assertEquals(0, exported.status(), exported.err());
    return out;
  }

  private String workspace() {
    return tmp.resolve("ws").toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"paje", "chrome"})
  void aPartReadsAsTheOriginalOverItsWindow(String format) throws Exception {
    Path part = part(BUNDLED, format, "3", "5", format.equals("paje") ? "part.trace" : "part.json");
    // The part's whole span against the original's window; then a window given with units in both.
    assertEquals(shown(overview(BUNDLED, "--from", "3", "--to", "5")), shown(overview(part)));
    assertEquals(List.of(3.0, 5.0, "s"), shown(overview(part)));
    assertEquals(List.of(3.5, 4.5, "s"), shown(overview(part, "--from", "3.5s", "--to", "4.5s")));
    assertEquals(shown(stats(BUNDLED, "--from", "3", "--to", "5")), shown(stats(part)));
    assertEquals(List.of(3.0, 5.0, "s"), shown(stats(part)));
  }

  /** The Pajé part's times are the original's: the same instants, not only the same labels. */
  @Test
  void aPajePartKeepsTheOriginalsTimesAndItsPartsToo() throws Exception {
    Path part = part(BUNDLED, "paje", "3", "5", "part.trace");
    Map<String, Object> original = overview(BUNDLED, "--from", "3.5s", "--to", "4.5s");
    Map<String, Object> again = overview(part, "--from", "3.5s", "--to", "4.5s");
    assertEquals(List.of(original.get("start"), original.get("end"), original.get("timeScale")),
        List.of(again.get("start"), again.get("end"), again.get("timeScale")));
    assertTrue(Files.readString(part).contains("\n# ocelotl origin 0\n"));
    Path gzipped = tmp.resolve("part.trace.gz"); // the origin is read from the inflated text too
    try (java.io.OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gzipped))) {
      Files.copy(part, out);
    }
    assertEquals(List.of(3.0, 5.0, "s"), shown(overview(gzipped)));
    Path partOfPart = part(part, "paje", "4s", "4.5s", "part2.trace");
    assertEquals(List.of(4000.0, 4500.0, "ms"), shown(overview(partOfPart)));
    CliTest.Result info = CliTest.run("info", part.toString(), "--workspace", workspace());
    assertTrue(info.out().contains("\norigin     0.0 s: a part of a trace that started then"), info.out());
  }

  /** A part exported again as a Parquet dataset carries the origin in its metadata.json. */
  @Test
  void aPartsParquetDatasetKeepsTheOrigin() throws Exception {
    Path part = part(BUNDLED, "paje", "3", "5", "part.trace");
    Path dataset = tmp.resolve("part.parquet");
    CliTest.Result exported = CliTest.run("export", part.toString(), "--workspace", workspace(), "--format", "parquet",
        "--out", dataset.toString());
    assertEquals(0, exported.status(), exported.err());
    assertEquals(List.of(3.0, 5.0, "s"), shown(overview(dataset)));
  }

  /** A comment that says an origin but no time is refused, one line naming the file and the line. */
  @Test
  void anOriginThatIsNoTimeIsRefused() throws Exception {
    Path bad = tmp.resolve("bad.trace");
    Files.writeString(bad, "# a part\n# ocelotl origin soon\n" + Files.readString(part(BUNDLED, "paje", "3", "3.01",
        "small.trace")));
    CliTest.Result info = CliTest.run("info", bad.toString(), "--workspace", workspace());
    assertEquals(1, info.status());
    assertTrue(info.err().contains("bad.trace:2: expected a finite time after 'ocelotl origin', found 'soon'"),
        info.err());
  }

  /** The window an answer shows, as its axis reads it: from, to (since the origin), the unit. */
  @SuppressWarnings("unchecked")
  private static List<Object> shown(Map<String, Object> answer) {
    Map<String, Object> scale = (Map<String, Object>) answer.get("timeScale");
    double origin = ((Number) scale.get("origin")).doubleValue();
    double factor = ((Number) scale.get("factor")).doubleValue();
    Object from = answer.containsKey("start") ? answer.get("start") : answer.get("from");
    Object to = answer.containsKey("end") ? answer.get("end") : answer.get("to");
    List<Object> shown = new ArrayList<>();
    // Rounded to 1e-9 of the unit: a Chrome part's µs times, scaled back, carry the products' rounding.
    shown.add(Math.rint((((Number) from).doubleValue() - origin) * factor * 1e9) / 1e9);
    shown.add(Math.rint((((Number) to).doubleValue() - origin) * factor * 1e9) / 1e9);
    shown.add(scale.get("unit"));
    return shown;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> overview(Path trace, String... window) throws Exception {
    Path json = Files.createTempFile(tmp, "overview", ".json");
    List<String> args = new ArrayList<>(List.of("overview", trace.toString(), "--workspace", workspace(),
        "--slices", "20", "--out", tmp.resolve("overview.svg").toString(), "--json", json.toString()));
    args.addAll(List.of(window));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    return (Map<String, Object>) PlainJson.parse(Files.readString(json));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> stats(Path trace, String... window) {
    List<String> args = new ArrayList<>(List.of("stats", trace.toString(), "--workspace", workspace(), "--json"));
    args.addAll(List.of(window));
    CliTest.Result result = CliTest.run(args.toArray(String[]::new));
    assertEquals(0, result.status(), result.err());
    return (Map<String, Object>) PlainJson.parse(result.out());
  }
}
