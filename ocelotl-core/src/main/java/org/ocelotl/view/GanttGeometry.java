package org.ocelotl.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.ProducerTree;

/**
 * Builds a {@link Gantt} from records fed one at a time ({@link #add}), so that a caller can stream
 * a window of any size: what is kept is bounded by what is visible. Rows are the overview's rows
 * (the same visual aggregation of the producer tree for the same height), so an aggregate's rows
 * line up with the overview's.
 *
 * <p>Level of detail: a state at least one pixel wide is drawn as itself, inset by its depth; the
 * narrower ones of a row are summed per pixel column and type, and each column becomes one summary
 * mark in its dominant type's colour with that type's share of the time as opacity. Neighbouring
 * columns that would look the same (same dominant type, same opacity to 1/{@value #OPACITY_LEVELS})
 * are one mark spanning them, with their summed records and time-weighted share: a long phase
 * summarised is one mark, not one per pixel, so the chart's size follows what changes on the
 * screen. Events become
 * one tick per row and pixel column (with their count), links one arrow per pair of rows and pixel
 * columns (named by their producers when they all share them, else by the rows), variables one
 * step per row, type and pixel column (the last value of the column), neighbouring columns of one
 * value joined.
 *
 * <p>Every record's marks depend on its row only, so that geometries fed the records of disjoint
 * rows — one per core — {@link #merge} into the chart a single one fed them all would draw,
 * shape for shape and in the same order (by row, then record order).
 */
public final class GanttGeometry {
  /** Height of a row's band taken by one level of nesting (nested states are drawn inside). */
  static final double DEPTH_INSET = 0.15;

  private final ProducerTree tree;
  private final List<String> paths;
  private final List<String> typeNames;
  private final List<String> colours;
  private final TimeWindow window;
  private final int columns;
  /** The pixel columns' bounds in time, columns + 1 of them: a state's cost is a few look-ups, not divisions. */
  private final double[] edges;
  private final VisualRows rows;
  /** Per row (made when it gets one): the states drawn as themselves, in record order. */
  private final List<Gantt.Shape>[] shapes;
  /** Opacity steps below which neighbouring summary columns are told apart. */
  static final int OPACITY_LEVELS = 10;
  /** Per row (allocated when it gets one): per pixel column × type, time covered by narrow states. */
  private final double[][] narrow;
  /** Per row: per pixel column × type, how many narrow states start there. */
  private final int[][] narrowCount;
  private final Map<Long, int[]> ticks = new HashMap<>();
  /** Links by rows, pixel columns and type: count, source leaf and destination leaf (-1 once they differ). */
  private final Map<ArrowKey, int[]> arrows = new HashMap<>();
  private final Map<Long, double[]> steps = new HashMap<>();
  private final double[] variableMax;
  private boolean summarised;

  /**
   * @param tree         the producer tree whose leaves the records' {@code leaf} numbers
   * @param types        the event types' names, by the records' {@code type}
   * @param traceColours null, or one per type: null or "r g b"
   * @param pixelWidth   width of the chart in pixels: what a pixel column is
   * @param pixelHeight  height in pixels: which producers are too thin to be rows
   */
  public GanttGeometry(ProducerTree tree, List<String> types, List<String> traceColours, TimeWindow window,
      double pixelWidth, double pixelHeight, double thresholdPx) {
    if (!(pixelWidth >= 1) || !(pixelHeight > 0)) {
      throw new IllegalArgumentException("a Gantt chart needs a width ≥ 1 and a height > 0 pixels");
    }
    this.tree = tree;
    this.paths = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      paths.add(tree.path(node));
    }
    this.typeNames = List.copyOf(types);
    this.colours = Palette.typeColours(types, traceColours);
    this.window = window;
    this.columns = (int) Math.ceil(pixelWidth);
    this.edges = new double[columns + 1];
    for (int c = 0; c <= columns; c++) {
      edges[c] = window.start() + (window.end() - window.start()) * c / columns;
    }
    this.rows = VisualRows.of(tree, pixelHeight / tree.leafCount(), thresholdPx);
    this.variableMax = new double[types.size()];
    this.narrow = new double[rows.count()][];
    this.narrowCount = new int[rows.count()][];
    @SuppressWarnings("unchecked")
    List<Gantt.Shape>[] perRow = new List[rows.count()];
    this.shapes = perRow;
  }

  /** The rows: what {@link #rowOfLeaf} numbers. */
  public int rowCount() {
    return rows.count();
  }

  /** The row a leaf's records are drawn in. */
  public int rowOfLeaf(int leaf) {
    return rows.rowOfLeaf(leaf);
  }

  /** The pixel columns: column c is [start + (end − start)·c/columns, … (c + 1)/columns) of the window. */
  public int columns() {
    return columns;
  }

  /** Whether a row is one producer's: only there are states a pixel wide or more drawn as themselves. */
  public boolean ownRow(int row) {
    return tree.leafCount(rows.node(row)) == 1;
  }

  /**
   * The states of a row of several producers, summed elsewhere as {@link #add} would sum them (the
   * model's scan kernel over a grid of the chart's pixel columns, on every core): per column × types
   * + type, the time inside the column and the states begun in it (those begun before the window
   * in the first column). The row's states are then fed no other way.
   */
  public void addSummedStates(int row, double[] time, double[] begun) {
    int cells = columns * typeNames.size();
    if (ownRow(row) || narrow[row] != null || time.length != cells || begun.length != cells) {
      throw new IllegalArgumentException("summed states are for a row of several producers not fed states yet, "
          + cells + " cells");
    }
    narrow[row] = time.clone();
    narrowCount[row] = new int[cells];
    for (int k = 0; k < cells; k++) {
      narrowCount[row][k] = (int) begun[k];
      summarised |= begun[k] > 0;
    }
  }

  /**
   * Takes in what {@code other}, a geometry of the same chart, was fed: records of other rows
   * (links by their source's row) than this one's.
   *
   * @throws IllegalArgumentException when both were fed records of one row
   */
  public void merge(GanttGeometry other) {
    if (other.columns != columns || other.rows.count() != rows.count() || other.typeNames.size() != typeNames.size()) {
      throw new IllegalArgumentException("merged Gantt geometries must be of the same chart");
    }
    for (int row = 0; row < rows.count(); row++) {
      boolean theirs = other.shapes[row] != null || other.narrow[row] != null;
      if (theirs && (shapes[row] != null || narrow[row] != null)) {
        throw new IllegalArgumentException("both Gantt geometries hold records of row " + row);
      }
      if (theirs) {
        shapes[row] = other.shapes[row];
        narrow[row] = other.narrow[row];
        narrowCount[row] = other.narrowCount[row];
      }
    }
    ticks.putAll(other.ticks);
    arrows.putAll(other.arrows);
    steps.putAll(other.steps);
    for (int u = 0; u < variableMax.length; u++) {
      variableMax[u] = Math.max(variableMax[u], other.variableMax[u]);
    }
    summarised |= other.summarised;
  }

  private double x(double t) {
    return Math.max(0, Math.min(1, (t - window.start()) / (window.end() - window.start())));
  }

  private int column(double t) {
    return columnAt(x(t));
  }

  private int columnAt(double x) {
    return (int) Math.min(columns - 1, Math.floor(x * columns));
  }

  private double rowTop(int row) {
    return (double) tree.firstLeaf(rows.node(row)) / tree.leafCount();
  }

  private double rowBottom(int row) {
    int node = rows.node(row);
    return (double) (tree.firstLeaf(node) + tree.leafCount(node)) / tree.leafCount();
  }

  /** One record: its leaf (and a link's destination leaf, else -1), kind, type, times, depth, value. */
  public void add(EventCategory kind, int leaf, int type, double start, double end, int depth, double value, int toLeaf) {
    int row = rows.rowOfLeaf(leaf);
    switch (kind) {
      case STATE -> addState(row, leaf, type, start, end, depth);
      case EVENT -> {
        int[] tick = ticks.computeIfAbsent(key(row, column(start)), k -> new int[] {type, 0, leaf});
        tick[1]++;
      }
      case LINK -> {
        int[] arrow = arrows.computeIfAbsent(new ArrowKey(row, rows.rowOfLeaf(toLeaf), column(start), column(end), type),
            k -> new int[] {0, leaf, toLeaf});
        arrow[0]++;
        arrow[1] = arrow[1] == leaf ? leaf : -1;
        arrow[2] = arrow[2] == toLeaf ? toLeaf : -1;
      }
      case VARIABLE -> {
        variableMax[type] = Math.max(variableMax[type], Math.abs(value));
        for (int c = column(start); c <= column(Math.max(start, end - 1e-12 * (window.end() - window.start()))); c++) {
          steps.put(key(row, c) * typeNames.size() + type, new double[] {value, leaf, start, end});
        }
      }
      default -> throw new AssertionError(kind);
    }
  }

  private long key(int row, int column) {
    return (long) row * columns + column;
  }

  private void addState(int row, int leaf, int type, double start, double end, int depth) {
    double x0 = x(start);
    double x1 = x(end);
    boolean ownRow = tree.leafCount(rows.node(row)) == 1;
    if ((x1 - x0) * columns >= 1 && ownRow) {
      double top = rowTop(row);
      double height = rowBottom(row) - top;
      double inset = Math.min(depth * DEPTH_INSET, 0.45) * height;
      if (shapes[row] == null) {
        shapes[row] = new ArrayList<>();
      }
      shapes[row].add(new Gantt.Shape(Gantt.Kind.STATE, x0, top + inset, x1, top + height - inset, colours.get(type), 1, type,
          depth, 1, start, end, paths.get(tree.leafNode(leaf)), null, Double.NaN));
      return;
    }
    // Narrower than a pixel, or several producers in one row: summed per pixel column.
    summarised = true;
    int types = typeNames.size();
    if (narrow[row] == null) {
      narrow[row] = new double[columns * types];
      narrowCount[row] = new int[columns * types];
    }
    int first = columnAt(x0);
    int last = columnAt(x1);
    double[] time = narrow[row];
    narrowCount[row][first * types + type]++;
    for (int c = first; c <= last; c++) {
      double from = Math.max(start, edges[c]);
      double to = Math.min(end, edges[c + 1]);
      if (to <= from && !(start == end && c == first)) {
        continue; // ends on this column's first boundary: not in it (an instant state is, once)
      }
      time[c * types + type] += Math.max(0, to - from);
    }
  }

  /** The summary marks of one row: runs of columns that look the same. */
  private void addSummaries(int row, List<Gantt.Shape> all) {
    double[] time = narrow[row];
    int[] count = narrowCount[row];
    int types = typeNames.size();
    int c = 0;
    while (c < columns) {
      int dominant = dominant(time, count, c, types);
      if (dominant < 0) {
        c++;
        continue;
      }
      int level = level(time, c, types, dominant);
      int last = c;
      double dominantTime = time[c * types + dominant];
      double total = total(time, c, types);
      int records = records(count, c, types);
      while (last + 1 < columns && dominant(time, count, last + 1, types) == dominant
          && level(time, last + 1, types, dominant) == level) {
        last++;
        dominantTime += time[last * types + dominant];
        total += total(time, last, types);
        records += records(count, last, types);
      }
      double share = total > 0 ? dominantTime / total : 1;
      all.add(new Gantt.Shape(Gantt.Kind.SUMMARY, (double) c / columns, rowTop(row), (double) (last + 1) / columns,
          rowBottom(row), colours.get(dominant), share, dominant, 0, records, edges[c], edges[last + 1],
          paths.get(rows.node(row)), null, Double.NaN));
      c = last + 1;
    }
  }

  /**
   * The type covering most of a column (the first on ties); in a column of instants only, the type
   * with the most of them; -1 for a column no narrow state touches.
   */
  private static int dominant(double[] time, int[] count, int column, int types) {
    int best = -1;
    for (int u = 0; u < types; u++) {
      double t = time[column * types + u];
      if (t > 0 && (best < 0 || t > time[column * types + best])) {
        best = u;
      }
    }
    for (int u = 0; best < 0 && u < types; u++) {
      best = count[column * types + u] > 0 ? u : -1;
    }
    return best;
  }

  private static int records(int[] count, int column, int types) {
    int records = 0;
    for (int u = 0; u < types; u++) {
      records += count[column * types + u];
    }
    return records;
  }

  private static double total(double[] time, int column, int types) {
    double total = 0;
    for (int u = 0; u < types; u++) {
      total += time[column * types + u];
    }
    return total;
  }

  private static int level(double[] time, int column, int types, int dominant) {
    double total = total(time, column, types);
    return total > 0 ? (int) Math.round(time[column * types + dominant] / total * OPACITY_LEVELS) : OPACITY_LEVELS;
  }

  public Gantt build() {
    List<Gantt.Shape> all = new ArrayList<>();
    for (List<Gantt.Shape> row : shapes) {
      if (row != null) {
        all.addAll(row);
      }
    }
    for (int row = 0; row < narrow.length; row++) {
      if (narrow[row] != null) {
        addSummaries(row, all);
      }
    }
    Long[] tickKeys = ticks.keySet().toArray(Long[]::new);
    Arrays.sort(tickKeys);
    for (long k : tickKeys) {
      int[] tick = ticks.get(k);
      int row = (int) (k / columns);
      double x = ((k % columns) + 0.5) / columns;
      all.add(new Gantt.Shape(Gantt.Kind.EVENT, x, rowTop(row), x, rowBottom(row), colours.get(tick[0]), 1, tick[0], 0,
          tick[1], Double.NaN, Double.NaN, paths.get(tick[1] == 1 ? tree.leafNode(tick[2]) : rows.node(row)), null,
          Double.NaN));
    }
    ArrowKey[] arrowKeys = arrows.keySet().toArray(ArrowKey[]::new);
    Arrays.sort(arrowKeys);
    for (ArrowKey k : arrowKeys) {
      int[] arrow = arrows.get(k);
      all.add(new Gantt.Shape(Gantt.Kind.LINK, (k.fromColumn() + 0.5) / columns,
          (rowTop(k.fromRow()) + rowBottom(k.fromRow())) / 2, (k.toColumn() + 0.5) / columns,
          (rowTop(k.toRow()) + rowBottom(k.toRow())) / 2, colours.get(k.type()), 1, k.type(), 0, arrow[0], Double.NaN,
          Double.NaN, arrow[1] >= 0 ? paths.get(tree.leafNode(arrow[1])) : paths.get(rows.node(k.fromRow())),
          arrow[2] >= 0 ? paths.get(tree.leafNode(arrow[2])) : paths.get(rows.node(k.toRow())), Double.NaN));
    }
    // By row, type, column: a value held over neighbouring columns is one segment.
    int types = typeNames.size();
    Long[] stepKeys = steps.keySet().toArray(Long[]::new);
    Arrays.sort(stepKeys, java.util.Comparator.comparingLong((Long k) -> k / types / columns)
        .thenComparingLong(k -> k % types).thenComparingLong(k -> k / types % columns));
    for (int i = 0; i < stepKeys.length; ) {
      long k = stepKeys[i];
      double[] step = steps.get(k);
      int type = (int) (k % types);
      int row = (int) (k / types / columns);
      int c = (int) (k / types % columns);
      int last = c;
      double end = step[3];
      int j = i + 1;
      while (j < stepKeys.length && stepKeys[j] == key(row, last + 1) * types + type
          && steps.get(stepKeys[j])[0] == step[0] && steps.get(stepKeys[j])[1] == step[1]) {
        end = steps.get(stepKeys[j])[3];
        last++;
        j++;
      }
      double level = variableMax[type] > 0 ? Math.abs(step[0]) / variableMax[type] : 0;
      double y = rowBottom(row) - level * (rowBottom(row) - rowTop(row)) * 0.9;
      all.add(new Gantt.Shape(Gantt.Kind.VARIABLE, (double) c / columns, y, (double) (last + 1) / columns, y,
          colours.get(type), 1, type, 0, 1, step[2], end, paths.get(tree.leafNode((int) step[1])), null, step[0]));
      i = j;
    }
    List<LegendEntry> legend = new ArrayList<>();
    for (int u = 0; u < typeNames.size(); u++) {
      legend.add(new LegendEntry(u, typeNames.get(u), colours.get(u)));
    }
    return new Gantt(window, rows.axis(tree, noMarks()), all, summarised, legend);
  }

  /** The links of one arrow: same rows, same pixel columns, same type. */
  private record ArrowKey(int fromRow, int toRow, int fromColumn, int toColumn, int type)
      implements Comparable<ArrowKey> {
    @Override
    public int compareTo(ArrowKey o) {
      int c = Integer.compare(fromRow, o.fromRow);
      c = c != 0 ? c : Integer.compare(toRow, o.toRow);
      c = c != 0 ? c : Integer.compare(fromColumn, o.fromColumn);
      c = c != 0 ? c : Integer.compare(toColumn, o.toColumn);
      return c != 0 ? c : Integer.compare(type, o.type);
    }
  }

  private Mark[] noMarks() {
    Mark[] marks = new Mark[rows.count()];
    Arrays.fill(marks, Mark.NONE);
    return marks;
  }
}
