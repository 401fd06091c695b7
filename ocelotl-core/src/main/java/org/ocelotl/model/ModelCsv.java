package org.ocelotl.model;

import java.io.BufferedReader;
import java.io.IOException;
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
    List<Cell> cells = new ArrayList<>();
    LinkedHashMap<String, Integer> types = new LinkedHashMap<>();
    LinkedHashMap<String, Integer> producers = new LinkedHashMap<>();
    int highest = readCells(model, cells, types, producers);
    ProducerTree producerTree = tree == null ? ProducerTree.flat(ROOT, List.copyOf(producers.keySet())) : readTree(tree);
    if (types.isEmpty()) {
      throw new ModelFormatException(model.toString(), "no cells: a model needs at least one event type");
    }
    int n = slices > 0 ? slices : highest + 1;
    Map<String, Integer> leafIndex = new HashMap<>();
    for (int leaf = 0; leaf < producerTree.leafCount(); leaf++) {
      leafIndex.put(producerTree.name(producerTree.leafNode(leaf)), leaf);
    }
    double[] values = new double[producerTree.leafCount() * n * types.size()];
    for (Cell cell : cells) {
      Integer leaf = leafIndex.get(cell.producer);
      if (leaf == null) {
        String why = producerTree.find(cell.producer) >= 0 ? "is not a leaf of the tree (values sit on leaves)"
            : "is not in the tree file " + tree;
        throw new ModelFormatException(model.toString(), cell.line, "producer \"" + cell.producer + "\" " + why);
      }
      if (cell.slice >= n) {
        throw new ModelFormatException(model.toString(), cell.line,
            "slice " + cell.slice + " is beyond the " + n + " slices asked for (0.." + (n - 1) + ")");
      }
      values[(leaf * n + cell.slice) * types.size() + types.get(cell.type)] = cell.value;
    }
    return new MicroscopicModel(producerTree, n, List.copyOf(types.keySet()), values);
  }

  private record Cell(long line, String producer, int slice, String type, double value) {}

  private static int readCells(Path file, List<Cell> cells, Map<String, Integer> types,
      Map<String, Integer> producers) throws IOException {
    String name = file.toString();
    Set<String> seen = new HashSet<>();
    int highest = -1;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      requireHeader(reader, name, MODEL_HEADER);
      long line = 1;
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        line++;
        if (text.isBlank()) {
          continue;
        }
        List<String> fields = fields(text, name, line, 4);
        int slice = parseSlice(fields.get(1), name, line);
        double value = parseValue(fields.get(3), name, line);
        if (!seen.add(fields.get(0) + '\n' + slice + '\n' + fields.get(2))) {
          throw new ModelFormatException(name, line, "second value for producer \"" + fields.get(0)
              + "\", slice " + slice + ", type \"" + fields.get(2) + "\"; each cell may appear once");
        }
        producers.putIfAbsent(fields.get(0), producers.size());
        types.putIfAbsent(fields.get(2), types.size());
        highest = Math.max(highest, slice);
        cells.add(new Cell(line, fields.get(0), slice, fields.get(2), value));
      }
    }
    return highest;
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
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      requireHeader(reader, name, TREE_HEADER);
      long line = 1;
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        line++;
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

  // ProducerTree wants every parent numbered before its children: breadth-first from the root.
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
    order.add(root);
    ids.put(root, 0);
    for (int next = 0; next < order.size(); next++) {
      for (String child : children.getOrDefault(order.get(next), List.of())) {
        ids.put(child, order.size());
        order.add(child);
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

  private static void requireHeader(BufferedReader reader, String file, String header) throws IOException {
    String first = reader.readLine();
    if (first != null && first.startsWith("\uFEFF")) {
      first = first.substring(1);
    }
    if (first == null || !first.strip().equals(header)) {
      throw new ModelFormatException(file, 1, "expected the header \"" + header + "\", found "
          + (first == null ? "an empty file" : "\"" + first + "\""));
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
   * same double), plus the zero cells that keep it whole when read back: every type at the first
   * leaf's slice 0 (type order), the first type at every leaf's slice 0 (leaf order, all-zero
   * leaves) and at the first leaf's last slice (slice count).
   */
  public static void write(MicroscopicModel model, Writer out) throws IOException {
    ProducerTree tree = model.tree();
    out.write(MODEL_HEADER + "\n");
    StringBuilder line = new StringBuilder();
    for (int leaf = 0; leaf < model.leaves(); leaf++) {
      String producer = quote(tree.name(tree.leafNode(leaf)));
      for (int t = 0; t < model.slices(); t++) {
        for (int u = 0; u < model.typeCount(); u++) {
          double value = model.value(leaf, t, u);
          boolean declares = (t == 0 && (leaf == 0 || u == 0)) || (leaf == 0 && u == 0 && t == model.slices() - 1);
          if (value != 0 || declares) {
            line.setLength(0);
            line.append(producer).append(',').append(t).append(',').append(quote(model.types().get(u)))
                .append(',').append(value).append('\n');
            out.write(line.toString());
          }
        }
      }
    }
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
    if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && !field.isEmpty()) {
      return field;
    }
    return '"' + field.replace("\"", "\"\"") + '"';
  }
}
