package org.ocelotl.modelfile;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import com.fasterxml.jackson.core.io.NumberOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ocelotl.io.Csv;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The microscopic model interchange files (docs/aggregation.md):
 *
 * <ul>
 *   <li>model: CSV, header {@code producer,slice,type,value}, one line per non-zero cell (zero
 *       cells may be omitted, each cell at most once), producer = a leaf's name, slice from 0;
 *   <li>tree (optional): CSV, header {@code producer,parent}, one line per node, the root with an
 *       empty parent; without it the model's producers are the leaves of one root named "root".
 * </ul>
 *
 * Leaves are ordered as their first appearance in the tree file (or the model file), event types
 * as their first appearance in the model file. Fields holding a comma, a quote or a line break are
 * quoted with "…" and inner quotes doubled; names cannot hold line breaks.
 */
public final class ModelCsv {
  public static final String MODEL_HEADER = "producer,slice,type,value";
  public static final String TREE_HEADER = "producer,parent";
  /** Name of the root added when no tree file is given. */
  public static final String ROOT = "root";

  private ModelCsv() {}

  /**
   * Reads a model.
   *
   * @param tree   the tree file, or null for a flat tree of the model's producers
   * @param slices the number of slices, or 0 for one more than the highest slice in the file
   */
  public static MicroscopicModel read(Path model, Path tree, int slices) throws IOException {
    Cells cells = Cells.read(model);
    ProducerTree producerTree = tree == null ? ProducerTree.flat(ROOT, cells.producers.names()) : readTree(tree);
    if (cells.types.size() == 0) {
      throw new ModelFormatException(model.toString(), "no cells: a model needs at least one event type");
    }
    int n = slices > 0 ? slices : cells.highest + 1;
    int types = cells.types.size();
    // The file's producer number → the tree's leaf number, or −1 (not a leaf: reported at its first cell).
    int[] leafOf = new int[cells.producers.size()];
    java.util.Arrays.fill(leafOf, -1);
    Map<String, Integer> fileIndex = new HashMap<>();
    for (int p = 0; p < leafOf.length; p++) {
      fileIndex.put(cells.producers.name(p), p);
    }
    for (int leaf = 0; leaf < producerTree.leafCount(); leaf++) {
      Integer p = fileIndex.get(producerTree.name(producerTree.leafNode(leaf)));
      if (p != null) {
        leafOf[p] = leaf;
      }
    }
    checkCells(model.toString(), producerTree.leafCount(), n, types);
    int size = producerTree.leafCount() * n * types;
    double[] values = new double[size];
    java.util.BitSet seen = new java.util.BitSet(size);
    for (int k = 0; k < cells.count; k++) {
      int producer = cells.producer[k];
      int leaf = leafOf[producer];
      if (leaf < 0) {
        String name = cells.producers.name(producer);
        String why = producerTree.find(name) >= 0 ? "is not a leaf of the tree (values sit on leaves)"
            : "is not in the tree file " + tree;
        throw new ModelFormatException(model.toString(), cells.line[k], "producer \"" + name + "\" " + why);
      }
      int slice = cells.slice[k];
      if (slice >= n) {
        throw new ModelFormatException(model.toString(), cells.line[k],
            "slice " + slice + " is beyond the " + n + " slices asked for (0.." + (n - 1) + ")");
      }
      int at = (leaf * n + slice) * types + cells.type[k];
      if (seen.get(at)) {
        throw new ModelFormatException(model.toString(), cells.line[k], "second value for producer \""
            + cells.producers.name(producer)
            + "\", slice " + slice + ", type \"" + cells.types.name(cells.type[k]) + "\"; each cell may appear once");
      }
      seen.set(at);
      values[at] = cells.value[k];
    }
    return new MicroscopicModel(producerTree, n, cells.types.names(), values);
  }

  /**
   * Refuses a model too large for one array, or for this JVM's heap, before it is allocated: one
   * line with slice 155,555,550 asked for 1.2 GB (found by fuzzing). Half the heap, as for a model
   * built from a trace (ModelPlan.checkSize), since the model is then aggregated, which needs as
   * much again.
   */
  static void checkCells(String file, int leaves, int slices, int types) throws ModelFormatException {
    long perType = (long) leaves * slices; // < 2^62, so times an int cannot overflow once bounded
    long size = perType * types;
    if (perType > Integer.MAX_VALUE - 8 || size > Integer.MAX_VALUE - 8) {
      throw new ModelFormatException(file, leaves + " leaves × " + slices + " slices × " + types
          + " types are more cells than one model can hold");
    }
    long bytes = size * Double.BYTES;
    long heap = Runtime.getRuntime().maxMemory();
    if (bytes > heap / 2) {
      throw new ModelFormatException(file, String.format("a model of %,d leaves × %,d slices × %,d types"
          + " needs %,d MB, more than half the %,d MB this JVM may use: use a larger heap"
          + " (OCELOTL_JAVA_OPTS=-Xmx8g ./ocelotl …)", leaves, slices, types, bytes >> 20, heap >> 20));
    }
  }

  /**
   * The cells of a model file as primitive columns, read from its bytes: a line costs no object
   * (names are looked up by their bytes, numbers parsed in place), which made reading 5–10×
   * faster than a String, a field list and a record per line (docs/benchmarks.md).
   */
  private static final class Cells {
    final Names producers = new Names();
    final Names types = new Names();
    int count;
    int highest = -1;
    int[] producer = new int[1024];
    int[] slice = new int[1024];
    int[] type = new int[1024];
    double[] value = new double[1024];
    int[] line = new int[1024];

    static Cells read(Path file) throws IOException {
      Cells cells = new Cells();
      String name = file.toString();
      try (InputStream in = Files.newInputStream(file)) {
        LineSplitter lines = new LineSplitter(in, name);
        requireHeader(lines, name, MODEL_HEADER);
        try {
          while (lines.next()) {
            cells.add(lines, name);
          }
        } catch (java.nio.charset.CharacterCodingException e) {
          throw new ModelFormatException(name, lines.number(), "the line is not UTF-8 text");
        }
      }
      return cells;
    }

    private void add(LineSplitter lines, String file) throws IOException {
      byte[] b = lines.bytes();
      int from = lines.from();
      int to = lines.to();
      // Three commas and no quote at the start of a name: the fields lie between the commas the
      // splitter found. A blank line holds no comma.
      boolean plain = lines.commas() == 3 && b[from] != '"' && b[lines.comma(1) + 1] != '"';
      if (!plain && blank(b, from, to)) {
        return;
      }
      int line = Math.toIntExact(lines.number());
      int p;
      int u;
      int s;
      double v;
      if (plain) {
        s = parseSlice(b, lines.comma(0) + 1, lines.comma(1), file, line);
        v = parseValue(b, lines.comma(2) + 1, to, file, line);
        p = producers.id(b, from, lines.comma(0));
        u = types.id(b, lines.comma(1) + 1, lines.comma(2));
      } else {
        // Quoted names, or a wrong number of fields: the general splitter, which says what is wrong.
        List<String> fields = fields(lines.text(), file, line, 4);
        s = parseSlice(fields.get(1), file, line);
        v = parseValue(fields.get(3), file, line);
        p = producers.id(fields.get(0));
        u = types.id(fields.get(2));
      }
      if (count == producer.length) {
        int grown = count * 2;
        producer = java.util.Arrays.copyOf(producer, grown);
        slice = java.util.Arrays.copyOf(slice, grown);
        type = java.util.Arrays.copyOf(type, grown);
        value = java.util.Arrays.copyOf(value, grown);
        this.line = java.util.Arrays.copyOf(this.line, grown);
      }
      producer[count] = p;
      slice[count] = s;
      type[count] = u;
      value[count] = v;
      this.line[count] = line;
      count++;
      highest = Math.max(highest, s);
    }
  }

  private static boolean blank(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != ' ' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  private static int firstNonSpace(byte[] b, int from, int to) {
    while (from < to && b[from] == ' ') {
      from++;
    }
    return from;
  }

  private static int afterLastNonSpace(byte[] b, int from, int to) {
    while (to > from && b[to - 1] == ' ') {
      to--;
    }
    return to;
  }

  private static int parseSlice(byte[] b, int from, int to, String file, long line) throws ModelFormatException {
    int start = firstNonSpace(b, from, to);
    int end = afterLastNonSpace(b, start, to);
    long slice = 0;
    for (int i = start; i < end; i++) {
      int digit = b[i] - '0';
      if (digit < 0 || digit > 9 || slice > Integer.MAX_VALUE) {
        return parseSlice(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
      }
      slice = slice * 10 + digit;
    }
    if (start == end || slice > Integer.MAX_VALUE) {
      return parseSlice(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    return (int) slice;
  }

  private static double parseValue(byte[] b, int from, int to, String file, long line) throws ModelFormatException {
    double plain = PlainDecimal.parse(b, from, to);
    if (!Double.isNaN(plain)) {
      return plain;
    }
    int start = firstNonSpace(b, from, to);
    int end = afterLastNonSpace(b, start, to);
    double value;
    try {
      value = JavaDoubleParser.parseDouble(b, start, end - start);
    } catch (NumberFormatException e) {
      return parseValue(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    if (!(value >= 0) || Double.isInfinite(value)) {
      return parseValue(new String(b, from, to - from, StandardCharsets.UTF_8), file, line);
    }
    return value;
  }

  private static int parseSlice(String field, String file, long line) throws ModelFormatException {
    try {
      int slice = Integer.parseInt(field.strip());
      if (slice >= 0) {
        return slice;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ModelFormatException(file, line, "expected a slice number ≥ 0, found \"" + field + "\"");
  }

  private static double parseValue(String field, String file, long line) throws ModelFormatException {
    double value;
    try {
      value = Double.parseDouble(field.strip());
    } catch (NumberFormatException e) {
      throw new ModelFormatException(file, line, "expected a number as value, found \"" + field + "\"");
    }
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new ModelFormatException(file, line, "expected a finite value ≥ 0, found " + field.strip());
    }
    return value;
  }

  /** Reads a tree file; children keep the order of their first appearance. */
  public static ProducerTree readTree(Path file) throws IOException {
    String name = file.toString();
    LinkedHashMap<String, String> parents = new LinkedHashMap<>();
    Map<String, Long> lines = new HashMap<>();
    String root = null;
    try (InputStream in = Files.newInputStream(file)) {
      LineSplitter reader = new LineSplitter(in, name);
      requireHeader(reader, name, TREE_HEADER);
      while (reader.next()) {
        long line = reader.number();
        String text = text(reader, name);
        if (text.isBlank()) {
          continue;
        }
        List<String> fields = fields(text, name, line, 2);
        String producer = fields.get(0);
        if (producer.isEmpty()) {
          throw new ModelFormatException(name, line, "expected a producer name, found an empty field");
        }
        if (parents.containsKey(producer)) {
          throw new ModelFormatException(name, line, "producer \"" + producer + "\" already defined on line "
              + lines.get(producer));
        }
        if (fields.get(1).isEmpty()) {
          if (root != null) {
            throw new ModelFormatException(name, line, "second root \"" + producer + "\" (the root is \""
                + root + "\"); only one producer may have an empty parent");
          }
          root = producer;
        }
        parents.put(producer, fields.get(1));
        lines.put(producer, line);
      }
    }
    if (root == null) {
      throw new ModelFormatException(name, "no root: one producer must have an empty parent");
    }
    return order(name, root, parents, lines);
  }

  /**
   * ProducerTree wants every parent numbered before its children. A file that already lists them
   * so, the root first (as {@link #writeTree} writes them), keeps its line order as node ids, so
   * that a model's tree reads back with the ids it was written with (the overview's JSON names
   * nodes by id); any other file is numbered breadth-first from the root.
   */
  private static ProducerTree order(String file, String root, Map<String, String> parents, Map<String, Long> lines)
      throws ModelFormatException {
    Map<String, List<String>> children = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : parents.entrySet()) {
      if (!entry.getValue().isEmpty()) {
        if (!parents.containsKey(entry.getValue())) {
          throw new ModelFormatException(file, lines.get(entry.getKey()),
              "parent \"" + entry.getValue() + "\" of \"" + entry.getKey() + "\" is not defined in the file");
        }
        children.computeIfAbsent(entry.getValue(), k -> new ArrayList<>()).add(entry.getKey());
      }
    }
    List<String> order = new ArrayList<>();
    Map<String, Integer> ids = new HashMap<>();
    if (parentsFirst(root, parents)) {
      order.addAll(parents.keySet());
      for (int i = 0; i < order.size(); i++) {
        ids.put(order.get(i), i);
      }
    } else {
      order.add(root);
      ids.put(root, 0);
      for (int next = 0; next < order.size(); next++) {
        for (String child : children.getOrDefault(order.get(next), List.of())) {
          ids.put(child, order.size());
          order.add(child);
        }
      }
    }
    if (order.size() < parents.size()) {
      String lost = parents.keySet().stream().filter(p -> !ids.containsKey(p)).findFirst().orElseThrow();
      throw new ModelFormatException(file, lines.get(lost), "producer \"" + lost + "\" is on a cycle, not under the root");
    }
    int[] parentIds = new int[order.size()];
    for (int i = 0; i < order.size(); i++) {
      String parent = parents.get(order.get(i));
      parentIds[i] = parent.isEmpty() ? -1 : ids.get(parent);
    }
    return new ProducerTree(order.toArray(new String[0]), parentIds);
  }

  /** Whether the file lists the root first and every producer after its parent (the tree being acyclic then). */
  private static boolean parentsFirst(String root, Map<String, String> parents) {
    Set<String> seen = new HashSet<>();
    for (Map.Entry<String, String> entry : parents.entrySet()) {
      boolean placed = seen.isEmpty() ? entry.getKey().equals(root) : seen.contains(entry.getValue());
      if (!placed) {
        return false;
      }
      seen.add(entry.getKey());
    }
    return true;
  }

  private static void requireHeader(LineSplitter lines, String file, String header) throws IOException {
    String first = lines.next() ? text(lines, file) : null;
    if (first != null && first.startsWith("\uFEFF")) {
      first = first.substring(1);
    }
    if (first == null || !first.strip().equals(header)) {
      throw new ModelFormatException(file, 1, "expected the header \"" + header + "\", found "
          + (first == null ? "an empty file" : "\"" + first + "\""));
    }
  }

  /** The line as text; refused, with its number, when it is not UTF-8. */
  private static String text(LineSplitter lines, String file) throws ModelFormatException {
    try {
      return lines.text();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new ModelFormatException(file, lines.number(), "the line is not UTF-8 text");
    }
  }

  /** Splits one CSV line into exactly {@code count} fields. */
  static List<String> fields(String text, String file, long line, int count) throws ModelFormatException {
    List<String> fields = new ArrayList<>(count);
    StringBuilder field = new StringBuilder();
    int i = 0;
    while (true) {
      if (i < text.length() && text.charAt(i) == '"') {
        i++;
        while (true) {
          if (i >= text.length()) {
            throw new ModelFormatException(file, line, "unterminated quoted field");
          }
          char c = text.charAt(i++);
          if (c == '"') {
            if (i < text.length() && text.charAt(i) == '"') {
              field.append('"');
              i++;
            } else {
              break;
            }
          } else {
            field.append(c);
          }
        }
        if (i < text.length() && text.charAt(i) != ',') {
          throw new ModelFormatException(file, line, "expected a comma after a quoted field at column " + (i + 1));
        }
      } else {
        while (i < text.length() && text.charAt(i) != ',') {
          field.append(text.charAt(i++));
        }
      }
      fields.add(field.toString());
      field.setLength(0);
      if (i >= text.length()) {
        break;
      }
      i++; // the comma
    }
    if (fields.size() != count) {
      throw new ModelFormatException(file, line, "expected " + count + " fields, found " + fields.size());
    }
    return fields;
  }

  /**
   * Writes the model's non-zero cells with exact values (the shortest text that reads back the
   * same double, by Jackson's Schubfach writer: the JDK 17's {@code Double.toString} is neither
   * shortest nor fast), plus the zero cells that keep it whole when read back: every type at the
   * first leaf's slice 0 (type order), the first type at every leaf's slice 0 (leaf order, all-zero
   * leaves) and at the first leaf's last slice (slice count).
   */
  public static void write(MicroscopicModel model, Writer out) throws IOException {
    ProducerTree tree = model.tree();
    String[] types = new String[model.typeCount()];
    for (int u = 0; u < types.length; u++) {
      types[u] = "," + quote(model.types().get(u)) + ",";
    }
    double[] values = model.values();
    StringBuilder text = new StringBuilder(1 << 17).append(MODEL_HEADER).append('\n');
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      String producer = quote(tree.name(tree.leafNode(leaf))) + ",";
      for (int t = 0; t < model.slices(); t++) {
        int base = model.index(leaf, t, 0);
        for (int u = 0; u < types.length; u++) {
          double value = values[base + u];
          boolean declares = (t == 0 && (leaf == 0 || u == 0)) || (leaf == 0 && u == 0 && t == model.slices() - 1);
          if (value != 0 || declares) {
            text.append(producer).append(t).append(types[u]).append(NumberOutput.toString(value, true)).append('\n');
          }
        }
        if (text.length() >= 1 << 16) {
          out.append(text);
          text.setLength(0);
        }
      }
    }
    out.append(text);
  }

  /**
   * Writes every node with its parent, parents first.
   *
   * @throws IllegalArgumentException if two nodes share a name (the file could not tell them apart)
   */
  public static void writeTree(ProducerTree tree, Writer out) throws IOException {
    Set<String> names = new HashSet<>();
    for (int node = 0; node < tree.size(); node++) {
      if (!names.add(tree.name(node))) {
        throw new IllegalArgumentException("two producers are named \"" + tree.name(node)
            + "\"; a tree file needs unique names");
      }
    }
    out.write(TREE_HEADER + "\n");
    for (int node = 0; node < tree.size(); node++) {
      String parent = node == 0 ? "" : quote(tree.name(tree.parent(node)));
      out.write(quote(tree.name(node)) + "," + parent + "\n");
    }
  }

  // The reader goes line by line, so a line break cannot be written even quoted.
  private static String quote(String field) {
    if (field.indexOf('\n') >= 0 || field.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("the name \"" + field + "\" holds a line break; model files cannot carry it");
    }
    return Csv.field(field);
  }
}
