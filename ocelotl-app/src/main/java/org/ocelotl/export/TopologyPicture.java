package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.ArrayList;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.TopologyRequest;
import org.ocelotl.analysis.TopologyResult;
import org.ocelotl.export.Canvas.Anchor;
import org.ocelotl.view.Topology;

/**
 * One picture of a topology graph: title and caption, then the graph in a square: platform
 * links as grey lines, communications as blue lines whose width grows with their count, nodes
 * as squares (hosts), diamonds (network links) or circles (processes), sized by capacity and
 * filled from the bottom in proportion to their use. A collapsed group has a thick outline; a
 * node whose use exceeds its capacity is drawn full with a red outline, and the caption names it.
 */
public final class TopologyPicture {
  private static final double MARGIN = 16;
  private static final double TITLE = 16;
  private static final double SMALL = 12;
  private static final String INK = "#222222";
  private static final String GREY = "#666666";
  private static final String PLATFORM = "#9a9a9a";
  private static final String MESSAGES = "#2f6db5";
  private static final String OVER = "#c62828";
  /** How many over-capacity nodes a message names. */
  static final int NAMED = 5;

  private final Topology topology;
  private final double left;
  private final double top;
  private final double side;

  private TopologyPicture(Topology topology, double left, double top, double side) {
    this.topology = topology;
    this.left = left;
    this.top = top;
    this.side = side;
  }

  /** The picture of a topology graph, of this size, with its title and caption. */
  public static void render(TopologyResult r, Format format, int width, int height, OutputStream out)
      throws IOException {
    render(r.topology(), r.title(), caption(r), width, height, format, out);
  }

  /** What the caption says: time shown, nodes and edges, what size and fill mean, the cut. */
  public static List<String> caption(TopologyResult r) {
    AnalysisResult result = r.result();
    Topology topology = r.topology();
    TopologyRequest request = r.request();
    double start = r.start();
    double end = r.end();
    List<String> items = new ArrayList<>();
    String unit = result.analysis().built().timeUnit();
    items.add("[" + OverviewPicture.number(start) + ", " + OverviewPicture.number(end) + ") " + unit);
    items.add(topology.nodes().size() + " nodes, " + topology.edges().size() + " edges");
    items.add(topology.capacities() ? "size = capacity, fill = use / capacity" : "size and fill: " + result.metricLabel());
    items.add(request.depth() >= 0 ? "cut at depth " + request.depth()
        : String.format(Locale.ROOT, "spatial partition at p = %.4g", result.p()));
    if (!request.toggles().isEmpty()) {
      items.add(request.toggles().size() + " groups expanded or collapsed");
    }
    items.addAll(overCapacity(topology));
    return items;
  }

  /**
   * What the reader must be told where the trace's use exceeds its capacity: a statement, then
   * each node (the first {@link #NAMED}) with its variables; empty where it never does. The
   * caption shows them as items, {@code ocelotl topology} writes them on standard error.
   */
  public static List<String> overCapacity(Topology topology) {
    List<Topology.Node> over = topology.overCapacity();
    List<String> items = new ArrayList<>();
    if (over.isEmpty()) {
      return items;
    }
    items.add("use exceeds capacity on " + over.size() + (over.size() == 1 ? " node" : " nodes")
        + ", drawn full with a red outline (the trace's capacity is not in its use's unit):");
    for (Topology.Node n : over.subList(0, Math.min(NAMED, over.size()))) {
      items.add(n.path() + ": " + n.useVariable() + " " + OverviewPicture.number(n.use()) + " > "
          + n.capacityVariable() + " " + OverviewPicture.number(n.capacity()));
    }
    if (over.size() > NAMED) {
      items.add("and " + (over.size() - NAMED) + " more");
    }
    return items;
  }

  public static void render(Topology topology, String title, List<String> captionItems, int width, int height,
      Format format, OutputStream out) throws IOException {
    if (width < OverviewPicture.MIN_WIDTH || height < OverviewPicture.MIN_HEIGHT || width > OverviewPicture.MAX_SIDE
        || height > OverviewPicture.MAX_SIDE) {
      throw new IllegalArgumentException("picture size must be between " + OverviewPicture.MIN_WIDTH + "×"
          + OverviewPicture.MIN_HEIGHT + " and " + OverviewPicture.MAX_SIDE + "×" + OverviewPicture.MAX_SIDE
          + " pixels, got " + width + "×" + height);
    }
    List<String> caption = OverviewPicture.wrap(captionItems, width - 2 * MARGIN, SMALL);
    double top = MARGIN + TITLE + caption.size() * (SMALL + 4) + 12;
    double side = Math.min(width - 2 * MARGIN, height - top - MARGIN - 20);
    Canvas c = format == Format.SVG ? new SvgCanvas(width, height) : new PngCanvas(width, height);
    c.text(MARGIN, MARGIN + TITLE - 2, title, TITLE, INK, Anchor.START, true);
    for (int i = 0; i < caption.size(); i++) {
      c.text(MARGIN, MARGIN + TITLE + (i + 1) * (SMALL + 4), caption.get(i), SMALL, GREY, Anchor.START, false);
    }
    new TopologyPicture(topology, (width - side) / 2, top, side).draw(c);
    if (!topology.note().isEmpty()) {
      c.text(MARGIN, height - MARGIN, topology.note(), SMALL, GREY, Anchor.START, false);
    }
    c.finish(out);
  }

  private void draw(Canvas c) {
    // Width by bytes carried where the trace gives them, else by the number of messages.
    boolean volumes = topology.edges().stream().anyMatch(e -> e.volume() > 0);
    double most = topology.edges().stream().mapToDouble(e -> volumes ? e.volume() : e.messages()).max().orElse(0);
    for (Topology.Edge e : topology.edges()) {
      Topology.Node a = topology.nodes().get(e.a());
      Topology.Node b = topology.nodes().get(e.b());
      if (e.topology() > 0) {
        c.line(x(a.x()), y(a.y()), x(b.x()), y(b.y()), PLATFORM, 1, false);
      }
      if (e.messages() > 0) {
        double w = 1 + 5 * Math.sqrt((volumes ? e.volume() : e.messages()) / most);
        c.line(x(a.x()), y(a.y()), x(b.x()), y(b.y()), MESSAGES, w, e.topology() > 0);
      }
    }
    // Labels where the layout found them room (TopologyLayout), at the size it placed them.
    double label = topology.labelHeight() * side;
    for (Topology.Node n : topology.nodes()) {
      drawNode(c, n);
      if (n.labelled()) {
        c.text(x(n.labelX()), y(n.labelY()), n.name(), label, INK, Anchor.MIDDLE, n.aggregate());
      }
    }
  }

  private void drawNode(Canvas c, Topology.Node n) {
    double cx = x(n.x());
    double cy = y(n.y());
    double r = Math.max(2, n.size() * side);
    String colour = colour(n.shape());
    String tooltip = tooltip(n);
    // The use fills the shape's inscribed square from the bottom.
    double inner = n.shape() == Topology.Shape.SQUARE ? r : r / Math.sqrt(2);
    c.fill(cx - inner, cy - inner, 2 * inner, 2 * inner, "#ffffff", 1, tooltip);
    c.fill(cx - inner, cy + inner - 2 * inner * n.fill(), 2 * inner, 2 * inner * n.fill(), colour, 0.85, null);
    double width = n.aggregate() ? 3 : 1.2;
    if (n.overCapacity()) {
      colour = OVER;
      width = 2.5;
    }
    switch (n.shape()) {
      case SQUARE -> c.outline(cx - r, cy - r, 2 * r, 2 * r, colour, width);
      case DIAMOND -> c.polyline(new double[] {cx, cx + r, cx, cx - r, cx}, new double[] {cy - r, cy, cy + r, cy, cy - r},
          colour, width);
      case CIRCLE -> {
        double[] xs = new double[25];
        double[] ys = new double[25];
        for (int i = 0; i <= 24; i++) {
          xs[i] = cx + r * Math.cos(2 * Math.PI * i / 24);
          ys[i] = cy + r * Math.sin(2 * Math.PI * i / 24);
        }
        c.polyline(xs, ys, colour, width);
      }
    }
  }

  static String colour(Topology.Shape shape) {
    return switch (shape) {
      case SQUARE -> "#2f6db5";
      case DIAMOND -> "#e3872d";
      case CIRCLE -> "#3c9a4a";
    };
  }

  private String tooltip(Topology.Node n) {
    return String.format(Locale.ROOT, "%s (%s%s)%ncapacity %s · use %s · %s", n.path(), n.kind(),
        n.aggregate() ? " ×" + n.members() : "", OverviewPicture.number(n.capacity()), OverviewPicture.number(n.use()),
        n.overCapacity() ? "use exceeds capacity" : String.format(Locale.ROOT, "%.1f%%", 100 * n.fill()));
  }

  private double x(double unit) {
    return left + unit * side;
  }

  private double y(double unit) {
    return top + unit * side;
  }
}
