package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.analysis.PlainJson;

/**
 * Saved selections on the command line (docs/selections.md): a selection round-trips through a
 * re-import of the unchanged trace and an export/import into another workspace with the same
 * overview, byte for byte; derived producer sets equal a computation over pj_dump's rows; bad
 * input is one line.
 */
class SelectionCommandTest {
  static final Path TRACE = ExportCommandTest.SMALL;
  static final Path REFERENCE = TRACE.resolveSibling("smpi_small_flat.pjdump.csv");

  @TempDir Path tmp;

  private CliTest.Result run(Path workspace, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--workspace", workspace.toString()));
    return CliTest.run(all.toArray(String[]::new));
  }

  private String ok(Path workspace, String... args) {
    CliTest.Result r = run(workspace, args);
    assertEquals(0, r.status(), String.join(" ", args) + ": " + r.err());
    return r.out();
  }

  /** The overview's JSON for a selection (or the options that spell it). */
  private String overview(Path workspace, String... selection) throws IOException {
    Path json = tmp.resolve("o-" + System.nanoTime() + ".json");
    List<String> args = new ArrayList<>(List.of("overview", TRACE.toString(), "--slices", "20", "--out",
        tmp.resolve("o.svg").toString(), "--json", json.toString()));
    args.addAll(List.of(selection));
    ok(workspace, args.toArray(String[]::new));
    return Files.readString(json);
  }

  @Test
  void aSelectionRoundTripsWithTheSameOverview() throws IOException {
    Path ws = tmp.resolve("ws");
    assertEquals("saved ranks: [0.2, 0.4) · producers: rank-1,rank-2,rank-3 · types: PMPI_Waitall,computing · "
        + "three ranks\n", ok(ws, "selection", "save", "ranks", TRACE.toString(), "--from", "0.2", "--to", "0.4",
        "--producers", "rank-1,rank-2,rank-3", "--types", "PMPI_Waitall,computing", "--note", "three ranks"));
    String given = overview(ws, "--from", "0.2", "--to", "0.4", "--producers", "rank-1,rank-2,rank-3", "--types",
        "PMPI_Waitall,computing");
    String saved = overview(ws, "--selection", "ranks");
    assertEquals(given, saved);
    assertTrue(saved.contains("\"start\":0.2,\"end\":0.4"), saved.substring(0, 400));
    assertTrue(ok(ws, "selection", "list", TRACE.toString()).startsWith("ranks "));

    // A re-import of the unchanged trace replaces the store directory; the selections stay.
    ok(ws, "import", TRACE.toString());
    assertEquals(saved, overview(ws, "--selection", "ranks"));

    // Exported, imported into another workspace: the same selection, the same overview.
    Path file = tmp.resolve("selections.json");
    assertEquals("1 selections → " + file + "\n", ok(ws, "selection", "export", TRACE.toString(), "--out", file.toString()));
    Path other = tmp.resolve("other");
    assertEquals("imported 1 selections: ranks\n", ok(other, "selection", "import", TRACE.toString(), file.toString()));
    assertEquals(ok(ws, "selection", "show", "ranks", TRACE.toString(), "--json"),
        ok(other, "selection", "show", "ranks", TRACE.toString(), "--json"));
    assertEquals(saved, overview(other, "--selection", "ranks"));

    // The other commands read it too.
    assertEquals(ok(ws, "events", TRACE.toString(), "--from", "0.2", "--to", "0.4", "--producers",
        "rank-1,rank-2,rank-3", "--types", "PMPI_Waitall,computing", "--json"),
        ok(other, "events", TRACE.toString(), "--selection", "ranks", "--json"));

    ok(other, "selection", "rename", "ranks", "three", TRACE.toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: no selection 'ranks' for smpi_small_flat.trace; it has three\n"),
        run(other, "events", TRACE.toString(), "--selection", "ranks"));
    ok(other, "selection", "delete", "three", TRACE.toString());
    assertEquals("no selections for smpi_small_flat.trace\n", ok(other, "selection", "list", TRACE.toString()));
  }

  @Test
  void theFileIsTheDocumentedJson() throws IOException {
    Path ws = tmp.resolve("ws");
    ok(ws, "selection", "save", "w", TRACE.toString(), "--from", "0.1", "--to", "0.3", "--share-of", "PMPI_Waitall",
        "--above", "0.3", "--note", "slow waits");
    Path file;
    try (Stream<Path> files = Files.list(ws.resolve("selections"))) {
      file = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    assertTrue(file.getFileName().toString().startsWith("smpi_small_flat.trace-"), file.toString());
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) PlainJson.parse(Files.readString(file));
    assertEquals(List.of("format", "version", "trace", "selections"), new ArrayList<>(json.keySet()));
    assertEquals("ocelotl-selections", json.get("format"));
    assertEquals(1L, json.get("version"));
    @SuppressWarnings("unchecked")
    Map<String, Object> s = ((List<Map<String, Object>>) json.get("selections")).get(0);
    assertEquals(List.of("name", "from", "to", "producers", "types", "note", "rule"), new ArrayList<>(s.keySet()));
    assertEquals(Map.of("kind", "share", "types", List.of("PMPI_Waitall"), "above", 0.3, "within", List.of()),
        s.get("rule"));
    assertEquals(List.of("w"), List.of(s.get("name")));
  }

  @Test
  void derivedProducersEqualAComputationOverPjDumpsRows() throws IOException {
    Path ws = tmp.resolve("ws");
    assertEquals(activeInReference(0.3, 0.31, "PMPI_Allreduce"), savedProducers(ws, "allreduce", "--from", "0.3",
        "--to", "0.31", "--active-types", "PMPI_Allreduce"));
    assertEquals(activeInReference(0.31, 0.315, "computing"), savedProducers(ws, "computing", "--from", "0.31",
        "--to", "0.315", "--active-types", "computing"));
    assertEquals(shareInReference(0.1, 0.3, "PMPI_Waitall", 0.3), savedProducers(ws, "waits", "--from", "0.1", "--to",
        "0.3", "--share-of", "PMPI_Waitall", "--above", "0.3"));
    // Among given producers only.
    TreeSet<String> among = new TreeSet<>(activeInReference(0.3, 0.31, "PMPI_Allreduce"));
    among.retainAll(List.of("rank-0", "rank-1", "rank-2", "rank-3"));
    assertEquals(among, savedProducers(ws, "among", "--from", "0.3", "--to", "0.31", "--active-types",
        "PMPI_Allreduce", "--producers", "rank-0,rank-1,rank-2,rank-3"));
    assertEquals(new CliTest.Result(1, "", "ocelotl: selection 'none': no producer matches: producers with records of "
        + "PMPI_Waitall in [0.3, 0.31)\n"), run(ws, "selection", "save", "none", TRACE.toString(), "--from", "0.3",
        "--to", "0.31", "--active-types", "PMPI_Waitall"));
  }

  private TreeSet<String> savedProducers(Path ws, String name, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("selection", "save", name, TRACE.toString()));
    args.addAll(Arrays.asList(options));
    ok(ws, args.toArray(String[]::new));
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) PlainJson.parse(ok(ws, "selection", "show", name, TRACE.toString(),
        "--json"));
    @SuppressWarnings("unchecked")
    List<String> producers = (List<String>) s.get("producers");
    return new TreeSet<>(producers);
  }

  private static List<String[]> referenceStates() throws IOException {
    List<String[]> states = new ArrayList<>();
    for (String line : Files.readAllLines(REFERENCE, StandardCharsets.UTF_8)) {
      String[] f = line.split(", ");
      if (f[0].equals("State")) {
        states.add(f);
      }
    }
    return states;
  }

  /** The ranks with a state of {@code type} overlapping [from, to), from pj_dump's rows. */
  private static TreeSet<String> activeInReference(double from, double to, String type) throws IOException {
    TreeSet<String> ranks = new TreeSet<>();
    for (String[] f : referenceStates()) {
      if (f[7].equals(type) && Double.parseDouble(f[3]) < to && Double.parseDouble(f[4]) > from) {
        ranks.add(f[1]);
      }
    }
    assertTrue(!ranks.isEmpty() && ranks.size() < 16, "a real choice: " + ranks);
    return ranks;
  }

  /** The ranks whose share of {@code type} in the time of their states clipped to [from, to) is above {@code above}. */
  private static TreeSet<String> shareInReference(double from, double to, String type, double above) throws IOException {
    Map<String, double[]> time = new TreeMap<>();
    for (String[] f : referenceStates()) {
      double s = Math.max(Double.parseDouble(f[3]), from);
      double e = Math.min(Double.parseDouble(f[4]), to);
      if (e > s) {
        double[] t = time.computeIfAbsent(f[1], k -> new double[2]);
        t[0] += e - s;
        t[1] += f[7].equals(type) ? e - s : 0;
      }
    }
    TreeSet<String> ranks = new TreeSet<>();
    time.forEach((rank, t) -> {
      double share = t[1] / t[0];
      // pj_dump prints six decimals: no share may sit within its rounding of the threshold.
      assertTrue(Math.abs(share - above) > 1e-3, rank + " " + share);
      if (share > above) {
        ranks.add(rank);
      }
    });
    assertTrue(!ranks.isEmpty() && ranks.size() < 16, "a real choice: " + ranks);
    return ranks;
  }

  @Test
  void badInputIsOneLineAndNeverLosesSelections() throws IOException {
    Path ws = tmp.resolve("ws");
    ok(ws, "selection", "save", "a", TRACE.toString(), "--from", "0.2", "--to", "0.3");
    assertEquals(new CliTest.Result(1, "", "ocelotl: selection 'a' already exists for smpi_small_flat.trace; choose "
        + "another name, or rename or delete it first\n"), run(ws, "selection", "save", "a", TRACE.toString()));
    assertEquals(new CliTest.Result(1, "", "ocelotl: no selection 'b' for smpi_small_flat.trace; it has a\n"),
        run(ws, "overview", TRACE.toString(), "--selection", "b", "--out", tmp.resolve("x.svg").toString()));
    assertEquals(new CliTest.Result(1, "", "ocelotl: a selection ('a') sets the window, producers and types: give it "
        + "or --from, --to, --producers, --types, --exclude-types, not both\n"), run(ws, "gantt", TRACE.toString(),
        "--selection", "a", "--from", "0.1", "--out", tmp.resolve("x.svg").toString()));
    assertEquals(new CliTest.Result(1, "", "ocelotl: selection 'c': unknown producer 'rank-99' in smpi_small_flat.trace\n"),
        run(ws, "selection", "save", "c", TRACE.toString(), "--producers", "rank-99"));
    assertEquals(1, run(ws, "selection", "save", "bad name", TRACE.toString()).status());
    assertTrue(Files.notExists(tmp.resolve("x.svg")));

    // An export never overwrites a file unless asked.
    Path out = tmp.resolve("out.json");
    Files.writeString(out, "mine");
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + out + ": exists; give --force to replace it\n"),
        run(ws, "selection", "export", TRACE.toString(), "--out", out.toString()));
    assertEquals("mine", Files.readString(out));

    // An import with a name already taken adds nothing.
    ok(ws, "selection", "export", TRACE.toString(), "--out", out.toString(), "--force");
    CliTest.Result taken = run(ws, "selection", "import", TRACE.toString(), out.toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + out + ": nothing imported: smpi_small_flat.trace already has "
        + "a selection named a (rename or delete it first)\n"), taken);

    // A corrupt file: one line naming it, the file kept aside with its bytes, never emptied.
    Path file;
    try (Stream<Path> files = Files.list(ws.resolve("selections"))) {
      file = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    String damaged = Files.readString(file).replace("\"to\"", "\"to\" 3");
    Files.writeString(file, damaged);
    CliTest.Result corrupt = run(ws, "selection", "list", TRACE.toString());
    assertEquals(1, corrupt.status());
    assertEquals(1, corrupt.err().lines().count(), corrupt.err());
    assertTrue(corrupt.err().startsWith("ocelotl: " + file + ": not a selections file: "), corrupt.err());
    Path aside;
    try (Stream<Path> files = Files.list(ws.resolve("selections"))) {
      aside = files.filter(f -> f.getFileName().toString().contains(".json.corrupt-")).findFirst().orElseThrow();
    }
    assertTrue(corrupt.err().contains("moved aside to " + aside), corrupt.err());
    assertEquals(damaged, Files.readString(aside));
    assertTrue(Files.notExists(file));
    // Fixed by hand, it comes back by import.
    Files.writeString(aside, damaged.replace("\"to\" 3", "\"to\""));
    assertEquals("imported 1 selections: a\n", ok(ws, "selection", "import", TRACE.toString(), aside.toString()));
  }
}
