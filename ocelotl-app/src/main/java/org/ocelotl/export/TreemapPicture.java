package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.TreemapRequest;
import org.ocelotl.analysis.TreemapResult;
import org.ocelotl.export.Canvas.Anchor;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.view.LegendEntry;
import org.ocelotl.view.Treemap;
import org.ocelotl.view.TreemapCell;
import org.ocelotl.view.TypeShare;

/**
 * One picture of a treemap: title and caption on top, the treemap at the size its geometry was
 * built for, the legend on the right, the note (if any) below. Drawn through {@link Canvas}, so
 * the SVG and the PNG are the same picture.
 */
public final class TreemapPicture {
  private static final double MARGIN = 16;
  private static final double TITLE = 16;
  private static final double SMALL = 12;
  private static final double LABEL = 11;
  private static final double LEGEND = 230;
  private static final double FOOT = 24;
  private static final String INK = "#222222";
  private static final String GREY = "#666666";
  private static final String GROUP_LINE = "#333333";

  private final Treemap treemap;
  private final String title;
  private final List<String> caption;
  private final double areaWidth;
  private final double areaHeight;
  private final double top;

  private TreemapPicture(Treemap treemap, String title, List<String> captionItems, int areaWidth, int areaHeight) {
    this.treemap = treemap;
    this.title = title;
    this.caption = OverviewPicture.wrap(captionItems, areaWidth + LEGEND, SMALL);
    this.areaWidth = areaWidth;
    this.areaHeight = areaHeight;
    this.top = MARGIN + TITLE + caption.size() * (SMALL + 4) + 12;
  }

  /** The picture: the treemap at its requested size, with caption and legend around it. */
  public static void render(TreemapResult r, Format format, OutputStream out) throws IOException {
    render(r.treemap(), r.title(), caption(r), r.request().width(), r.request().height(), format, out);
  }

  /** What the picture's caption says: window or step, N, producers, metric, cut, p, exactness. */
  public static List<String> caption(TreemapResult r) {
    Treemap t = r.treemap();
    AnalysisResult result = r.result();
    TreemapRequest request = r.request();
    BuiltModel built = result.analysis().built();
    List<String> items = new ArrayList<>();
    items.add("window [" + OverviewPicture.number(t.window().start()) + ", " + OverviewPicture.number(t.window().end())
        + ") " + t.window().unit());
    if (t.firstSlice() == t.lastSlice()) {
      items.add("step " + (t.firstSlice() + 1) + " of " + t.slices() + ": ["
          + OverviewPicture.number(t.window().sliceStart(t.firstSlice(), t.slices())) + ", "
          + OverviewPicture.number(t.window().sliceStart(t.lastSlice() + 1, t.slices())) + ")");
    } else {
      items.add("N = " + t.slices() + " slices");
    }
    items.add(built.model().leaves() + " producers");
    items.add("metric: " + result.metricLabel());
    if (request.depth() >= 0) {
      items.add("cut at depth " + request.depth());
    } else {
      items.add(String.format(Locale.ROOT, "spatial partition at p = %.4g: %d parts, gain %.1f%%, loss %.1f%%",
          result.p(), result.partition().size(),
          100 * Breakpoint.fraction(result.partition().gain(), result.lastPartition().gain()),
          100 * Breakpoint.fraction(result.partition().loss(), result.lastPartition().loss())));
    }
    items.add(built.exact() ? "exact model" : "approximate model");
    return items;
  }

  /** Draws the treemap (built for {@code areaWidth × areaHeight} pixels) with its frame. */
  public static void render(Treemap treemap, String title, List<String> caption, int areaWidth, int areaHeight,
      Format format, OutputStream out) throws IOException {
    TreemapPicture picture = new TreemapPicture(treemap, title, caption, areaWidth, areaHeight);
    int width = (int) Math.ceil(2 * MARGIN + areaWidth + LEGEND);
    int height = (int) Math.ceil(picture.top + areaHeight + FOOT + MARGIN);
    Canvas canvas = format == Format.SVG ? new SvgCanvas(width, height) : new PngCanvas(width, height);
    picture.draw(canvas);
    canvas.finish(out);
  }

  /** Writes the picture to a file whose extension (.svg, .png) gives the format, atomically. */
  public static void write(Treemap treemap, String title, List<String> caption, int areaWidth, int areaHeight,
      Path file) throws IOException {
    Format format = Format.ofFileName(file.getFileName().toString());
    AtomicFile.write(file, out -> render(treemap, title, caption, areaWidth, areaHeight, format, out));
  }

  private void draw(Canvas c) {
    c.text(MARGIN, MARGIN + TITLE - 2, title, TITLE, INK, Anchor.START, true);
    for (int i = 0; i < caption.size(); i++) {
      c.text(MARGIN, MARGIN + TITLE + (i + 1) * (SMALL + 4), caption.get(i), SMALL, GREY, Anchor.START, false);
    }
    for (TreemapCell cell : treemap.cells()) {
      if (cell.kind() != TreemapCell.Kind.GROUP) {
        drawCell(c, cell);
      }
    }
    // Group outlines last, thicker for shallower groups, so the hierarchy reads over the fills.
    for (TreemapCell cell : treemap.cells()) {
      if (cell.kind() == TreemapCell.Kind.GROUP) {
        c.outline(x(cell.x0()), y(cell.y0()), x(cell.x1()) - x(cell.x0()), y(cell.y1()) - y(cell.y0()), GROUP_LINE,
            Math.max(1, 3 - cell.depth()));
      }
    }
    c.outline(MARGIN, top, areaWidth, areaHeight, GROUP_LINE, 1);
    drawLegend(c);
    if (!treemap.note().isEmpty()) {
      c.text(MARGIN, top + areaHeight + 16, treemap.note(), SMALL, GREY, Anchor.START, false);
    }
  }

  private void drawCell(Canvas c, TreemapCell cell) {
    double x = x(cell.x0());
    double y = y(cell.y0());
    double w = x(cell.x1()) - x;
    double h = y(cell.y1()) - y;
    c.fill(x, y, w, h, "#ffffff", 1, null);
    c.fill(x, y, w, h, cell.colour(), cell.opacity(), tooltip(cell));
    c.outline(x, y, w, h, "#ffffff", 1);
    String label = cell.name();
    switch (cell.kind()) {
      case AGGREGATE -> {
        dashed(c, x + 1.5, y + 1.5, w - 3, h - 3);
        label = cell.name() + " (" + cell.leaves() + ")";
      }
      case VISUAL -> {
        c.hatch(x, y, w, h, "#1a1a1a");
        label = cell.name() + " [" + cell.hidden() + " too small]";
      }
      default -> { }
    }
    if (h >= LABEL + 6) {
      String fitted = OverviewPicture.fit(label, w - 6, LABEL);
      if (!fitted.isEmpty()) {
        c.text(x + 3, y + LABEL + 2, fitted, LABEL, INK, Anchor.START, cell.kind() == TreemapCell.Kind.AGGREGATE);
      }
    }
  }

  private static void dashed(Canvas c, double x, double y, double w, double h) {
    c.line(x, y, x + w, y, GROUP_LINE, 1.5, true);
    c.line(x + w, y, x + w, y + h, GROUP_LINE, 1.5, true);
    c.line(x + w, y + h, x, y + h, GROUP_LINE, 1.5, true);
    c.line(x, y + h, x, y, GROUP_LINE, 1.5, true);
  }

  private void drawLegend(Canvas c) {
    double lx = MARGIN + areaWidth + 18;
    double ly = top;
    for (LegendEntry e : treemap.legend()) {
      c.fill(lx, ly, 12, 12, e.colour(), 1, null);
      c.text(lx + 18, ly + 10, OverviewPicture.fit(e.name(), LEGEND - 40, LABEL), LABEL, INK, Anchor.START, false);
      ly += 18;
    }
    ly += 8;
    c.text(lx, ly + 10, "opacity = share of the mode", LABEL, GREY, Anchor.START, false);
    ly += 22;
    c.fill(lx, ly, 24, 14, "#ffffff", 1, null);
    dashed(c, lx, ly, 24, 14);
    c.text(lx + 30, ly + 11, "aggregate (name, leaves)", LABEL, GREY, Anchor.START, false);
    ly += 22;
    c.fill(lx, ly, 24, 14, "#ffffff", 1, null);
    c.hatch(lx, ly, 24, 14, "#1a1a1a");
    c.text(lx + 30, ly + 11, "too small to draw", LABEL, GREY, Anchor.START, false);
  }

  private static String tooltip(TreemapCell cell) {
    StringBuilder s = new StringBuilder(cell.path());
    s.append(String.format(Locale.ROOT, "%n%s · %d leaves", OverviewPicture.number(cell.value()), cell.leaves()));
    if (cell.kind() == TreemapCell.Kind.AGGREGATE) {
      s.append(" · aggregate");
    } else if (cell.kind() == TreemapCell.Kind.VISUAL) {
      s.append(" · stands for ").append(cell.hidden()).append(" nodes too small to draw");
    }
    for (TypeShare share : cell.types()) {
      s.append(String.format(Locale.ROOT, "%n%s %.1f%% (%s)", share.type(), 100 * share.share(),
          OverviewPicture.number(share.value())));
    }
    return s.toString();
  }

  private double x(double unit) {
    return MARGIN + unit * areaWidth;
  }

  private double y(double unit) {
    return top + unit * areaHeight;
  }
}
