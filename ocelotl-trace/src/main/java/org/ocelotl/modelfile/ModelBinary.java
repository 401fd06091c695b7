package org.ocelotl.modelfile;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The binary model file ({@code .ocm}, decision 024): the model's own dense array, so that a
 * fresh JVM reads it with one memory map and one bulk copy instead of parsing text. All numbers
 * little-endian.
 *
 * <pre>
 * offset            size            field
 * 0                 8               MAGIC    "OCELOTLM"
 * 8                 4               VERSION  1
 * 12                4               NODES    producer tree nodes, ≥ 1
 * 16                4               LEAVES   leaves of that tree, 1..NODES
 * 20                4               SLICES   ≥ 1
 * 24                4               TYPES    event types, ≥ 1
 * 28                4               NAMES    bytes of the names section
 * 32                8·cells         values: doubles, cells = LEAVES·SLICES·TYPES, index (leaf·SLICES + slice)·TYPES + type
 * 32 + 8·cells      4·NODES         parents: int32 per node, −1 for node 0 (the root), else a node numbered before it
 * then              NAMES           NODES node names, then TYPES type names: each an int32 byte length and UTF-8 bytes
 * </pre>
 *
 * The values come first so that they start 8-byte aligned. The tree travels by node ids, so
 * producers that share a name (threads called "main" in two processes) survive, which the CSV
 * tree file cannot carry.
 */
public final class ModelBinary {
  /** The extension that makes {@code ocelotl model --out} write this format. */
  public static final String EXTENSION = ".ocm";

  static final byte[] MAGIC = "OCELOTLM".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = 8;
  static final int NODES_OFFSET = 12;
  static final int LEAVES_OFFSET = 16;
  static final int SLICES_OFFSET = 20;
  static final int TYPES_OFFSET = 24;
  static final int NAMES_OFFSET = 28;
  static final int VALUES_OFFSET = 32;
  static final int HEADER_BYTES = VALUES_OFFSET;

  private ModelBinary() {}

  /** Whether the file starts with this format's magic (a CSV model starts with its header line). */
  public static boolean isBinary(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return Arrays.equals(in.readNBytes(MAGIC.length), MAGIC);
    }
  }

  /**
   * Reads a binary model. The header is validated once, before anything is allocated; the values
   * then go from the mapped file into the model's array by bulk copies.
   */
  public static MicroscopicModel read(Path file) throws IOException {
    return read(file, VALUES_PER_MAP);
  }

  /** One mapping holds at most 2 GB, so the values are copied a gigabyte at a time. */
  static final int VALUES_PER_MAP = 1 << 27;

  static MicroscopicModel read(Path file, int valuesPerMap) throws IOException {
    String name = file.toString();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long length = channel.size();
      if (length < HEADER_BYTES) {
        throw ModelFormatException.atOffset(name, 0, "expected a binary model header of " + HEADER_BYTES
            + " bytes, found a file of " + length + " bytes");
      }
      Header h = Header.validate(map(channel, 0, HEADER_BYTES), name, length);
      double[] values = new double[h.cells()];
      for (int from = 0; from < values.length; from += valuesPerMap) {
        int count = Math.min(valuesPerMap, values.length - from);
        map(channel, VALUES_OFFSET + (long) from * Double.BYTES, (long) count * Double.BYTES).asDoubleBuffer()
            .get(values, from, count);
      }
      checkValues(values, h, name);
      long tailOffset = h.parentsOffset();
      if (length - tailOffset > Integer.MAX_VALUE) {
        throw ModelFormatException.atOffset(name, NODES_OFFSET, String.format("the tree and names take %,d bytes;"
            + " expected at most %,d", length - tailOffset, Integer.MAX_VALUE));
      }
      Tail tail = new Tail(map(channel, tailOffset, length - tailOffset), tailOffset, name);
      int[] parents = tail.parents(h.nodes());
      String[] nodeNames = tail.names(h.nodes());
      List<String> types = List.of(tail.names(h.types()));
      tail.requireEnd();
      ProducerTree tree = new ProducerTree(nodeNames, parents);
      if (tree.leafCount() != h.leaves()) {
        throw ModelFormatException.atOffset(name, LEAVES_OFFSET, "the header says " + h.leaves()
            + " leaves, the tree in the file has " + tree.leafCount());
      }
      return new MicroscopicModel(tree, h.slices(), types, values);
    }
  }

  private static ByteBuffer map(FileChannel channel, long offset, long size) throws IOException {
    return channel.map(FileChannel.MapMode.READ_ONLY, offset, size).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The header's fields, each checked against what the file can be. */
  private record Header(int nodes, int leaves, int slices, int types, int namesBytes) {
    static Header validate(ByteBuffer b, String file, long length) throws ModelFormatException {
      byte[] magic = new byte[MAGIC.length];
      b.get(MAGIC_OFFSET, magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw ModelFormatException.atOffset(file, MAGIC_OFFSET, "expected the magic \"OCELOTLM\" of a binary model,"
            + " found bytes " + hex(magic));
      }
      int version = b.getInt(VERSION_OFFSET);
      if (version != VERSION) {
        throw ModelFormatException.atOffset(file, VERSION_OFFSET, "expected format version " + VERSION + ", found "
            + version);
      }
      int nodes = atLeastOne(b, NODES_OFFSET, "node count", file);
      int leaves = atLeastOne(b, LEAVES_OFFSET, "leaf count", file);
      if (leaves > nodes) {
        throw ModelFormatException.atOffset(file, LEAVES_OFFSET, "expected a leaf count from 1 to the " + nodes
            + " nodes, found " + leaves);
      }
      int slices = atLeastOne(b, SLICES_OFFSET, "slice count", file);
      int types = atLeastOne(b, TYPES_OFFSET, "type count", file);
      int namesBytes = b.getInt(NAMES_OFFSET);
      if (namesBytes < 0) {
        throw ModelFormatException.atOffset(file, NAMES_OFFSET, "expected a names section of ≥ 0 bytes, found "
            + namesBytes);
      }
      ModelCsv.checkCells(file + "@" + LEAVES_OFFSET, leaves, slices, types);
      long cells = (long) leaves * slices * types;
      long expected = VALUES_OFFSET + cells * Double.BYTES + (long) Integer.BYTES * nodes + namesBytes;
      if (expected != length) {
        throw ModelFormatException.atOffset(file, 0, String.format("the header's %,d nodes, %,d leaves × %,d slices"
            + " × %,d types and %,d bytes of names make a file of %,d bytes, found %,d", nodes, leaves, slices, types,
            namesBytes, expected, length));
      }
      return new Header(nodes, leaves, slices, types, namesBytes);
    }

    int cells() {
      return leaves * slices * types;
    }

    long parentsOffset() {
      return VALUES_OFFSET + (long) cells() * Double.BYTES;
    }

    private static int atLeastOne(ByteBuffer b, int offset, String what, String file) throws ModelFormatException {
      int value = b.getInt(offset);
      if (value < 1) {
        throw ModelFormatException.atOffset(file, offset, "expected a " + what + " ≥ 1, found " + value);
      }
      return value;
    }
  }

  private static void checkValues(double[] values, Header h, String file) throws ModelFormatException {
    for (int i = 0; i < values.length; i++) {
      double v = values[i];
      if (!(v >= 0) || Double.isInfinite(v)) {
        throw ModelFormatException.atOffset(file, VALUES_OFFSET + (long) i * Double.BYTES, "expected a finite value"
            + " ≥ 0, found " + v + " (leaf " + i / h.types() / h.slices() + ", slice " + i / h.types() % h.slices()
            + ", type " + i % h.types() + ")");
      }
    }
  }

  /** The parents and the names after the values; offsets in messages are the file's. */
  private static final class Tail {
    private final ByteBuffer b;
    private final long start;
    private final String file;

    Tail(ByteBuffer b, long start, String file) {
      this.b = b;
      this.start = start;
      this.file = file;
    }

    int[] parents(int nodes) throws ModelFormatException {
      int[] parents = new int[nodes];
      for (int node = 0; node < nodes; node++) {
        long offset = start + b.position();
        int parent = b.getInt();
        boolean valid = node == 0 ? parent == -1 : parent >= 0 && parent < node;
        if (!valid) {
          throw ModelFormatException.atOffset(file, offset, "expected the parent of node " + node
              + (node == 0 ? " (the root) to be -1" : " to be a node from 0 to " + (node - 1)) + ", found " + parent);
        }
        parents[node] = parent;
      }
      return parents;
    }

    String[] names(int count) throws ModelFormatException {
      String[] names = new String[count];
      var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
      for (int i = 0; i < count; i++) {
        long offset = start + b.position();
        if (b.remaining() < Integer.BYTES) {
          throw ModelFormatException.atOffset(file, offset, "expected the length of name " + (i + 1) + " of " + count
              + ", found the end of the file");
        }
        int size = b.getInt();
        if (size < 0 || size > b.remaining()) {
          throw ModelFormatException.atOffset(file, offset, "expected a name length from 0 to the " + b.remaining()
              + " bytes left, found " + size);
        }
        try {
          names[i] = decoder.decode(b.slice(b.position(), size)).toString();
        } catch (CharacterCodingException e) {
          throw ModelFormatException.atOffset(file, offset + Integer.BYTES, "the name is not UTF-8 text");
        }
        b.position(b.position() + size);
      }
      return names;
    }

    void requireEnd() throws ModelFormatException {
      if (b.hasRemaining()) {
        throw ModelFormatException.atOffset(file, start + b.position(), b.remaining()
            + " bytes after the last type name; expected the file to end there");
      }
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (byte value : bytes) {
      text.append(String.format("%02x", value));
    }
    return text.toString();
  }

  /** Writes the model; the stream is not closed. */
  public static void write(MicroscopicModel model, OutputStream out) throws IOException {
    ProducerTree tree = model.tree();
    List<byte[]> names = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      names.add(tree.name(node).getBytes(StandardCharsets.UTF_8));
    }
    for (String type : model.types()) {
      names.add(type.getBytes(StandardCharsets.UTF_8));
    }
    int namesBytes = 0;
    for (byte[] bytes : names) {
      namesBytes = Math.addExact(namesBytes, Integer.BYTES + bytes.length);
    }
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    header.put(MAGIC).putInt(VERSION_OFFSET, VERSION).putInt(NODES_OFFSET, tree.size())
        .putInt(LEAVES_OFFSET, model.leaves()).putInt(SLICES_OFFSET, model.slices())
        .putInt(TYPES_OFFSET, model.typeCount()).putInt(NAMES_OFFSET, namesBytes);
    out.write(header.array());
    double[] values = model.values();
    ByteBuffer chunk = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    for (int from = 0; from < values.length; from += chunk.capacity() / Double.BYTES) {
      int count = Math.min(chunk.capacity() / Double.BYTES, values.length - from);
      chunk.clear();
      chunk.asDoubleBuffer().put(values, from, count);
      out.write(chunk.array(), 0, count * Double.BYTES);
    }
    ByteBuffer tail = ByteBuffer.allocate(Integer.BYTES * tree.size() + namesBytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int node = 0; node < tree.size(); node++) {
      tail.putInt(tree.parent(node));
    }
    for (byte[] bytes : names) {
      tail.putInt(bytes.length).put(bytes);
    }
    out.write(tail.array());
  }
}
