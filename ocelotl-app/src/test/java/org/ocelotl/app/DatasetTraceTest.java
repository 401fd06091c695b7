package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.testing.SharedTraces;

/**
 * A Parquet dataset opens as a trace (issue 34 item 1, decision 048): exported, then given to the
 * commands as a directory, it imports into a store whose chunk files are the original store's, byte
 * for byte, so every command answers the same; a damaged dataset is one line and exit status 1,
 * and leaves no store.
 */
class DatasetTraceTest {
  static final Path BUNDLED = Path.of("../examples/smpi_perturbed.trace.gz");

  @TempDir Path tmp;
  private String workspace = "ws";

  private CliTest.Result ocelotl(String... args) {
    return CliTest.run(Stream.concat(Stream.of(args), Stream.of("--workspace", tmp.resolve(workspace).toString()))
        .toArray(String[]::new));
  }

  private Path export(Path trace, String name) {
    Path dataset = tmp.resolve(name);
    CliTest.Result exported = ocelotl("export", trace.toString(), "--format", "parquet", "--out", dataset.toString());
    assertEquals(0, exported.status(), exported.err());
    return dataset;
  }

  /** The store directory the workspace made for a trace (the one whose name starts so). */
  private Path store(String prefix) throws IOException {
    try (Stream<Path> stores = Files.list(tmp.resolve(workspace).resolve("traces"))) {
      List<Path> found = stores.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
      assertEquals(1, found.size(), found.toString());
      return found.get(0);
    }
  }

  private void assertSameStore(Path trace, Path dataset) throws IOException {
    assertEquals(0, ocelotl("info", trace.toString()).status());
    CliTest.Result info = ocelotl("info", dataset.toString());
    assertEquals(0, info.status(), info.err());
    Path original = store(trace.getFileName().toString());
    Path copy = store("dataset.json");
    for (String chunks : List.of("states.chunks", "events.chunks", "variables.chunks", "links.chunks")) {
      Path a = original.resolve(chunks);
      Path b = copy.resolve(chunks);
      assertEquals(Files.exists(a), Files.exists(b), chunks);
      if (Files.exists(a)) {
        assertEquals(-1, Files.mismatch(a, b), trace + ": " + chunks);
      }
    }
  }

  @Test
  void theBundledTraceAnswersTheSameFromItsDataset() throws IOException {
    Path dataset = export(BUNDLED, "smpi.parquet");
    assertSameStore(BUNDLED, dataset);
    CliTest.Result info = ocelotl("info", dataset.toString());
    assertTrue(info.out().startsWith("trace      smpi.parquet (parquet, "), info.out());
    assertEquals(ocelotl("info", BUNDLED.toString()).out().lines().skip(2).toList(),
        info.out().lines().skip(2).toList());
    for (List<String> command : List.of(
        List.of("stats", "--by", "producer"),
        List.of("stats", "--kind", "variable", "--from", "3", "--to", "5"),
        List.of("events", "--sort", "-duration", "--limit", "50", "--producers", "nancy"),
        List.of("events", "--kind", "link", "--limit", "20"))) {
      CliTest.Result a = ocelotl(Stream.concat(Stream.of(command.get(0), BUNDLED.toString()),
          command.stream().skip(1)).toArray(String[]::new));
      CliTest.Result b = ocelotl(Stream.concat(Stream.of(command.get(0), dataset.toString()),
          command.stream().skip(1)).toArray(String[]::new));
      assertEquals(0, a.status(), a.err());
      assertEquals(a, b, command.toString());
    }
    Path svgA = tmp.resolve("a.svg");
    Path svgB = tmp.resolve("b.svg");
    assertEquals(0, ocelotl("overview", BUNDLED.toString(), "--out", svgA.toString()).status());
    CliTest.Result overview = ocelotl("overview", dataset.toString(), "--format", "parquet", "--out", svgB.toString());
    assertEquals(0, overview.status(), overview.err());
    // The same picture but for the trace's name in its caption.
    assertEquals(Files.readString(svgA).replace("smpi_perturbed.trace.gz", "smpi.parquet"), Files.readString(svgB));
  }

  @Test
  void otherFormatsToo() throws IOException {
    for (String shared : List.of("paje/pajeng/events.trace", "paje/simgrid/s4u_mw_small.trace",
        "otf2/ez_mpi4/eztrace_log.otf2")) {
      Path trace = SharedTraces.file(shared);
      workspace = "ws-" + trace.getFileName();
      Path dataset = export(trace, trace.getFileName() + ".parquet");
      assertSameStore(trace, dataset);
      assertEquals(ocelotl("stats", trace.toString()), ocelotl("stats", dataset.toString()), shared);
    }
  }

  @Test
  void aDamagedDatasetIsOneLineAndNoStore() throws IOException {
    Path dataset = export(BUNDLED, "damaged");
    Path description = dataset.resolve("dataset.json");
    String text = Files.readString(description);

    Files.writeString(description, text.replace("\"version\" : 2", "\"version\" : 7"));
    CliTest.Result version = ocelotl("info", dataset.toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + description.toRealPath() + ": dataset layout version 7, "
        + "expected 2 (export the trace again with this version of Ocelotl)\n"), version);

    Files.writeString(description, text);
    Path states;
    try (Stream<Path> files = Files.list(dataset.resolve("states"))) {
      states = files.sorted().findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(states);
    Files.write(states, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    CliTest.Result cut = ocelotl("info", dataset.toString());
    assertEquals(1, cut.status());
    assertTrue(cut.err().startsWith("ocelotl: " + dataset.toRealPath() + ": "), cut.err());
    assertEquals(1, cut.err().lines().count(), cut.err());

    Files.delete(dataset.resolve("metadata.json"));
    CliTest.Result missing = ocelotl("info", dataset.toString());
    assertEquals(new CliTest.Result(1, "", "ocelotl: " + dataset.toRealPath().resolve("metadata.json")
        + ": missing: expected the store metadata every dataset carries\n"), missing);

    CliTest.Result list = ocelotl("list"); // the header and the bundled trace, which the export imported
    assertEquals(2, list.out().lines().count(), list.out());
    assertTrue(list.out().lines().skip(1).allMatch(line -> line.startsWith("smpi_perturbed.trace.gz ")), list.out());
  }
}
