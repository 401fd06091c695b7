package org.ocelotl.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The aggregated squarified treemap (VIVA): the producer tree down to a cut, every node's area
 * proportional to its value over the shown slices, each shown node coloured by its mode type
 * with the mode's share as opacity, as in the overview.
 *
 * <p>The cut is the spatial partition at p (its parts are tree nodes covering every leaf once)
 * or the nodes at a depth. A shown node with several leaves is a data aggregate (dashed outline
 * and its name); a group's children that would be smaller than the pixel threshold are drawn
 * together as one hatched cell beside the others (visual aggregation), so the two never look
 * alike and one small child never hides its large siblings.
 *
 * <p>Stable layout: children are laid out in the order of their values over the whole window
 * (largest first), whichever slices are shown, so stepping through time moves a node only as
 * far as its changing area forces it to.
 */
public final class TreemapGeometry {
  private final MicroscopicModel model;
  private final ProducerTree tree;
  private final boolean[] cut;
  private final double[][] shown; // per node, per type: value over the shown slices
  private final double[] order;   // per node: value over the window (the layout order)
  private final List<String> colours;
  private final double widthPx;
  private final double heightPx;
  private final double thresholdPx;
  private final List<TreemapCell> cells = new ArrayList<>();
  /** The root's name in the spatial views. */
  public static final String ROOT = "all producers";

  private TreemapGeometry(MicroscopicModel model, boolean[] cut, int firstSlice, int lastSlice,
      List<String> colours, double widthPx, double heightPx, double thresholdPx) {
    this.model = model;
    this.tree = model.tree();
    this.cut = cut;
    this.shown = nodeSums(model, firstSlice, lastSlice);
    double[][] window = nodeSums(model, 0, model.slices() - 1);
    this.order = new double[tree.size()];
    for (int node = 0; node < tree.size(); node++) {
      order[node] = Arrays.stream(window[node]).sum();
    }
    this.colours = colours;
    this.widthPx = widthPx;
    this.heightPx = heightPx;
    this.thresholdPx = thresholdPx;
  }

  /** The cut of a spatial partition: its parts' nodes. */
  public static boolean[] cutOf(ProducerTree tree, Partition spatial) {
    boolean[] cut = new boolean[tree.size()];
    for (Part part : spatial.parts()) {
      cut[part.node()] = true;
    }
    return cut;
  }

  /** The cut at a depth: every node at that depth, and the leaves above it. */
  public static boolean[] cutAtDepth(ProducerTree tree, int depth) {
    boolean[] cut = new boolean[tree.size()];
    for (int node = 0; node < tree.size(); node++) {
      cut[node] = tree.depth(node) == depth || tree.isLeaf(node) && tree.depth(node) < depth;
    }
    return cut;
  }

  /**
   * The treemap of slices [firstSlice, lastSlice] of a model for a cut.
   *
   * @param cut          nodes shown as they are, covering every leaf exactly once
   * @param widthPx      drawing width in pixels: with the height, the shape of the unit square
   * @param heightPx     drawing height in pixels
   * @param thresholdPx  a group whose child would have a side below this is drawn as one cell
   */
  public static Treemap build(MicroscopicModel model, boolean[] cut, int firstSlice, int lastSlice,
      TimeWindow window, List<String> traceColours, double widthPx, double heightPx, double thresholdPx) {
    ProducerTree tree = model.tree();
    checkCut(tree, cut);
    if (!(widthPx > 0 && heightPx > 0)) {
      throw new IllegalArgumentException("a treemap needs a positive size, got " + widthPx + " × " + heightPx);
    }
    if (firstSlice < 0 || lastSlice < firstSlice || lastSlice >= model.slices()) {
      throw new IllegalArgumentException("the shown slices must lie in [0, " + (model.slices() - 1)
          + "], got [" + firstSlice + ", " + lastSlice + "]");
    }
    List<String> colours = Palette.typeColours(model.types(), traceColours);
    TreemapGeometry g = new TreemapGeometry(model, cut, firstSlice, lastSlice, colours, widthPx, heightPx,
        thresholdPx);
    double total = Arrays.stream(g.shown[0]).sum();
    if (total > 0) {
      g.draw(0, new Rect(0, 0, widthPx, heightPx)); // laid out in pixels: squares must look square
    }
    List<LegendEntry> legend = new ArrayList<>();
    for (int u = 0; u < model.typeCount(); u++) {
      legend.add(new LegendEntry(u, model.types().get(u), colours.get(u)));
    }
    List<Integer> cutNodes = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      if (cut[node]) {
        cutNodes.add(node);
      }
    }
    String note = total == 0 ? "no value in the shown slices: nothing to draw"
        : tree.height() <= 1 ? "the trace has no hierarchy above its producers: the treemap is flat" : "";
    return new Treemap(window, model.slices(), firstSlice, lastSlice, total, cutNodes, g.cells, legend, note);
  }

  private static void checkCut(ProducerTree tree, boolean[] cut) {
    if (cut.length != tree.size()) {
      throw new IllegalArgumentException("a cut needs one flag per node: " + tree.size() + " nodes, " + cut.length);
    }
    int[] covered = new int[tree.leafCount()];
    for (int node = 0; node < tree.size(); node++) {
      if (cut[node]) {
        for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
          covered[leaf]++;
        }
      }
    }
    for (int leaf = 0; leaf < covered.length; leaf++) {
      if (covered[leaf] != 1) {
        throw new IllegalArgumentException("a cut must cover every leaf once; "
            + tree.name(tree.leafNode(leaf)) + " is covered " + covered[leaf] + " times");
      }
    }
  }

  /** Σ over the leaves under each node and the slices [first, last], per type. */
  private static double[][] nodeSums(MicroscopicModel model, int first, int last) {
    ProducerTree tree = model.tree();
    int types = model.typeCount();
    double[][] sums = new double[tree.size()][types];
    double[] values = model.values();
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      double[] row = sums[tree.leafNode(leaf)];
      for (int i = model.index(leaf, first, 0); i < model.index(leaf, last, 0) + types; i++) {
        row[i % types] += values[i];
      }
    }
    // Children come after their parents: one backward pass folds the sums up the tree.
    for (int node = tree.size() - 1; node > 0; node--) {
      double[] parent = sums[tree.parent(node)];
      for (int u = 0; u < types; u++) {
        parent[u] += sums[node][u];
      }
    }
    return sums;
  }

  private void draw(int node, Rect r) {
    if (cut[node]) {
      cells.add(cell(node, r, tree.isLeaf(node) ? TreemapCell.Kind.PRODUCER : TreemapCell.Kind.AGGREGATE, 1));
      return;
    }
    int[] children = childrenInOrder(node);
    double[] values = new double[children.length];
    for (int i = 0; i < children.length; i++) {
      values[i] = Arrays.stream(shown[children[i]]).sum();
    }
    // Children too small to draw go together into one hatched cell laid out after the others;
    // the others are drawn. Taking one out changes the layout, so this repeats until it holds.
    boolean[] small = new boolean[children.length];
    Rect[] rects = Squarified.layout(values, r);
    Rect rest = null;
    for (boolean changed = true; changed; ) {
      changed = false;
      for (int i = 0; i < children.length; i++) {
        if (!small[i] && values[i] > 0 && Math.min(rects[i].w(), rects[i].h()) < thresholdPx) {
          small[i] = true;
          changed = true;
        }
      }
      if (changed) {
        double[] kept = new double[children.length + 1];
        for (int i = 0; i < children.length; i++) {
          kept[small[i] ? children.length : i] += values[i];
        }
        Rect[] laid = Squarified.layout(kept, r);
        rects = Arrays.copyOf(laid, children.length);
        rest = laid[children.length];
      }
    }
    int drawn = 0;
    for (int i = 0; i < children.length; i++) {
      drawn += values[i] > 0 && !small[i] ? 1 : 0;
    }
    if (drawn == 0 && rest != null) { // nothing under the node can be told apart: the node is the one cell
      cells.add(cell(node, r, TreemapCell.Kind.VISUAL, shownUnder(node)));
      return;
    }
    cells.add(cell(node, r, TreemapCell.Kind.GROUP, 1));
    for (int i = 0; i < children.length; i++) {
      if (values[i] > 0 && !small[i]) {
        draw(children[i], rects[i]);
      }
    }
    if (rest != null) {
      cells.add(rest(node, children, small, rest));
    }
  }

  /** The hatched cell of a group's children too small to draw: their sums, and how many shown nodes they hold. */
  private TreemapCell rest(int node, int[] children, boolean[] small, Rect r) {
    double[] sums = new double[model.typeCount()];
    int hidden = 0;
    int leaves = 0;
    for (int i = 0; i < children.length; i++) {
      if (small[i]) {
        for (int u = 0; u < sums.length; u++) {
          sums[u] += shown[children[i]][u];
        }
        hidden += shownUnder(children[i]);
        leaves += tree.leafCount(children[i]);
      }
    }
    return cell(node, r, TreemapCell.Kind.VISUAL, hidden, sums, leaves);
  }

  /** Children by decreasing value over the window; ties by node id, so the order is total. */
  private int[] childrenInOrder(int node) {
    return Arrays.stream(tree.children(node)).boxed()
        .sorted((a, b) -> order[a] != order[b] ? Double.compare(order[b], order[a]) : Integer.compare(a, b))
        .mapToInt(Integer::intValue).toArray();
  }

  /** Shown nodes of the cut with a value under a node. */
  private int shownUnder(int node) {
    if (cut[node]) {
      return Arrays.stream(shown[node]).sum() > 0 ? 1 : 0;
    }
    int count = 0;
    for (int child : tree.children(node)) {
      count += shownUnder(child);
    }
    return count;
  }

  private TreemapCell cell(int node, Rect r, TreemapCell.Kind kind, int hidden) {
    return cell(node, r, kind, hidden, shown[node], tree.leafCount(node));
  }

  private TreemapCell cell(int node, Rect r, TreemapCell.Kind kind, int hidden, double[] sums, int leaves) {
    double total = Arrays.stream(sums).sum();
    Integer[] byValue = new Integer[sums.length];
    for (int u = 0; u < sums.length; u++) {
      byValue[u] = u;
    }
    Arrays.sort(byValue, (a, b) -> sums[a] != sums[b] ? Double.compare(sums[b], sums[a]) : Integer.compare(a, b));
    List<TypeShare> types = new ArrayList<>();
    for (int u : byValue) {
      if (sums[u] > 0) {
        types.add(new TypeShare(model.types().get(u), sums[u], sums[u] / total));
      }
    }
    int mode = types.isEmpty() ? -1 : byValue[0];
    String colour = kind == TreemapCell.Kind.GROUP ? "" : mode < 0 ? Palette.EMPTY : colours.get(mode);
    double opacity = mode < 0 ? 1 : sums[mode] / total;
    return new TreemapCell(node, name(tree, node), path(node), tree.depth(node), kind, r.x() / widthPx,
        r.y() / heightPx, (r.x() + r.w()) / widthPx, (r.y() + r.h()) / heightPx, total, leaves, hidden, mode, colour,
        opacity, types);
  }

  /**
   * A node's name as the spatial views show it: the root's is a format's placeholder (Pajé's
   * "0"), so it is shown as {@link #ROOT}.
   */
  static String name(ProducerTree tree, int node) {
    return node == 0 ? ROOT : tree.name(node);
  }

  private String path(int node) {
    if (node == 0) {
      return tree.name(0);
    }
    StringBuilder path = new StringBuilder(tree.name(node));
    for (int n = tree.parent(node); n > 0; n = tree.parent(n)) {
      path.insert(0, tree.name(n) + "/");
    }
    return path.toString();
  }
}
