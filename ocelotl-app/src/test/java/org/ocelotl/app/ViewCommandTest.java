package org.ocelotl.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.modelfile.ModelFiles;

/**
 * {@code ocelotl view --model}: bad input fails before any server starts, with one line on stderr
 * and exit status 1, as {@code overview --model} does. (A good model is served: the API's tests
 * and the browser tests run on one.)
 */
class ViewCommandTest {
  @TempDir static Path tmp;
  static Path csv;
  static Path binary;

  @BeforeAll
  static void models() throws IOException {
    csv = Files.writeString(tmp.resolve("M.csv"), "producer,slice,type,value\na,0,u,1\nb,1,v,2\n");
    binary = tmp.resolve("M.ocm");
    ModelFiles.write(ModelFiles.read(csv, null, 0), binary);
  }

  private static CliTest.Result view(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "view";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--workspace";
    all[args.length + 2] = tmp.resolve("ws").toString();
    return CliTest.run(all);
  }

  private static CliTest.Result failure(String line) {
    return new CliTest.Result(1, "", "ocelotl: " + line + "\n");
  }

  @Test
  void aTraceOrAModelOneOfTheTwo() {
    assertEquals(failure("view takes a TRACE or --model FILE (one of the two)"), view());
    assertEquals(failure("view takes a TRACE or --model FILE (one of the two)"),
        view(OverviewCommandTest.BUNDLED.toString(), "--model", binary.toString()));
    assertEquals(failure("--tree goes with --model"),
        view(OverviewCommandTest.BUNDLED.toString(), "--tree", csv.toString()));
    assertEquals(failure("--slices goes with --model; the page chooses a trace's slices"),
        view(OverviewCommandTest.BUNDLED.toString(), "--slices", "10"));
  }

  @Test
  void aPairIsTwoTraces() {
    assertEquals(failure("--compare takes two traces, BASE and OTHER; got 1"),
        view("--compare", OverviewCommandTest.BUNDLED.toString()));
    assertEquals(failure("--compare takes two traces, BASE and OTHER; got 0"), view("--compare", "--model", csv.toString()));
  }

  @Test
  void optionsThatBuildATracesModelAreRefused() {
    assertEquals(failure("--format chooses how a trace's model is built; it has no meaning with --model"),
        view("--model", csv.toString(), "--format", "paje"));
    assertEquals(failure("--slices must be ≥ 1, got 0"), view("--model", csv.toString(), "--slices", "0"));
  }

  @Test
  void aMissingCorruptOrMismatchedModelIsOneLine() throws IOException {
    Path none = tmp.resolve("none.ocm");
    assertEquals(failure(none + ": no such file"), view("--model", none.toString()));
    assertEquals(failure(none + ": no such file"), view("--model", csv.toString(), "--tree", none.toString()));
    Path cut = tmp.resolve("cut.ocm");
    byte[] whole = Files.readAllBytes(binary);
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 1));
    assertEquals(failure(cut + "@0: the header's 3 nodes, 2 leaves × 2 slices × 2 types and 28 bytes of names make "
        + "a file of " + whole.length + " bytes, found " + (whole.length - 1)), view("--model", cut.toString()));
    assertEquals(failure(binary + ": a binary model carries its own producer tree; a tree file goes with a CSV model "
        + "only"), view("--model", binary.toString(), "--tree", csv.toString()));
    assertEquals(failure(binary + ": the binary model holds 2 slices, 5 were asked for; a binary model is read with "
        + "its own slice count"), view("--model", binary.toString(), "--slices", "5"));
  }
}
