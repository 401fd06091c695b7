package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ocelotl.analysis.PlainJson;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AggregateCommandTest {
  @TempDir Path dir;

  /** SPEC.md §5 reference example as a model file. */
  private Path reference() throws IOException {
    double[][] slices = {{3, 6, 7}, {5, 3, 5}, {6, 2, 9}, {1, 2, 7}, {0, 9, 3}};
    StringBuilder text = new StringBuilder("producer,slice,type,value\n");
    for (int t = 0; t < 5; t++) {
      for (int u = 0; u < 3; u++) {
        if (slices[t][u] != 0) {
          text.append("p,").append(t).append(",").append("abc".charAt(u)).append(',').append(slices[t][u]).append('\n');
        }
      }
    }
    return Files.writeString(dir.resolve("model.csv"), text);
  }

  private record Run(int status, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.commandLine(args).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
        .setExecutionExceptionHandler(Main::failure).execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void listsTheBreakpointsAsJson() throws IOException {
    Run run = run("aggregate", "--model", reference().toString(), "--mode", "temporal", "--json");
    assertEquals(0, run.status(), run.err());
    Map<String, Object> json = object(run.out());
    assertEquals("temporal", json.get("aggregation"));
    List<Map<String, Object>> breakpoints = list(json.get("breakpoints"));
    assertEquals(5, breakpoints.size(), run.out());
    assertEquals(Map.of("p", 0.0, "partCount", 5L, "gain", 0.0, "loss", 0.0, "gainFraction", 0.0, "lossFraction", 0.0),
        breakpoints.get(0));
    assertEquals(1L, breakpoints.get(4).get("partCount"));
    assertEquals(json.get("defaultP"), json.get("p"));
    Map<String, Object> fine = object(run("aggregate", "--model", reference().toString(), "--mode", "temporal",
        "--p", "0", "--json").out());
    assertEquals(List.of(List.of(0L, 0L), List.of(1L, 1L), List.of(2L, 2L), List.of(3L, 3L), List.of(4L, 4L)),
        slices(fine), "one part per slice at p = 0");
    Map<String, Object> coarse = object(run("aggregate", "--model", reference().toString(), "--mode", "temporal",
        "--p", "1", "--json").out());
    assertEquals(List.of(List.of(0L, 4L)), slices(coarse), "one part at p = 1");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String json) {
    return (Map<String, Object>) PlainJson.parse(json);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object json) {
    return (List<Map<String, Object>>) json;
  }

  /** [firstSlice, lastSlice] of each part. */
  private static List<List<Long>> slices(Map<String, Object> json) {
    return list(json.get("parts")).stream()
        .map(part -> List.of((Long) part.get("firstSlice"), (Long) part.get("lastSlice"))).toList();
  }

  /** A summary by default (p, gain, loss, parts: a line whatever the model's size), the parts on request. */
  @Test
  void printsASummaryWithTheDefaultPAndThePartitionsOnRequest() throws IOException {
    Run summary = run("aggregate", "--model", reference().toString(), "--mode", "temporal");
    assertEquals(0, summary.status(), summary.err());
    String[] rows = summary.out().split("\n");
    assertEquals(7, rows.length, summary.out());
    assertEquals("p                      gain                   loss                    parts", rows[0]);
    for (int i = 1; i <= 5; i++) {
      assertEquals(4, rows[i].trim().split(" +").length, rows[i]);
      assertTrue(rows[i].endsWith(" " + (6 - i)), rows[i]);
    }
    assertTrue(rows[6].startsWith("default p: "), rows[6]);
    Run run = run("aggregate", "--model", reference().toString(), "--mode", "temporal", "--partitions");
    assertEquals(0, run.status(), run.err());
    String[] lines = run.out().split("\n");
    assertEquals(7, lines.length, run.out());
    assertTrue(lines[2].endsWith("4  [0] [1-2] [3] [4]"), lines[2]);
    assertTrue(lines[5].endsWith("1  [0-4]"), lines[5]);
    assertTrue(lines[6].startsWith("default p: "), lines[6]);
  }

  @Test
  void givesThePartitionForOneP() throws IOException {
    Path tree = Files.writeString(dir.resolve("tree.csv"), "producer,parent\nall,\nm1,all\na,m1\nb,m1\nc,all\n");
    Path model = Files.writeString(dir.resolve("m.csv"),
        "producer,slice,type,value\na,0,x,1\na,1,x,1\nb,0,x,1\nb,1,x,1\nc,0,x,5\nc,1,y,5\n");
    // m1 over [0,1]: four cells of 1, gain = 4·log2 4 = 8, loss 0; c changes type between slices
    Run run = run("aggregate", "--model", model.toString(), "--tree", tree.toString(), "--mode", "spatiotemporal",
        "--p", "0", "--json");
    assertEquals(0, run.status(), run.err());
    Map<String, Object> json = object(run.out());
    assertEquals("spatiotemporal", json.get("aggregation"));
    assertEquals(0.0, json.get("p"));
    assertEquals(8.0, json.get("gain"));
    assertEquals(0.0, json.get("loss"));
    assertEquals(List.of("m1", "c", "c"), list(json.get("parts")).stream().map(part -> part.get("producer")).toList());
    assertEquals(List.of(List.of(0L, 1L), List.of(0L, 0L), List.of(1L, 1L)), slices(json));
    Run spatial = run("aggregate", "--model", model.toString(), "--tree", tree.toString(), "--mode", "SPATIAL", "--p", "0",
        "--partitions");
    assertEquals(0, spatial.status(), spatial.err());
    assertTrue(spatial.out().endsWith("2  m1[0-1] c[0-1]\n"), spatial.out());
  }

  /**
   * Slices [1, 4) of the reference, (5,3,5), (6,2,9), (1,2,7): the breakpoints of a model file of
   * those three slices alone, its parts named by the reference's slice numbers (one more).
   */
  @Test
  void aWindowIsTheModelOfItsSlicesAlone() throws IOException {
    Path alone = Files.writeString(dir.resolve("alone.csv"), "producer,slice,type,value\n"
        + "p,0,a,5\np,0,b,3\np,0,c,5\np,1,a,6\np,1,b,2\np,1,c,9\np,2,a,1\np,2,b,2\np,2,c,7\n");
    Run window = run("aggregate", "--model", reference().toString(), "--mode", "temporal", "--from", "1", "--to", "4",
        "--partitions");
    Run whole = run("aggregate", "--model", alone.toString(), "--mode", "temporal", "--partitions");
    assertEquals(0, window.status(), window.err());
    java.util.regex.Matcher part = java.util.regex.Pattern.compile("\\[(\\d+)(-(\\d+))?]").matcher(whole.out());
    assertEquals(part.replaceAll(m -> "[" + (Integer.parseInt(m.group(1)) + 1)
        + (m.group(3) == null ? "" : "-" + (Integer.parseInt(m.group(3)) + 1)) + "]"), window.out());
    assertTrue(window.out().contains("  [1] [2] [3]\n"), window.out());
    Map<String, Object> json = object(run("aggregate", "--model", reference().toString(), "--mode", "temporal",
        "--from", "1", "--to", "4", "--json").out());
    assertEquals(object(run("aggregate", "--model", alone.toString(), "--mode", "temporal", "--json").out())
        .get("breakpoints"), json.get("breakpoints"));
    assertEquals(List.of(1.0, 4.0, 3L), List.of(json.get("start"), json.get("end"), json.get("slices")));
  }

  @Test
  void badInputGivesOneLineAndStatusOne() throws IOException {
    Path model = reference();
    Run mode = run("aggregate", "--model", model.toString(), "--mode", "sideways");
    assertEquals(1, mode.status());
    assertEquals("ocelotl: --mode must be temporal, spatial or spatiotemporal, got \"sideways\"\n", mode.err());
    Run p = run("aggregate", "--model", model.toString(), "--mode", "temporal", "--p", "2");
    assertEquals(1, p.status());
    assertEquals("ocelotl: --p must be in [0, 1], got 2.0\n", p.err());
    Run missing = run("aggregate", "--model", dir.resolve("none.csv").toString(), "--mode", "temporal");
    assertEquals(1, missing.status());
    assertEquals("ocelotl: " + dir.resolve("none.csv") + ": no such file\n", missing.err());
    Path bad = Files.writeString(dir.resolve("bad.csv"), "producer,slice,type,value\np,x,a,1\n");
    Run format = run("aggregate", "--model", bad.toString(), "--mode", "temporal");
    assertEquals(1, format.status());
    assertEquals("ocelotl: " + bad + ":2: expected a slice number ≥ 0, found \"x\"\n", format.err());
    Path damaged = Files.write(dir.resolve("bad.ocm"), "OCELOTLM\2\0\0\0".getBytes(StandardCharsets.US_ASCII));
    Run binary = run("aggregate", "--model", damaged.toString(), "--mode", "temporal");
    assertEquals(1, binary.status());
    assertEquals("ocelotl: " + damaged + "@0: expected a binary model header of 32 bytes, found a file of"
        + " 12 bytes\n", binary.err());
    for (List<String> window : List.of(List.of("--from", "3", "--to", "3"), List.of("--from=-1"), List.of("--to", "6"),
        List.of("--from", "0.5"))) {
      List<String> args = new java.util.ArrayList<>(List.of("aggregate", "--model", model.toString(), "--mode", "temporal"));
      args.addAll(window);
      Run refused = run(args.toArray(String[]::new));
      assertEquals(1, refused.status(), window.toString());
      assertEquals("ocelotl: " + Map.of("--from 3 --to 3", "the window [3, 3) holds no slice: its start must "
          + "be below its end", "--from=-1", "the window [-1, 5) starts before slice 0", "--to 6", "the window [0, 6) "
          + "ends beyond the model: its end must be at most 5", "--from 0.5", "the window [0.5, 5) cuts a slice: a model "
          + "file's window is in whole slices").get(String.join(" ", window)) + "\n", refused.err());
    }
    Run slices = run("aggregate", "--model", model.toString(), "--mode", "temporal", "--slices", "3");
    assertEquals(1, slices.status());
    assertTrue(slices.err().startsWith("ocelotl: " + model + ":"), slices.err());
  }
}
