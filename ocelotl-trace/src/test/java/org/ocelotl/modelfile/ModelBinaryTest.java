package org.ocelotl.modelfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

class ModelBinaryTest {
  @TempDir Path dir;

  /**
   * The golden model: root r with leaves a and b, 2 slices, types run and wait.
   *
   * <pre>
   *          run   wait
   * a  t0    1     0
   * a  t1    2.5   0.125
   * b  t0    0     3
   * b  t1    0     4
   * </pre>
   */
  static MicroscopicModel golden() {
    ProducerTree tree = new ProducerTree(new String[] {"r", "a", "b"}, new int[] {-1, 0, 0});
    return new MicroscopicModel(tree, 2, List.of("run", "wait"), new double[] {1, 0, 2.5, 0.125, 0, 3, 0, 4});
  }

  static byte[] bytes(MicroscopicModel model) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ModelBinary.write(model, out);
    return out.toByteArray();
  }

  private Path file(byte[] bytes) throws IOException {
    return Files.write(dir.resolve("m.ocm"), bytes);
  }

  private static byte[] goldenFile() throws IOException {
    try (InputStream in = ModelBinaryTest.class.getResourceAsStream("golden-v1.ocm")) {
      return in.readAllBytes();
    }
  }

  /** Version 1 files stay readable and the writer still writes them byte for byte. */
  @Test
  void theGoldenVersion1FileIsWhatTheWriterWritesAndReadsBack() throws IOException {
    byte[] golden = goldenFile();
    assertArrayEquals(golden, bytes(golden()));
    MicroscopicModel read = ModelBinary.read(file(golden));
    assertEquals(List.of("r", "a", "b"), List.of(read.tree().name(0), read.tree().name(1), read.tree().name(2)));
    assertEquals(List.of(-1, 0, 0), List.of(read.tree().parent(0), read.tree().parent(1), read.tree().parent(2)));
    assertEquals(List.of("run", "wait"), read.types());
    assertEquals(2, read.slices());
    assertArrayEquals(golden().values(), read.values());
  }

  /** Values copied through several mappings (a gigabyte each in use) land where one copy puts them. */
  @Test
  void valuesReadThroughSeveralMappingsAreTheSame() throws IOException {
    assertArrayEquals(golden().values(), ModelBinary.read(file(goldenFile()), 3).values());
  }

  /** The layout, spelled out byte by byte apart from the class's own constants. */
  @Test
  void theGoldenFileFollowsTheDocumentedLayout() throws IOException {
    ByteBuffer b = ByteBuffer.wrap(goldenFile()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals("4f43454c4f544c4d" + "01000000" + "03000000" + "02000000" + "02000000" + "02000000" + "1e000000",
        HexFormat.of().formatHex(b.array(), 0, 32));
    assertEquals(0.125, b.getDouble(32 + 3 * 8));
    assertEquals(-1, b.getInt(32 + 8 * 8));
    assertEquals(1, b.getInt(32 + 8 * 8 + 12));
    assertEquals("r", new String(b.array(), 32 + 8 * 8 + 12 + 4, 1, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(32 + 8 * 8 + 12 + 30, b.capacity());
  }

  /** CSV → binary → CSV, bit for bit, on a seeded random model with zeros, odd names and a tree. */
  @Test
  void csvToBinaryToCsvIsBitForBit() throws IOException {
    Random random = new Random(18);
    StringBuilder csv = new StringBuilder("producer,slice,type,value\n");
    String[] leaves = {"x,1", "y \"q\"", "z", "é"};
    String[] types = {"run", "MPI_Send", "wait, here"};
    for (String leaf : leaves) {
      for (int t = 0; t < 7; t++) {
        for (String type : types) {
          if (random.nextInt(3) > 0) {
            double value = random.nextInt(4) == 0 ? random.nextInt(100) : random.nextDouble() * Math.pow(10, random.nextInt(30) - 15);
            csv.append(quote(leaf)).append(',').append(t).append(',').append(quote(type)).append(',').append(value).append('\n');
          }
        }
      }
    }
    Path model = Files.writeString(dir.resolve("m.csv"), csv);
    Path tree = Files.writeString(dir.resolve("t.csv"), "producer,parent\nroot,\nm1,root\n\"x,1\",m1\n\"y \"\"q\"\"\",m1\n"
        + "m2,root\nz,m2\né,m2\n");
    MicroscopicModel fromCsv = ModelCsv.read(model, tree, 9);
    Path binary = file(bytes(fromCsv));
    MicroscopicModel fromBinary = ModelFiles.read(binary, null, 0);
    assertEquals(csv(fromCsv), csv(fromBinary));
    assertEquals(tree(fromCsv), tree(fromBinary));
    assertEquals(9, fromBinary.slices());
    for (int i = 0; i < fromCsv.values().length; i++) {
      assertEquals(Double.doubleToRawLongBits(fromCsv.values()[i]), Double.doubleToRawLongBits(fromBinary.values()[i]));
    }
  }

  /** Producers that share a name, which a CSV tree file cannot hold, survive by their node ids. */
  @Test
  void producersSharingANameKeepTheirPlaces() throws IOException {
    ProducerTree tree = new ProducerTree(new String[] {"r", "p1", "main", "p2", "main"}, new int[] {-1, 0, 1, 0, 3});
    MicroscopicModel model = new MicroscopicModel(tree, 1, List.of("u"), new double[] {1, 2});
    MicroscopicModel read = ModelBinary.read(file(bytes(model)));
    assertEquals(List.of(-1, 0, 1, 0, 3), List.of(read.tree().parent(0), read.tree().parent(1), read.tree().parent(2),
        read.tree().parent(3), read.tree().parent(4)));
    assertEquals(2.0, read.value(1, 0, 0));
  }

  private static String csv(MicroscopicModel model) throws IOException {
    StringWriter out = new StringWriter();
    ModelCsv.write(model, out);
    return out.toString();
  }

  private static String tree(MicroscopicModel model) throws IOException {
    StringWriter out = new StringWriter();
    ModelCsv.writeTree(model.tree(), out);
    return out.toString();
  }

  private static String quote(String field) {
    return field.contains(",") || field.contains("\"") ? '"' + field.replace("\"", "\"\"") + '"' : field;
  }

  private static Arguments corrupt(String expected, Consumer<ByteBuffer> change) {
    return Arguments.of(expected, change);
  }

  /** One field of the golden file changed: one exact message, naming the byte offset. */
  static Stream<Arguments> corruptions() {
    return Stream.of(
        corrupt("@0: expected the magic \"OCELOTLM\" of a binary model, found bytes 5843454c4f544c4d",
            b -> b.put(0, (byte) 'X')),
        corrupt("@8: expected format version 1, found 2", b -> b.putInt(8, 2)),
        corrupt("@12: expected a node count ≥ 1, found 0", b -> b.putInt(12, 0)),
        corrupt("@16: expected a leaf count from 1 to the 3 nodes, found 4", b -> b.putInt(16, 4)),
        corrupt("@20: expected a slice count ≥ 1, found -7", b -> b.putInt(20, -7)),
        corrupt("@24: expected a type count ≥ 1, found 0", b -> b.putInt(24, 0)),
        corrupt("@28: expected a names section of ≥ 0 bytes, found -1", b -> b.putInt(28, -1)),
        corrupt("@0: the header's 3 nodes, 2 leaves × 3 slices × 2 types and 30 bytes of names make a file of"
            + " 170 bytes, found 138", b -> b.putInt(20, 3)),
        corrupt("@16: 2 leaves × 1073741824 slices × 1073741824 types are more cells than one model can hold",
            b -> b.putInt(20, 1 << 30).putInt(24, 1 << 30)),
        corrupt("@40: expected a finite value ≥ 0, found -0.5 (leaf 0, slice 0, type 1)", b -> b.putDouble(40, -0.5)),
        corrupt("@80: expected a finite value ≥ 0, found NaN (leaf 1, slice 1, type 0)", b -> b.putDouble(80, Double.NaN)),
        corrupt("@96: expected the parent of node 0 (the root) to be -1, found 0", b -> b.putInt(96, 0)),
        corrupt("@104: expected the parent of node 2 to be a node from 0 to 1, found 2", b -> b.putInt(104, 2)),
        corrupt("@108: expected a name length from 0 to the 26 bytes left, found 27", b -> b.putInt(108, 27)),
        corrupt("@112: the name is not UTF-8 text", b -> b.put(112, (byte) 0xff)),
        corrupt("@16: the header says 2 leaves, the tree in the file has 1", b -> b.putInt(104, 1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corruptions")
  void aCorruptHeaderFieldGivesOneExactMessage(String expected, Consumer<ByteBuffer> change) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(goldenFile()).order(ByteOrder.LITTLE_ENDIAN);
    change.accept(b);
    Path file = file(b.array());
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFiles.read(file, null, 0));
    assertEquals(file + expected, e.getMessage());
  }

  @Test
  void aShortFileIsRefusedWithItsLength() throws IOException {
    Path file = file(java.util.Arrays.copyOf(goldenFile(), 12));
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelBinary.read(file));
    assertEquals(file + "@0: expected a binary model header of 32 bytes, found a file of 12 bytes", e.getMessage());
  }

  @Test
  void bytesAfterTheLastNameAreRefused() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(139).order(ByteOrder.LITTLE_ENDIAN).put(goldenFile());
    b.putInt(28, 31);
    Path file = file(b.array());
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelBinary.read(file));
    assertEquals(file + "@138: 1 bytes after the last type name; expected the file to end there", e.getMessage());
  }

  @Test
  void aBinaryModelTakesNoTreeFileAndNoOtherSliceCount() throws IOException {
    Path file = file(goldenFile());
    Path tree = Files.writeString(dir.resolve("t.csv"), "producer,parent\nr,\na,r\nb,r\n");
    assertEquals(file + ": a binary model carries its own producer tree; a tree file goes with a CSV model only",
        assertThrows(ModelFormatException.class, () -> ModelFiles.read(file, tree, 0)).getMessage());
    assertEquals(file + ": the binary model holds 2 slices, 3 were asked for; a binary model is read with its own"
        + " slice count", assertThrows(ModelFormatException.class, () -> ModelFiles.read(file, null, 3)).getMessage());
    assertEquals(2, ModelFiles.read(file, null, 2).slices());
  }
}
