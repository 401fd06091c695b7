package org.ocelotl.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * Turns a microscopic model and a partition into the {@link Overview} of one view (SPEC.md §6).
 *
 * <p>Pixels enter in one place only: the overview's height in pixels and a threshold, which
 * decide which producers are too thin to draw (visual aggregation) and which stacked layers are
 * too thin to draw (merged layer). Every coordinate of the result is in [0, 1].
 */
public final class OverviewGeometry {
  /**
   * Producers (and stacked layers) drawn thinner than this many pixels are aggregated visually:
   * below it a row cannot show its colour and opacity. Every front end uses this one value.
   */
  public static final double VISUAL_THRESHOLD_PX = 4;
  /** A non-zero single-type block stays visible however small its value. */
  static final double MIN_SINGLE_TYPE_OPACITY = 0.06;
  private final MicroscopicModel model;
  private final ProducerTree tree;
  private final TimeWindow window;
  private final List<String> colours;
  private final double largestCell;

  private OverviewGeometry(MicroscopicModel model, TimeWindow window, List<String> colours) {
    this.model = model;
    this.tree = model.tree();
    this.window = window;
    this.colours = colours;
    this.largestCell = Arrays.stream(model.values()).max().orElse(0);
  }

  /**
   * The geometry of one view.
   *
   * @param traceColours null, or one entry per type of the model: null or "r g b" in [0, 1]
   * @param pixelHeight  height of the overview area in pixels
   * @param thresholdPx  producers (and stacked layers) drawn thinner than this are aggregated
   * @throws IllegalArgumentException if the partition does not tile the model as the view needs
   */
  public static Overview build(MicroscopicModel model, Partition partition, ViewKind view,
      TimeWindow window, List<String> traceColours, double pixelHeight, double thresholdPx) {
    if (!(pixelHeight > 0) || !(thresholdPx >= 0)) {
      throw new IllegalArgumentException("need a positive pixel height and a threshold ≥ 0, got "
          + pixelHeight + " and " + thresholdPx);
    }
    checkTiling(model, partition, view);
    List<String> colours = Palette.typeColours(model.types(), traceColours);
    List<LegendEntry> legend = new ArrayList<>();
    for (int u = 0; u < model.typeCount(); u++) {
      legend.add(new LegendEntry(u, model.types().get(u), colours.get(u)));
    }
    OverviewGeometry g = new OverviewGeometry(model, window, colours);
    return switch (view) {
      case TEMPORAL_PARTITION, TEMPORAL_MODE -> new Overview(view, window, model.leaves(),
          model.slices(), g.temporalBlocks(partition, view), List.of(), 0, legend);
      case TEMPORAL_STACKED -> g.stacked(partition, legend, pixelHeight, thresholdPx);
      case SPATIOTEMPORAL_PARTITION, SPATIOTEMPORAL_MODE ->
          g.spatiotemporal(partition, view, legend, pixelHeight, thresholdPx);
    };
  }

  // ---- checks ---------------------------------------------------------------------------

  private static void checkTiling(MicroscopicModel model, Partition partition, ViewKind view) {
    ProducerTree tree = model.tree();
    int slices = model.slices();
    int leaves = model.leaves();
    boolean[] covered = new boolean[leaves * slices];
    List<Part> parts = partition.parts();
    for (int k = 0; k < parts.size(); k++) {
      Part part = parts.get(k);
      if (part.node() < 0 || part.node() >= tree.size() || part.last() >= slices) {
        throw new IllegalArgumentException("part " + k + " " + part + " lies outside the model ("
            + tree.size() + " nodes, " + slices + " slices)");
      }
      if (!view.spatiotemporal() && tree.leafCount(part.node()) != leaves) {
        throw new IllegalArgumentException("a temporal view needs parts over every producer; part "
            + k + " " + part + " covers only " + tree.name(part.node()));
      }
      int firstLeaf = tree.firstLeaf(part.node());
      for (int leaf = firstLeaf; leaf < firstLeaf + tree.leafCount(part.node()); leaf++) {
        for (int t = part.first(); t <= part.last(); t++) {
          if (covered[leaf * slices + t]) {
            throw new IllegalArgumentException("part " + k + " " + part + " overlaps another part at producer "
                + tree.name(tree.leafNode(leaf)) + ", slice " + t);
          }
          covered[leaf * slices + t] = true;
        }
      }
    }
    for (int cell = 0; cell < covered.length; cell++) {
      if (!covered[cell]) {
        throw new IllegalArgumentException("the partition leaves producer "
            + tree.name(tree.leafNode(cell / slices)) + ", slice " + cell % slices + " uncovered");
      }
    }
  }

  // ---- temporal views -------------------------------------------------------------------

  private List<Block> temporalBlocks(Partition partition, ViewKind view) {
    List<Block> blocks = new ArrayList<>();
    int[] order = byFirstSlice(partition.parts());
    for (int rank = 0; rank < order.length; rank++) {
      int k = order[rank];
      Part part = partition.parts().get(k);
      double[] sums = sums(0, model.leaves(), part.first(), part.last());
      Tooltip tip = tooltip(part.node(), part.first(), part.last(), sums, List.of(), 1);
      double x0 = x(part.first());
      double x1 = x(part.last() + 1);
      if (view == ViewKind.TEMPORAL_PARTITION) {
        // Consecutive parts are the only neighbours: cycling the palette keeps them apart.
        String colour = Palette.PART_COLOURS.get(rank % Palette.PART_COLOURS.size());
        blocks.add(new Block(x0, 0, x1, 1, colour, 1, Mark.NONE, part.node(), part.first(),
            part.last(), k, -1, tip));
      } else {
        blocks.add(modeBlock(x0, 0, x1, 1, Mark.NONE, part.node(), part.first(), part.last(), k, sums, tip));
      }
    }
    return blocks;
  }

  private Overview stacked(Partition partition, List<LegendEntry> legend, double pixelHeight,
      double thresholdPx) {
    int types = model.typeCount();
    List<Part> parts = partition.parts();
    int[] order = byFirstSlice(parts);
    double[][] sums = new double[parts.size()][];
    double valueMax = 0;
    for (int k : order) {
      Part part = parts.get(k);
      sums[k] = sums(0, model.leaves(), part.first(), part.last());
      valueMax = Math.max(valueMax, Arrays.stream(sums[k]).sum() / part.sliceCount());
    }
    List<Block> blocks = new ArrayList<>();
    for (int k : order) {
      Part part = parts.get(k);
      double x0 = x(part.first());
      double x1 = x(part.last() + 1);
      List<Integer> thin = new ArrayList<>();
      for (int u = 0; u < types; u++) {
        double amplitude = sums[k][u] / part.sliceCount();
        if (amplitude > 0 && amplitude / valueMax * pixelHeight < thresholdPx) {
          thin.add(u);
        }
      }
      // One thin layer stays itself (in its own colour); two or more would be unreadable
      // slivers, so they become one marked layer that lists them.
      boolean merge = thin.size() >= 2;
      double base = 0;
      for (int u = 0; u < types; u++) {
        double amplitude = sums[k][u] / part.sliceCount();
        if (amplitude == 0 || merge && thin.contains(u)) {
          continue;
        }
        Tooltip tip = tooltip(part.node(), part.first(), part.last(), sums[k], List.of(), 1);
        blocks.add(new Block(x0, 1 - (base + amplitude) / valueMax, x1, 1 - base / valueMax,
            colours.get(u), 1, Mark.NONE, part.node(), part.first(), part.last(), k, u, tip));
        base += amplitude;
      }
      if (merge) {
        double amplitude = 0;
        List<String> names = new ArrayList<>();
        for (int u : thin) {
          amplitude += sums[k][u] / part.sliceCount();
          names.add(model.types().get(u));
        }
        Tooltip tip = tooltip(part.node(), part.first(), part.last(), sums[k], names, 1);
        blocks.add(new Block(x0, 1 - (base + amplitude) / valueMax, x1, 1 - base / valueMax,
            Palette.MERGED_LAYER, 1, Mark.MERGED, part.node(), part.first(), part.last(), k, -1, tip));
      }
    }
    return new Overview(ViewKind.TEMPORAL_STACKED, window, model.leaves(), model.slices(), blocks,
        List.of(), valueMax, legend);
  }

  // ---- spatiotemporal views -------------------------------------------------------------

  private Overview spatiotemporal(Partition partition, ViewKind view, List<LegendEntry> legend,
      double pixelHeight, double thresholdPx) {
    VisualRows rows = VisualRows.of(tree, pixelHeight / model.leaves(), thresholdPx);
    List<Part> parts = partition.parts();
    List<List<Integer>> inner = new ArrayList<>();
    for (int r = 0; r < rows.count(); r++) {
      inner.add(new ArrayList<>());
    }
    List<Block> blocks = new ArrayList<>();
    int[] order = byFirstSlice(parts);
    for (int k : order) {
      Part part = parts.get(k);
      int row = rows.rowOfLeaf(tree.firstLeaf(part.node()));
      if (tree.leafCount(part.node()) < tree.leafCount(rows.node(row))) {
        inner.get(row).add(k);
      } else {
        blocks.add(partBlock(k, part, view));
      }
    }
    Mark[] rowMarks = new Mark[rows.count()];
    Arrays.fill(rowMarks, Mark.NONE);
    VisualAggregator aggregator = new VisualAggregator(model.slices());
    for (int r = 0; r < rows.count(); r++) {
      if (!inner.get(r).isEmpty()) {
        for (VisualAggregator.Segment s : aggregator.segments(tree, rows.node(r), parts, inner.get(r))) {
          blocks.add(visualBlock(rows.node(r), s, view));
          if (s.mark() == Mark.CROSS || rowMarks[r] == Mark.NONE) {
            rowMarks[r] = s.mark();
          }
        }
      }
    }
    if (view == ViewKind.SPATIOTEMPORAL_PARTITION) {
      blocks = PartColouring.colour(blocks, rows, tree);
    }
    blocks.sort(Comparator.comparingInt(Block::first).thenComparingDouble(Block::y0));
    return new Overview(view, window, model.leaves(), model.slices(), blocks,
        rows.axis(tree, rowMarks), 0, legend);
  }

  private Block partBlock(int k, Part part, ViewKind view) {
    int h = part.node();
    double[] sums = sums(tree.firstLeaf(h), tree.leafCount(h), part.first(), part.last());
    Tooltip tip = tooltip(h, part.first(), part.last(), sums, List.of(), 1);
    double x0 = x(part.first());
    double x1 = x(part.last() + 1);
    double y0 = y(tree.firstLeaf(h));
    double y1 = y(tree.firstLeaf(h) + tree.leafCount(h));
    if (view == ViewKind.SPATIOTEMPORAL_MODE) {
      return modeBlock(x0, y0, x1, y1, Mark.NONE, h, part.first(), part.last(), k, sums, tip);
    }
    // The colour is chosen afterwards, when every neighbour is known (PartColouring).
    return new Block(x0, y0, x1, y1, Palette.PART_COLOURS.get(0), 1, Mark.NONE, h, part.first(),
        part.last(), k, -1, tip);
  }

  private Block visualBlock(int h, VisualAggregator.Segment s, ViewKind view) {
    double[] sums = sums(tree.firstLeaf(h), tree.leafCount(h), s.first(), s.last());
    Tooltip tip = tooltip(h, s.first(), s.last(), sums, List.of(), s.hiddenParts());
    double x0 = x(s.first());
    double x1 = x(s.last() + 1);
    double y0 = y(tree.firstLeaf(h));
    double y1 = y(tree.firstLeaf(h) + tree.leafCount(h));
    if (view == ViewKind.SPATIOTEMPORAL_MODE) {
      return modeBlock(x0, y0, x1, y1, s.mark(), h, s.first(), s.last(), -1, sums, tip);
    }
    return new Block(x0, y0, x1, y1, Palette.VISUAL_AGGREGATE, 1, s.mark(), h, s.first(), s.last(),
        -1, -1, tip);
  }

  /**
   * The same overview with each coloured block's opacity showing how much {@code intensity} holds
   * there rather than the mode's share: its mean per cell over the block (every type), relative to
   * its largest cell (at least {@value #MIN_SINGLE_TYPE_OPACITY}, so that a block stays visible).
   * For a comparison: colours say which type gained most, opacity how far OTHER departs from BASE.
   *
   * @param intensity a model of the overview's producers and slices
   */
  public static Overview shaded(Overview overview, MicroscopicModel intensity) {
    ProducerTree tree = intensity.tree();
    int types = intensity.typeCount();
    double[] values = intensity.values();
    double largest = 0;
    for (int cell = 0; cell < values.length / types; cell++) {
      double sum = 0;
      for (int u = 0; u < types; u++) {
        sum += values[cell * types + u];
      }
      largest = Math.max(largest, sum);
    }
    List<Block> blocks = new ArrayList<>();
    for (Block b : overview.blocks()) {
      if (b.type() < 0 || largest == 0) {
        blocks.add(b);
        continue;
      }
      double total = 0;
      for (int leaf = tree.firstLeaf(b.node()); leaf < tree.firstLeaf(b.node()) + tree.leafCount(b.node()); leaf++) {
        for (int i = intensity.index(leaf, b.first(), 0); i < intensity.index(leaf, b.last(), 0) + types; i++) {
          total += values[i];
        }
      }
      double mean = total / ((double) tree.leafCount(b.node()) * (b.last() - b.first() + 1));
      blocks.add(new Block(b.x0(), b.y0(), b.x1(), b.y1(), b.colour(), Math.max(MIN_SINGLE_TYPE_OPACITY, mean / largest),
          b.mark(), b.node(), b.first(), b.last(), b.part(), b.type(), b.tooltip()));
    }
    return new Overview(overview.view(), overview.window(), overview.leaves(), overview.slices(), blocks,
        overview.producers(), overview.valueMax(), overview.legend());
  }

  // ---- shared pieces --------------------------------------------------------------------

  /**
   * The block in the colour of its mode type u* with opacity = share of u* ∈ [1/|U|, 1]. With a
   * single type the share is always 1 and says nothing: the opacity then shows the block's mean
   * value relative to the model's largest cell, so that a drop (a slowed host's load) shows.
   */
  private Block modeBlock(double x0, double y0, double x1, double y1, Mark mark, int node,
      int first, int last, int part, double[] sums, Tooltip tip) {
    int mode = 0;
    double total = 0;
    for (int u = 0; u < sums.length; u++) {
      total += sums[u];
      if (sums[u] > sums[mode]) {
        mode = u;
      }
    }
    if (total == 0) {
      return new Block(x0, y0, x1, y1, Palette.EMPTY, 0, mark, node, first, last, part, -1, tip);
    }
    double opacity = sums.length > 1 ? sums[mode] / total
        : Math.max(MIN_SINGLE_TYPE_OPACITY, total / ((double) tree.leafCount(node) * (last - first + 1)) / largestCell);
    return new Block(x0, y0, x1, y1, colours.get(mode), opacity, mark, node, first, last, part, mode, tip);
  }

  /** Σ M over leaves [firstLeaf, firstLeaf + leafCount) × slices [first, last], per type. */
  private double[] sums(int firstLeaf, int leafCount, int first, int last) {
    int types = model.typeCount();
    double[] values = model.values();
    double[] sums = new double[types];
    for (int leaf = firstLeaf; leaf < firstLeaf + leafCount; leaf++) {
      int from = model.index(leaf, first, 0);
      int to = model.index(leaf, last, 0) + types;
      for (int i = from; i < to; i++) {
        sums[(i - from) % types] += values[i];
      }
    }
    return sums;
  }

  private Tooltip tooltip(int node, int first, int last, double[] sums, List<String> merged,
      int hiddenParts) {
    double total = Arrays.stream(sums).sum();
    List<TypeShare> shares = new ArrayList<>();
    for (int u = 0; u < sums.length; u++) {
      if (sums[u] > 0) {
        shares.add(new TypeShare(model.types().get(u), sums[u], sums[u] / total));
      }
    }
    shares.sort(Comparator.comparingDouble(TypeShare::value).reversed());
    return new Tooltip(window.sliceStart(first, model.slices()),
        window.sliceStart(last + 1, model.slices()), window.unit(), tree.path(node),
        tree.leafCount(node), last - first + 1, shares, merged, hiddenParts);
  }

  private double x(int slice) {
    return (double) slice / model.slices();
  }

  private double y(int leaf) {
    return (double) leaf / model.leaves();
  }

  private static int[] byFirstSlice(List<Part> parts) {
    return java.util.stream.IntStream.range(0, parts.size()).boxed()
        .sorted(Comparator.comparingInt((Integer k) -> parts.get(k).first())
            .thenComparingInt(k -> parts.get(k).node()))
        .mapToInt(Integer::intValue).toArray();
  }
}
