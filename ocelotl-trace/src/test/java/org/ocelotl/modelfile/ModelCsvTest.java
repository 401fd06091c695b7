package org.ocelotl.modelfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

class ModelCsvTest {
  @TempDir Path dir;

  private Path file(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void readsAFlatModelInOrderOfAppearance() throws IOException {
    Path model = file("m.csv", "producer,slice,type,value\nb,1,run,2.5\na,0,wait,1\n\nb,0,wait,3\n");
    MicroscopicModel read = ModelCsv.read(model, null, 0);
    assertEquals(List.of("b", "a"), List.of(read.tree().name(read.tree().leafNode(0)), read.tree().name(read.tree().leafNode(1))));
    assertEquals("root", read.tree().name(0));
    assertEquals(List.of("run", "wait"), read.types());
    assertEquals(2, read.slices());
    assertArrayEquals(new double[] {0, 3, 2.5, 0, /* a */ 0, 1, 0, 0}, read.values());
  }

  @Test
  void readsATreeAndExtraSlices() throws IOException {
    Path tree = file("t.csv", "producer,parent\nm1,c\nc,\n\"x,1\",m1\ny,c\n");
    Path model = file("m.csv", "producer,slice,type,value\ny,0,u,1\n\"x,1\",2,u,4\n");
    MicroscopicModel read = ModelCsv.read(model, tree, 5);
    ProducerTree t = read.tree();
    assertEquals("c", t.name(0));
    assertEquals(2, t.leafCount());
    assertEquals("x,1", t.name(t.leafNode(0)));
    assertEquals("y", t.name(t.leafNode(1)));
    assertEquals(5, read.slices());
    assertEquals(4, read.value(0, 2, 0));
    assertEquals(1, read.value(1, 0, 0));
  }

  /** Depth-first listing, parents first: the ids are the lines' order (breadth-first would put b at 2). */
  @Test
  void aTreeListedParentsFirstKeepsItsNodeIds() throws IOException {
    Path tree = file("t.csv", "producer,parent\nr,\na,r\nx,a\nb,r\n");
    Path model = file("m.csv", "producer,slice,type,value\nb,0,u,1\nx,0,u,2\n");
    ProducerTree t = ModelCsv.read(model, tree, 0).tree();
    assertEquals(List.of("r", "a", "x", "b"), List.of(t.name(0), t.name(1), t.name(2), t.name(3)));
    assertEquals(List.of(-1, 0, 1, 0), List.of(t.parent(0), t.parent(1), t.parent(2), t.parent(3)));
  }

  @Test
  void roundTripsARandomModel() throws IOException {
    Random random = new Random(8);
    String[] names = {"site", "c,1", "c\"2", "m1", "m2", "m3", "t"};
    int[] parents = {-1, 0, 0, 1, 1, 2, 5};
    ProducerTree tree = new ProducerTree(names, parents);
    double[] values = new double[tree.leafCount() * 7 * 3];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextInt(3) == 0 ? 0 : random.nextDouble() * Math.pow(10, random.nextInt(20) - 10);
    }
    MicroscopicModel model = new MicroscopicModel(tree, 7, List.of("a", "b,c", "d"), values);
    StringWriter modelText = new StringWriter();
    StringWriter treeText = new StringWriter();
    ModelCsv.write(model, modelText);
    ModelCsv.writeTree(tree, treeText);
    MicroscopicModel read = ModelCsv.read(file("m.csv", modelText.toString()), file("t.csv", treeText.toString()), 0);
    assertArrayEquals(values, read.values());
    assertEquals(model.types(), read.types());
    MicroscopicModel zeros = new MicroscopicModel(ProducerTree.flat("root", List.of("p", "q")), 4, List.of("x", "y"),
        new double[16]);
    StringWriter zeroText = new StringWriter();
    ModelCsv.write(zeros, zeroText);
    MicroscopicModel zerosRead = ModelCsv.read(file("z.csv", zeroText.toString()), null, 0);
    assertEquals(4, zerosRead.slices());
    assertEquals(zeros.types(), zerosRead.types());
    assertEquals(2, zerosRead.leaves());
    for (int node = 0; node < tree.size(); node++) {
      assertEquals(tree.name(node), read.tree().name(node));
      assertEquals(tree.parent(node), read.tree().parent(node));
    }
  }

  private String modelError(String text) {
    return assertThrows(ModelFormatException.class, () -> ModelCsv.read(file("m.csv", text), null, 0)).getMessage();
  }

  private String treeError(String tree, String model) {
    return assertThrows(ModelFormatException.class,
        () -> ModelCsv.read(file("m.csv", model), file("t.csv", tree), 0)).getMessage();
  }

  @Test
  void namesFileLineAndWhatWasExpected() {
    String m = dir.resolve("m.csv") + ":";
    String t = dir.resolve("t.csv") + ":";
    assertEquals(m + "1: expected the header \"producer,slice,type,value\", found \"leaf,slice,type,value\"",
        modelError("leaf,slice,type,value\n"));
    assertEquals(m + " no cells: a model needs at least one event type", modelError("producer,slice,type,value\n"));
    assertEquals(m + "3: expected 4 fields, found 3", modelError("producer,slice,type,value\na,0,u,1\na,1,u\n"));
    assertEquals(m + "2: expected a slice number ≥ 0, found \"-1\"", modelError("producer,slice,type,value\na,-1,u,1\n"));
    assertEquals(m + "2: expected a number as value, found \"x\"", modelError("producer,slice,type,value\na,1,u,x\n"));
    assertEquals(m + "2: expected a finite value ≥ 0, found -3", modelError("producer,slice,type,value\na,1,u,-3\n"));
    assertEquals(m + "2: expected a finite value ≥ 0, found NaN", modelError("producer,slice,type,value\na,1,u,NaN\n"));
    assertEquals(m + "3: second value for producer \"a\", slice 1, type \"u\"; each cell may appear once",
        modelError("producer,slice,type,value\na,1,u,1\na,1,u,2\n"));
    assertEquals(m + "2: unterminated quoted field", modelError("producer,slice,type,value\n\"a,1,u,1\n"));
    String model = "producer,slice,type,value\nleaf,0,u,1\n";
    assertEquals(t + "3: second root \"b\" (the root is \"a\"); only one producer may have an empty parent",
        treeError("producer,parent\na,\nb,\n", model));
    assertEquals(t + " no root: one producer must have an empty parent", treeError("producer,parent\na,b\nb,a\n", model));
    assertEquals(t + "3: parent \"z\" of \"leaf\" is not defined in the file", treeError("producer,parent\na,\nleaf,z\n", model));
    assertEquals(t + "3: producer \"b\" is on a cycle, not under the root",
        treeError("producer,parent\na,\nb,c\nc,b\nleaf,a\n", model));
    assertEquals(t + "3: producer \"a\" already defined on line 2", treeError("producer,parent\na,\na,\n", model));
    assertEquals(m + "2: producer \"leaf\" is not in the tree file " + dir.resolve("t.csv"),
        treeError("producer,parent\na,\nb,a\n", model));
    assertEquals(m + "2: producer \"a\" is not a leaf of the tree (values sit on leaves)",
        treeError("producer,parent\na,\nleaf,a\n", "producer,slice,type,value\na,0,u,1\n"));
  }

  /**
   * Every value written reads back bit for bit, in the fewest significant digits that do (no
   * decimal of one digit less, rounded either way, reads back as it): seeded doubles of every
   * magnitude, subnormals, powers of ten and their neighbours, integers.
   */
  @Test
  void valuesAreWrittenInTheShortestTextThatReadsBackExactly() throws IOException {
    Random random = new Random(1818);
    double[] values = new double[200_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = switch (i % 5) {
        case 0 -> Double.longBitsToDouble(random.nextLong() & Long.MAX_VALUE); // any finite ≥ 0 bit pattern
        case 1 -> random.nextDouble();
        case 2 -> Math.pow(10, random.nextInt(600) - 300) * (random.nextBoolean() ? 1 : Math.nextUp(1.0));
        case 3 -> random.nextInt(1_000_000);
        default -> Double.MIN_VALUE * (1 + random.nextInt(1 << 20)); // subnormals
      };
      if (Double.isNaN(values[i]) || Double.isInfinite(values[i])) {
        values[i] = Double.MAX_VALUE;
      }
    }
    MicroscopicModel model = new MicroscopicModel(ProducerTree.flat("root", List.of("p")), values.length, List.of("u"),
        values);
    StringWriter text = new StringWriter();
    ModelCsv.write(model, text);
    assertArrayEquals(values, ModelCsv.read(file("m.csv", text.toString()), null, 0).values());
    String[] lines = text.toString().split("\n");
    for (int line = 1; line < lines.length; line++) {
      String written = lines[line].substring(lines[line].lastIndexOf(',') + 1);
      double value = Double.parseDouble(written);
      java.math.BigDecimal exact = new java.math.BigDecimal(written);
      int digits = exact.stripTrailingZeros().precision();
      if (value != 0 && digits > 1) {
        for (java.math.RoundingMode mode : new java.math.RoundingMode[] {java.math.RoundingMode.FLOOR,
            java.math.RoundingMode.CEILING}) {
          java.math.BigDecimal shorter = new java.math.BigDecimal(value).round(new java.math.MathContext(digits - 1, mode));
          assertTrue(shorter.doubleValue() != value, written + " has a shorter form " + shorter);
        }
      }
    }
  }

  @Test
  void linesEndAsBufferedReaderEndsThem() throws IOException {
    for (String end : new String[] {"\n", "\r\n", "\r"}) {
      String text = "\uFEFFproducer,slice,type,value" + end + "a,0,u,1.5" + end + "  " + end + "b,1,v,2" + end + "b,0,u,3";
      MicroscopicModel read = ModelCsv.read(file("m.csv", text), null, 0);
      assertArrayEquals(new double[] {1.5, 0, 0, 0, /* b */ 3, 0, 0, 2}, read.values(), "line end " + end.length());
    }
    // Lines longer than the reader's buffer, and a buffer boundary inside \r\n.
    StringBuilder big = new StringBuilder("producer,slice,type,value\r\n");
    String name = "x".repeat(100_000);
    for (int t = 0; t < 50; t++) {
      big.append(name).append(',').append(t).append(",u,").append(t + 1).append("\r\n");
    }
    MicroscopicModel read = ModelCsv.read(file("big.csv", big.toString()), null, 0);
    assertEquals(50, read.slices());
    assertEquals(50.0, read.value(0, 49, 0));
  }

  @Test
  void textThatIsNotAModelIsRefusedWithItsLine() throws IOException {
    String m = dir.resolve("m.csv") + ":";
    Path bad = dir.resolve("m.csv");
    Files.write(bad, new byte[] {'p', 'r', 'o', 'd', 'u', 'c', 'e', 'r', ',', 's', 'l', 'i', 'c', 'e', ',', 't', 'y', 'p',
        'e', ',', 'v', 'a', 'l', 'u', 'e', '\n', 'a', ',', '0', ',', 'u', ',', '1', '\n', (byte) 0xC3, ',', '0', ',', 'u', ',',
        '1', '\n'});
    assertEquals(m + "3: the line is not UTF-8 text",
        assertThrows(ModelFormatException.class, () -> ModelCsv.read(bad, null, 0)).getMessage());
    Path tree = dir.resolve("t.csv"); // found by fuzzing: the tree file's reader said "Input length = 1"
    Files.write(tree, new byte[] {'p', 'r', 'o', 'd', 'u', 'c', 'e', 'r', ',', 'p', 'a', 'r', 'e', 'n', 't', '\n', 'a', ',',
        '\n', (byte) 0xFF, ',', 'a', '\n'});
    assertEquals(tree + ":3: the line is not UTF-8 text", assertThrows(ModelFormatException.class,
        () -> ModelCsv.read(file("m2.csv", "producer,slice,type,value\na,0,u,1\n"), tree, 0)).getMessage());
    assertEquals(m + "3: the line is longer than " + LineSplitter.MAX_LINE + " bytes: not a model file",
        modelError("producer,slice,type,value\na,0,u,1\n" + "y".repeat(LineSplitter.MAX_LINE + 1) + "\n"));
    assertEquals(m + "2: expected a number as value, found \" 1e\"", modelError("producer,slice,type,value\na,1,u, 1e\n"));
    assertEquals(m + "2: expected a finite value ≥ 0, found 1e400", modelError("producer,slice,type,value\na,1,u,1e400\n"));
    assertEquals(m + "2: expected a slice number ≥ 0, found \"99999999999\"",
        modelError("producer,slice,type,value\na,99999999999,u,1\n"));
    assertEquals(m + "2: expected 4 fields, found 5", modelError("producer,slice,type,value\na,1,u,1,2\n"));
    assertEquals(m + "1: expected the header \"producer,slice,type,value\", found an empty file", modelError(""));
  }

  @Test
  void sliceBeyondTheAskedCountIsRefused() throws IOException {
    Path model = file("m.csv", "producer,slice,type,value\na,0,u,1\na,4,u,1\n");
    ModelFormatException error = assertThrows(ModelFormatException.class, () -> ModelCsv.read(model, null, 3));
    assertEquals(model + ":3: slice 4 is beyond the 3 slices asked for (0..2)", error.getMessage());
  }

  /**
   * A model file whose dense model would take more than half the heap is refused before it is
   * allocated. Found by fuzzing (ModelFileFuzzTest input slice-155555550, refused so under the fuzz
   * JVM's 1 GB): one line with slice 155,555,550 ran out of memory.
   */
  @Test
  void aModelLargerThanHalfTheHeapIsRefused() throws IOException {
    long heap = Runtime.getRuntime().maxMemory();
    int types = (int) (heap / 2 / Double.BYTES / 10_000) + 1;
    StringBuilder text = new StringBuilder("producer,slice,type,value\nb,9999,u0,1\n");
    for (int u = 1; u < types; u++) {
      text.append("b,0,u").append(u).append(",1\n");
    }
    Path model = file("big.csv", text.toString());
    long bytes = (long) types * 10_000 * Double.BYTES;
    assertEquals(model + ": " + String.format("a model of 1 leaves × 10,000 slices × %,d types needs %,d MB, more than"
        + " half the %,d MB this JVM may use: use a larger heap (OCELOTL_JAVA_OPTS=-Xmx8g ./ocelotl …)", types,
        bytes >> 20, heap >> 20), assertThrows(ModelFormatException.class, () -> ModelCsv.read(model, null, 0)).getMessage());
  }

  @Test
  void aSliceThatAloneFillsHalfTheHeapIsRefused() throws IOException {
    long heap = Runtime.getRuntime().maxMemory();
    long slices = heap / 2 / Double.BYTES + 1;
    Path model = file("far.csv", "producer,slice,type,value\nb," + (slices - 1) + ",wa,2.5\n");
    assertEquals(model + ": " + String.format("a model of 1 leaves × %,d slices × 1 types needs %,d MB, more than half"
        + " the %,d MB this JVM may use: use a larger heap (OCELOTL_JAVA_OPTS=-Xmx8g ./ocelotl …)", slices,
        (slices * Double.BYTES) >> 20, heap >> 20),
        assertThrows(ModelFormatException.class, () -> ModelCsv.read(model, null, 0)).getMessage());
  }
}
