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
 * mark in its dominant type's colour with that type's share of the time as opacity. Events become
 * one tick per row and pixel column (with their count), links one arrow per pair of rows and pixel
 * columns, variables one step per row, type and pixel column (the last value of the column).
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
  private final VisualRows rows;
  private final List<Gantt.Shape> shapes = new ArrayList<>();
  /** Per row, per pixel column, per type: time covered by narrow states. */
  private final Map<Long, double[]> narrow = new HashMap<>();
  private final Map<Long, Integer> narrowCount = new HashMap<>();
  private final Map<Long, int[]> ticks = new HashMap<>();
  private final Map<String, Integer> arrows = new HashMap<>();
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
    this.rows = VisualRows.of(tree, pixelHeight / tree.leafCount(), thresholdPx);
    this.variableMax = new double[types.size()];
  }

  private double x(double t) {
    return Math.max(0, Math.min(1, (t - window.start()) / (window.end() - window.start())));
  }

  private int column(double t) {
    return (int) Math.min(columns - 1, Math.floor(x(t) * columns));
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
      case LINK -> arrows.merge(row + " " + rows.rowOfLeaf(toLeaf) + " " + column(start) + " " + column(end) + " "
          + type + " " + leaf + " " + toLeaf, 1, Integer::sum);
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
      shapes.add(new Gantt.Shape(Gantt.Kind.STATE, x0, top + inset, x1, top + height - inset, colours.get(type), 1, type,
          depth, 1, start, end, paths.get(tree.leafNode(leaf)), null, Double.NaN));
      return;
    }
    // Narrower than a pixel, or several producers in one row: summed per pixel column.
    summarised = true;
    for (int c = column(start); c <= column(end); c++) {
      double from = Math.max(start, window.start() + (window.end() - window.start()) * c / columns);
      double to = Math.min(end, window.start() + (window.end() - window.start()) * (c + 1) / columns);
      if (to <= from && !(start == end && c == column(start))) {
        continue; // ends on this column's first boundary: not in it (an instant state is, once)
      }
      long k = key(row, c);
      narrow.computeIfAbsent(k, z -> new double[typeNames.size()])[type] += Math.max(0, to - from);
      narrowCount.merge(k, 1, Integer::sum);
    }
  }

  public Gantt build() {
    List<Gantt.Shape> all = new ArrayList<>(shapes);
    Long[] summaryKeys = narrow.keySet().toArray(Long[]::new);
    Arrays.sort(summaryKeys);
    for (long k : summaryKeys) {
      double[] byType = narrow.get(k);
      int row = (int) (k / columns);
      int c = (int) (k % columns);
      int dominant = 0;
      double total = 0;
      for (int u = 0; u < byType.length; u++) {
        total += byType[u];
        dominant = byType[u] > byType[dominant] ? u : dominant;
      }
      double share = total > 0 ? byType[dominant] / total : 1;
      all.add(new Gantt.Shape(Gantt.Kind.SUMMARY, (double) c / columns, rowTop(row), (double) (c + 1) / columns,
          rowBottom(row), colours.get(dominant), share, dominant, 0, narrowCount.get(k),
          window.start() + (window.end() - window.start()) * c / columns,
          window.start() + (window.end() - window.start()) * (c + 1) / columns, paths.get(rows.node(row)), null,
          Double.NaN));
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
    String[] arrowKeys = arrows.keySet().toArray(String[]::new);
    Arrays.sort(arrowKeys);
    for (String k : arrowKeys) {
      String[] f = k.split(" ");
      int from = Integer.parseInt(f[0]);
      int to = Integer.parseInt(f[1]);
      int type = Integer.parseInt(f[4]);
      all.add(new Gantt.Shape(Gantt.Kind.LINK, (Integer.parseInt(f[2]) + 0.5) / columns, (rowTop(from) + rowBottom(from)) / 2,
          (Integer.parseInt(f[3]) + 0.5) / columns, (rowTop(to) + rowBottom(to)) / 2, colours.get(type), 1, type, 0,
          arrows.get(k), Double.NaN, Double.NaN, paths.get(tree.leafNode(Integer.parseInt(f[5]))),
          paths.get(tree.leafNode(Integer.parseInt(f[6]))), Double.NaN));
    }
    Long[] stepKeys = steps.keySet().toArray(Long[]::new);
    Arrays.sort(stepKeys);
    for (long k : stepKeys) {
      double[] step = steps.get(k);
      int type = (int) (k % typeNames.size());
      long rc = k / typeNames.size();
      int row = (int) (rc / columns);
      int c = (int) (rc % columns);
      double level = variableMax[type] > 0 ? Math.abs(step[0]) / variableMax[type] : 0;
      double y = rowBottom(row) - level * (rowBottom(row) - rowTop(row)) * 0.9;
      all.add(new Gantt.Shape(Gantt.Kind.VARIABLE, (double) c / columns, y, (double) (c + 1) / columns, y,
          colours.get(type), 1, type, 0, 1, step[2], step[3], paths.get(tree.leafNode((int) step[1])), null, step[0]));
    }
    List<LegendEntry> legend = new ArrayList<>();
    for (int u = 0; u < typeNames.size(); u++) {
      legend.add(new LegendEntry(u, typeNames.get(u), colours.get(u)));
    }
    return new Gantt(window, rows.axis(tree, noMarks()), all, summarised, legend);
  }

  private Mark[] noMarks() {
    Mark[] marks = new Mark[rows.count()];
    Arrays.fill(marks, Mark.NONE);
    return marks;
  }
}
