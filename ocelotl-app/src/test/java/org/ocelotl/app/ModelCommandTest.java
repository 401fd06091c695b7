package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelCsv;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.testing.SharedTraces;
import org.ocelotl.workspace.ImportOptions;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/** {@code ocelotl model} as a user runs it: the files it writes, its summary, its refusals. */
class ModelCommandTest {
  @TempDir Path tmp;
  Path workspace;
  Path trace;

  @BeforeEach
  void setUp() throws IOException {
    workspace = tmp.resolve("ws");
    trace = Files.writeString(tmp.resolve("ok.trace"), CliTest.PAJE);
  }

  private CliTest.Result model(Object... args) {
    String[] all = new String[args.length + 4];
    all[0] = "model";
    all[1] = "--workspace";
    all[2] = workspace.toString();
    all[3] = trace.toString();
    for (int i = 0; i < args.length; i++) {
      all[i + 4] = args[i].toString();
    }
    return CliTest.run(all);
  }

  @Test
  void writesTheModelAndTreeFilesAndSaysWhatItBuilt() throws IOException {
    Path out = tmp.resolve("m.csv");
    Path tree = tmp.resolve("t.csv");
    CliTest.Result result = model("--metric", "state-duration", "--slices", 2, "--out", out, "--tree-out", tree);
    assertEquals(0, result.status(), result.err());
    // p1: run [1,2), wait [2,4), run [4,4]; slices [0,2) and [2,4).
    assertEquals("producer,slice,type,value\np1,0,run,1.0\np1,0,wait,0.0\np1,1,run,0.0\np1,1,wait,2.0\n",
        Files.readString(out));
    assertEquals("producer,parent\n0,\np1,0\n", Files.readString(tree));
    assertEquals("ok.trace: state-duration (exclusive time) model, 1 producers × 2 slices × 2 types, window [0.0, 4.0) s, values in s, exact\n",
        result.err());
  }

  /** Off a terminal (as here), stderr has the summary only, unless --progress asks for plain lines. */
  @Test
  void progressIsReportedOffATerminalOnlyWhenAsked() {
    trace = SharedTraces.file("paje/simgrid/smpi_small_grouped.trace");
    CliTest.Result quiet = model("--slices", 50, "--out", tmp.resolve("quiet.csv"));
    assertEquals(0, quiet.status(), quiet.err());
    assertEquals(1, quiet.err().lines().count(), quiet.err());

    workspace = tmp.resolve("another");
    CliTest.Result told = model("--slices", 40, "--out", tmp.resolve("told.csv"), "--progress");
    assertEquals(0, told.status(), told.err());
    List<String> lines = told.err().lines().toList();
    assertTrue(lines.get(0).matches("importing \\[[#.]{30}\\] +[0-9.]+/[0-9.]+ MB .*"), told.err());
    assertTrue(lines.contains("building the model"), told.err());
    assertEquals(quiet.err().replace("50 slices", "40 slices"), lines.get(lines.size() - 1) + "\n");
  }

  @Test
  void writesToStandardOutputWithADash() {
    CliTest.Result result = model("--metric", "state-average", "--slices", 2, "--from", 1.5, "--to", 3, "--out", "-");
    assertEquals(0, result.status(), result.err());
    // run [1, 2) and wait [2, 4) over the slices [1.5, 2.25) and [2.25, 3)
    assertEquals("producer,slice,type,value\np1,0,run,0.5\np1,0,wait,0.25\np1,1,run,0.0\np1,1,wait,0.75\n", result.out());
  }

  @Test
  void theFilesReadBackAsTheBuiltModelOnARealTrace() throws IOException {
    trace = SharedTraces.file("paje/simgrid/smpi_small_grouped.trace");
    Path out = tmp.resolve("m.csv");
    Path tree = tmp.resolve("t.csv");
    CliTest.Result result = model("--metric", "state-duration", "--slices", 30, "--from", 0.1, "--to", 0.5,
        "--exclude", "rank-3", "--types", "computing,PMPI_Waitall,PMPI_Isend", "--out", out, "--tree-out", tree);
    assertEquals(0, result.status(), result.err());
    MicroscopicModel read = ModelCsv.read(out, tree, 30);
    var store = Workspace.open(workspace).store(trace, ImportOptions.DEFAULT, ImportProgress.NONE);
    MicroscopicModel built = ModelBuilder.build(store, new ModelRequest(Metric.STATE_DURATION, 0.1, 0.5, 30,
        new ProducerSelection(List.of(), List.of("rank-3"), 0), List.of("computing", "PMPI_Waitall", "PMPI_Isend"), false)).model();
    assertEquals(built.types(), read.types());
    assertEquals(built.leaves(), read.leaves());
    assertEquals(built.tree().size(), read.tree().size());
    for (int leaf = 0; leaf < built.leaves(); leaf++) {
      for (int b = built.tree().leafNode(leaf), r = read.tree().leafNode(leaf); b >= 0; b = built.tree().parent(b),
          r = read.tree().parent(r)) {
        assertEquals(built.tree().name(b), read.tree().name(r), "leaf " + leaf + " and its ancestors");
      }
    }
    assertArrayEquals(built.values(), read.values());
    assertFalse(read.tree().find("rank-3") >= 0);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "--metric state-duration --slices 1|--slices: expected 2 to 10000, found 1",
      "--metric state-duration --slices 10001|--slices: expected 2 to 10000, found 10001",
      "--metric durations --slices 5|--metric: expected one of state-duration, state-average, event-count, variable-mean, utilization, link-count, link-volume, found 'durations'",
      "--metric state-duration --slices 5 --from 3 --to 2|the window [3, 2) s is empty: it needs from < to",
      "--metric state-duration --slices 5 --from 10 --to 20|the window [10, 20) s lies outside the trace, which spans [0, 4] s",
      "--metric state-duration --slices 5 --producers p9|unknown producer 'p9'",
      "--metric state-duration --slices 5 --types sleep|unknown state type 'sleep'; the trace's state types with records are: State (run, wait)",
      "--metric variable-mean --slices 5|the trace ok.trace has no variables: the variable-mean metric needs them",
      "--metric link-count --slices 5|the trace ok.trace has no links: the link-count metric needs them"})
  void badParametersGetOneLineAndExitStatusOne(String args, String message) {
    Path out = tmp.resolve("bad.csv");
    List<String> all = new java.util.ArrayList<>(List.of(args.split(" ")));
    all.add("--out");
    all.add(out.toString());
    CliTest.Result result = model(all.toArray());
    assertEquals(1, result.status(), result.err());
    assertEquals("ocelotl: " + message + "\n", result.err());
    assertFalse(Files.exists(out), "no output file");
  }

  @Test
  void aMissingRequiredOptionIsAUsageError() {
    CliTest.Result result = model("--metric", "event-count", "--out", "-");
    assertEquals(2, result.status());
    assertTrue(result.err().startsWith("Missing required option: '--slices=N'"), result.err());
  }
}
