package org.ocelotl.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ocelotl.export.Canvas.Anchor;
import org.ocelotl.io.AtomicFile;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.view.AxisNode;
import org.ocelotl.view.Block;
import org.ocelotl.view.LegendEntry;
import org.ocelotl.view.Mark;
import org.ocelotl.view.Overview;
import org.ocelotl.view.OverviewGeometry;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.view.Tick;
import org.ocelotl.view.Ticks;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.Tooltip;
import org.ocelotl.view.TypeShare;
import org.ocelotl.view.ViewKind;

/**
 * One picture of an overview: title and caption on top, the overview with its producer (or
 * value) axis and time axis, the legend on the right, the quality curves below.
 *
 * <p>All placement is computed here once and drawn through {@link Canvas}, so the SVG and the PNG
 * of the same input are the same picture.
 */
public final class OverviewPicture {
  public static final int MIN_WIDTH = 480;
  public static final int MIN_HEIGHT = 360;
  public static final int MAX_SIDE = 16_384;

  private static final double MARGIN = 16;
  private static final double TITLE = 16;
  private static final double SMALL = 12;
  private static final double LABEL = 11;
  private static final double TICK = 10.5;
  private static final double BRACKET_COLUMN = 16;
  private static final String INK = "#222222";
  private static final String GREY = "#666666";
  private static final String FRAME = "#8a8a8a";
  private static final String MARK_INK = "#1a1a1a";
  private static final String GAIN = "#1f7a3a";
  private static final String LOSS = "#c0392b";
  private static final String NOTE_MODE = "opacity = share of the mode";
  private static final String NOTE_SINGLE_TYPE = "opacity = value / largest value";
  private static final String NOTE_MERGED = "thin types, merged";
  private static final String NOTE_PART = "touching parts in different colours";
  private static final String NOTE_DIAGONAL = "too thin: same time cuts";
  private static final String NOTE_CROSS = "too thin: different cuts";
  private static final List<String> NOTES = List.of(NOTE_MODE, NOTE_SINGLE_TYPE, NOTE_MERGED, NOTE_PART, NOTE_DIAGONAL, NOTE_CROSS);

  private final OverviewInput in;
  private final int width;
  private final int height;
  private final QualityCurves curves;
  private final List<String> caption;
  private final double legendWidth;
  private final double overviewTop;
  private final double overviewBottom;
  private final double curvesTop;
  private final Overview overview;
  /** What the opacity shows when it is not the mode's share ({@link #writeShaded}), else null. */
  private final String opacityNote;
  private double overviewLeft;
  private double overviewRight;

  private OverviewPicture(OverviewInput in, int width, int height) {
    this(in, null, null, width, height);
  }

  private OverviewPicture(OverviewInput in, MicroscopicModel intensity, String opacityNote, int width, int height) {
    this.in = in;
    this.opacityNote = opacityNote;
    this.width = width;
    this.height = height;
    this.curves = QualityCurves.of(in.breakpoints(), in.p());
    this.caption = wrap(captionItems(), width - 2 * MARGIN, SMALL);
    this.legendWidth = legendWidth();
    double headerBottom = MARGIN + TITLE + caption.size() * (SMALL + 4) + 4;
    this.curvesTop = height - MARGIN - clamp(Math.round(height * 0.24), 120, 240);
    this.overviewTop = headerBottom + 10;
    this.overviewBottom = curvesTop - 44;
    if (overviewBottom - overviewTop < 60) {
      throw new IllegalArgumentException("a picture of " + width + "×" + height
          + " leaves no room for the overview; make it taller");
    }
    Overview built = OverviewGeometry.build(in.model(), in.partition(), in.view(), in.window(),
        in.typeColours(), overviewBottom - overviewTop, OverviewGeometry.VISUAL_THRESHOLD_PX);
    this.overview = intensity == null ? built : OverviewGeometry.shaded(built, intensity);
  }

  /**
   * Draws the picture of {@code in} as {@code format} on {@code out}.
   *
   * @throws IllegalArgumentException for a size outside [{@value #MIN_WIDTH}, {@value #MAX_SIDE}]
   *     × [{@value #MIN_HEIGHT}, {@value #MAX_SIDE}], or an input the geometry rejects
   */
  public static void render(OverviewInput in, Format format, int width, int height, OutputStream out)
      throws IOException {
    checkSize(width, height);
    render(new OverviewPicture(in, width, height), format, out);
  }

  private static void checkSize(int width, int height) {
    if (width < MIN_WIDTH || height < MIN_HEIGHT || width > MAX_SIDE || height > MAX_SIDE) {
      throw new IllegalArgumentException("picture size must be between " + MIN_WIDTH + "×" + MIN_HEIGHT
          + " and " + MAX_SIDE + "×" + MAX_SIDE + " pixels, got " + width + "×" + height);
    }
  }

  private static void render(OverviewPicture picture, Format format, OutputStream out) throws IOException {
    int width = picture.width;
    int height = picture.height;
    Canvas canvas = format == Format.SVG ? new SvgCanvas(width, height) : new PngCanvas(width, height);
    picture.draw(canvas);
    canvas.finish(out);
  }

  /**
   * Writes the picture to a file whose extension (.svg, .png) gives the format. The file appears
   * complete or not at all: it is written under a temporary name, then renamed.
   */
  public static void write(OverviewInput in, Path file, int width, int height) throws IOException {
    Format format = Format.ofFileName(file.getFileName().toString());
    AtomicFile.write(file, out -> render(in, format, width, height, out));
  }

  /**
   * A mode picture whose opacity shows {@code intensity}'s mean per cell ({@link
   * OverviewGeometry#shaded}), explained in the legend by {@code opacityNote}: a comparison of two
   * runs, coloured by what was gained, shaded by how much OTHER departs.
   */
  public static void writeShaded(OverviewInput in, MicroscopicModel intensity, String opacityNote, Path file,
      int width, int height) throws IOException {
    Format format = Format.ofFileName(file.getFileName().toString());
    checkSize(width, height);
    AtomicFile.write(file, out -> renderShaded(in, intensity, opacityNote, format, width, height, out));
  }

  /** The picture {@link #writeShaded} writes, as {@code format} on {@code out}. */
  public static void renderShaded(OverviewInput in, MicroscopicModel intensity, String opacityNote, Format format,
      int width, int height, OutputStream out) throws IOException {
    checkSize(width, height);
    render(new OverviewPicture(in, intensity, opacityNote, width, height), format, out);
  }

  // ---- layout -----------------------------------------------------------------------------

  private void draw(Canvas c) {
    c.text(MARGIN, MARGIN + TITLE - 2, in.traceName(), TITLE, INK, Anchor.START, true);
    for (int i = 0; i < caption.size(); i++) {
      c.text(MARGIN, MARGIN + TITLE + (i + 1) * (SMALL + 4), caption.get(i), SMALL, GREY, Anchor.START, false);
    }
    overviewLeft = MARGIN + leftAxisWidth();
    overviewRight = width - MARGIN - legendWidth - 18;
    switch (in.view()) {
      case TEMPORAL_STACKED -> drawValueAxis(c);
      case TEMPORAL_PARTITION, TEMPORAL_MODE -> c.verticalText(overviewLeft - 12,
          (overviewTop + overviewBottom) / 2, "all " + in.model().leaves() + " producers", LABEL, GREY);
      default -> drawProducerAxis(c);
    }
    drawBlocks(c);
    c.outline(overviewLeft, overviewTop, overviewRight - overviewLeft, overviewBottom - overviewTop, FRAME, 1);
    drawTimeAxis(c);
    drawLegend(c);
    drawCurves(c);
  }

  private List<String> captionItems() {
    List<String> items = new ArrayList<>();
    TimeScale scale = in.timeScale();
    items.add("window [" + number(scale.at(in.window().start())) + ", " + number(scale.at(in.window().end())) + ") "
        + scale.unit() + " since the start");
    items.add("N = " + in.model().slices() + " slices");
    items.add(in.model().leaves() + " producers");
    items.addAll(in.filters());
    items.add("metric: " + in.metric());
    items.add(in.view().aggregation() + " aggregation, " + in.view().view() + " view");
    items.add("p = " + number(in.p()));
    items.add(String.format(Locale.ROOT, "gain %.1f%%, loss %.1f%% of their maxima",
        100 * fraction(in.partition().gain(), curves.gainAtOne()),
        100 * fraction(in.partition().loss(), curves.lossAtOne())));
    items.add(in.partition().size() + (in.partition().size() == 1 ? " part" : " parts"));
    items.add(in.exactModel() ? "exact model" : "approximate model (rebuilt from a cached one)");
    return items;
  }

  private double legendWidth() {
    double widest = Canvas.textWidth("Event types", LABEL);
    for (String type : in.model().types()) {
      widest = Math.max(widest, Canvas.textWidth(type, LABEL));
    }
    for (String note : NOTES) {
      widest = Math.max(widest, Canvas.textWidth(note, TICK));
    }
    return clamp(widest + 22, 150, Math.max(150, width * 0.22));
  }

  private double leftAxisWidth() {
    if (in.view() == ViewKind.TEMPORAL_STACKED) {
      double widest = 0;
      for (Tick t : valueTicks()) {
        widest = Math.max(widest, Canvas.textWidth(t.label(), TICK));
      }
      return widest + 30;
    }
    if (!in.view().spatiotemporal()) {
      return 24;
    }
    double labels = 0;
    for (AxisNode a : overview.producers()) {
      if (a.row() && rowHeight(a) >= 9) {
        labels = Math.max(labels, Canvas.textWidth(rowLabel(a), Math.min(LABEL, rowHeight(a) - 2)));
      }
    }
    // 36: the 20 pixels of marks before the overview, and slack for estimated text widths.
    return bracketColumns() * BRACKET_COLUMN + Math.min(labels, width * 0.16) + 36;
  }

  // ---- overview ---------------------------------------------------------------------------

  private void drawBlocks(Canvas c) {
    for (Block b : overview.blocks()) {
      double[] r = pixels(b);
      c.fill(r[0], r[1], r[2] - r[0], r[3] - r[1], b.colour(), b.opacity(), tooltip(b));
    }
    for (Block b : overview.blocks()) {
      double[] r = pixels(b);
      double w = r[2] - r[0];
      double h = r[3] - r[1];
      // A white hairline between aggregates shows where data was aggregated; skipped on blocks
      // so small that it would wash them out.
      if (w >= 6 && h >= 6) {
        c.outline(r[0] + 0.5, r[1] + 0.5, w - 1, h - 1, "#ffffff", 1);
      }
      drawMark(c, b.mark(), r[0], r[1], w, h);
    }
  }

  private static void drawMark(Canvas c, Mark mark, double x, double y, double w, double h) {
    switch (mark) {
      case DIAGONAL -> c.line(x, y + h, x + w, y, MARK_INK, 1.2, false);
      case CROSS -> {
        c.line(x, y + h, x + w, y, MARK_INK, 1.2, false);
        c.line(x, y, x + w, y + h, MARK_INK, 1.2, false);
      }
      case MERGED -> c.hatch(x, y, w, h, "#7a7a7a");
      case NONE -> { }
    }
  }

  /** Block corners in whole pixels, at least one pixel wide and tall. */
  private double[] pixels(Block b) {
    double x0 = Math.round(px(b.x0()));
    double x1 = Math.max(x0 + 1, Math.round(px(b.x1())));
    double y0 = Math.round(py(b.y0()));
    double y1 = Math.max(y0 + 1, Math.round(py(b.y1())));
    return new double[] {x0, y0, x1, y1};
  }

  private double px(double x) {
    return overviewLeft + x * (overviewRight - overviewLeft);
  }

  private double py(double y) {
    return overviewTop + y * (overviewBottom - overviewTop);
  }

  private void drawTimeAxis(Canvas c) {
    int maxTicks = (int) Math.max(2, (overviewRight - overviewLeft) / 90);
    TimeScale scale = in.timeScale();
    for (Tick t : Ticks.nice(scale.at(in.window().start()), scale.at(in.window().end()), maxTicks)) {
      double x = px(t.at());
      c.line(x, overviewBottom, x, overviewBottom + 4, FRAME, 1, false);
      c.text(x, overviewBottom + 16, t.label(), TICK, INK, Anchor.MIDDLE, false);
    }
    c.text((overviewLeft + overviewRight) / 2, overviewBottom + 33, "time since the trace's start (" + scale.unit() + ")",
        LABEL, GREY, Anchor.MIDDLE, false);
  }

  private List<Tick> valueTicks() {
    if (overview.valueMax() <= 0) {
      return List.of();
    }
    int maxTicks = (int) Math.max(2, (overviewBottom - overviewTop) / 40);
    return Ticks.nice(0, overview.valueMax(), maxTicks);
  }

  private void drawValueAxis(Canvas c) {
    for (Tick t : valueTicks()) {
      double y = py(1 - t.at());
      c.line(overviewLeft, y, overviewRight, y, "#ececec", 1, false);
      c.line(overviewLeft - 4, y, overviewLeft, y, FRAME, 1, false);
      c.text(overviewLeft - 6, y + 4, t.label(), TICK, INK, Anchor.END, false);
    }
    c.verticalText(MARGIN + 6, (overviewTop + overviewBottom) / 2, in.metric() + " per slice", LABEL, GREY);
  }

  private int bracketColumns() {
    int deepest = 0;
    for (AxisNode a : overview.producers()) {
      if (!a.row() && a.depth() >= 1) {
        deepest = Math.max(deepest, a.depth());
      }
    }
    return deepest;
  }

  private double rowHeight(AxisNode a) {
    return (a.y1() - a.y0()) * (overviewBottom - overviewTop);
  }

  private static String rowLabel(AxisNode a) {
    return a.collapsed() ? a.name() + " (" + a.leaves() + ")" : a.name();
  }

  private void drawProducerAxis(Canvas c) {
    double labelRight = overviewLeft - 20;
    double labelLeft = MARGIN + bracketColumns() * BRACKET_COLUMN;
    for (AxisNode a : overview.producers()) {
      double y0 = Math.round(py(a.y0()));
      double y1 = Math.round(py(a.y1()));
      double h = y1 - y0;
      if (a.row()) {
        c.line(labelLeft, y0, overviewLeft, y0, "#e2e2e2", 1, false);
        if (h >= 9) {
          double size = Math.min(LABEL, h - 2);
          c.text(labelRight, (y0 + y1) / 2 + size * 0.35, fit(rowLabel(a), labelRight - labelLeft, size),
              size, INK, Anchor.END, false);
        }
        if (a.mark() != Mark.NONE) {
          double s = clamp(h - 2, 4, 10);
          c.fill(overviewLeft - 16, (y0 + y1 - s) / 2, s, s, "#ffffff", 1, null);
          c.outline(overviewLeft - 16, (y0 + y1 - s) / 2, s, s, GREY, 1);
          drawMark(c, a.mark(), overviewLeft - 16, (y0 + y1 - s) / 2, s, s);
        }
      } else if (a.depth() >= 1) {
        double x = MARGIN + (a.depth() - 1) * BRACKET_COLUMN + 5;
        c.line(x, y0 + 2, x, y1 - 2, "#707070", 1.5, false);
        c.line(x, y0 + 2, x + 4, y0 + 2, "#707070", 1.5, false);
        c.line(x, y1 - 2, x + 4, y1 - 2, "#707070", 1.5, false);
        String name = fit(a.name(), h - 8, TICK);
        if (!name.isEmpty()) {
          c.verticalText(x + 9, (y0 + y1) / 2, name, TICK, INK);
        }
      }
    }
  }

  // ---- legend -----------------------------------------------------------------------------

  private void drawLegend(Canvas c) {
    double x = width - MARGIN - legendWidth;
    double y = overviewTop;
    // Partition views colour parts, not types: a list of type colours there would mislead.
    boolean typesShown = in.view() != ViewKind.TEMPORAL_PARTITION && in.view() != ViewKind.SPATIOTEMPORAL_PARTITION;
    c.text(x, y + 10, typesShown ? "Event types" : "Colours", LABEL, INK, Anchor.START, true);
    y += 18;
    List<String[]> notes = legendNotes();
    double notesHeight = notes.size() * 17 + (notes.isEmpty() ? 0 : 22);
    int fits = (int) Math.max(1, (overviewBottom - y - notesHeight) / 17);
    List<LegendEntry> legend = typesShown ? overview.legend() : List.of();
    int shown = legend.size() <= fits ? legend.size() : fits - 1;
    for (int i = 0; i < shown; i++) {
      LegendEntry e = legend.get(i);
      c.fill(x, y, 12, 12, e.colour(), 1, null);
      c.text(x + 18, y + 10, fit(e.name(), legendWidth - 18, LABEL), LABEL, INK, Anchor.START, false);
      y += 17;
    }
    if (shown < legend.size()) {
      c.text(x + 18, y + 10, "+ " + (legend.size() - shown) + " more", LABEL, GREY, Anchor.START, false);
      y += 17;
    }
    if (!notes.isEmpty()) {
      y += typesShown ? 12 : 0;
      for (String[] note : notes) {
        drawSwatch(c, note[0], x, y);
        c.text(x + 18, y + 10, fit(note[1], legendWidth - 18, TICK), TICK, INK, Anchor.START, false);
        y += 17;
      }
    }
    drawCurvesLegend(c, x);
  }

  /** (swatch kind, text) pairs explaining the encoding of the view and the marks it shows. */
  private List<String[]> legendNotes() {
    List<String[]> notes = new ArrayList<>();
    switch (in.view()) {
      case TEMPORAL_MODE, SPATIOTEMPORAL_MODE -> notes.add(new String[] {"ramp",
          opacityNote != null ? opacityNote : in.model().typeCount() == 1 ? NOTE_SINGLE_TYPE : NOTE_MODE});
      case TEMPORAL_PARTITION, SPATIOTEMPORAL_PARTITION -> notes.add(new String[] {"part", NOTE_PART});
      case TEMPORAL_STACKED -> { }
    }
    if (shows(Mark.MERGED)) {
      notes.add(new String[] {"merged", NOTE_MERGED});
    }
    if (shows(Mark.DIAGONAL)) {
      notes.add(new String[] {"diagonal", NOTE_DIAGONAL});
    }
    if (shows(Mark.CROSS)) {
      notes.add(new String[] {"cross", NOTE_CROSS});
    }
    return notes;
  }

  private boolean shows(Mark mark) {
    return overview.blocks().stream().anyMatch(b -> b.mark() == mark);
  }

  private void drawSwatch(Canvas c, String kind, double x, double y) {
    switch (kind) {
      case "ramp" -> {
        for (int i = 0; i < 4; i++) {
          c.fill(x + i * 3, y, 3, 12, "#2f6db5", 0.25 + 0.25 * i, null);
        }
      }
      case "merged" -> {
        c.fill(x, y, 12, 12, org.ocelotl.view.Palette.MERGED_LAYER, 1, null);
        c.hatch(x, y, 12, 12, "#7a7a7a");
      }
      case "part" -> {
        c.fill(x, y, 6, 12, "#8db3d9", 1, null);
        c.fill(x + 6, y, 6, 12, "#f2b880", 1, null);
      }
      default -> {
        c.fill(x, y, 12, 12, org.ocelotl.view.Palette.VISUAL_AGGREGATE, 1, null);
        drawMark(c, kind.equals("cross") ? Mark.CROSS : Mark.DIAGONAL, x, y, 12, 12);
      }
    }
  }

  // ---- quality curves ---------------------------------------------------------------------

  private double curvesPlotTop() {
    return curvesTop + 22;
  }

  /** Where value 1 is drawn: a little below the frame, so curves at 100 % stay visible. */
  private double curvesFull() {
    return curvesPlotTop() + 8;
  }

  private double curvesPlotBottom() {
    return height - MARGIN - 30;
  }

  /**
   * The right end of the p axis: every breakpoint lies at small p on real traces (the last one
   * often below 0.1), so the axis stops a little after the last breakpoint instead of at 1;
   * beyond it the partition is the single part.
   */
  private double pAxisEnd() {
    List<Double> breakpoints = curves.breakpoints();
    double last = breakpoints.isEmpty() ? 0 : breakpoints.get(breakpoints.size() - 1);
    double wanted = 1.25 * Math.max(last, in.p());
    if (wanted <= 0 || wanted >= 0.5) {
      return 1;
    }
    // The first of 1, 2, 2.5, 5 × 10^k at or above: a round axis end.
    double decade = Math.pow(10, Math.floor(Math.log10(wanted)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * decade >= wanted) {
        return step * decade;
      }
    }
    return 1;
  }

  private void drawCurves(Canvas c) {
    double x0 = overviewLeft;
    double x1 = overviewRight;
    double top = curvesPlotTop();
    double y0 = curvesFull();
    double y1 = curvesPlotBottom();
    double pEnd = pAxisEnd();
    c.text(x0, curvesTop + 10, "Quality curves: gain and loss of the optimal partition vs p, "
        + "normalised by their values at p = 1" + (pEnd < 1 ? " (one part from the last breakpoint to p = 1)" : ""),
        LABEL, INK, Anchor.START, true);
    for (double p : curves.breakpoints()) {
      if (p > 0) {
        double x = x0 + p / pEnd * (x1 - x0);
        c.line(x, top, x, y1, "#dadada", 1, false);
      }
    }
    for (double v : new double[] {0, 0.5, 1}) {
      double y = y1 - v * (y1 - y0);
      c.line(x0 - 4, y, x0, y, FRAME, 1, false);
      c.text(x0 - 6, y + 4, Math.round(v * 100) + "%", TICK, INK, Anchor.END, false);
    }
    int maxTicks = (int) Math.max(2, (x1 - x0) / 70);
    for (Tick t : Ticks.nice(0, pEnd, maxTicks)) {
      double x = x0 + t.at() * (x1 - x0);
      c.line(x, y1, x, y1 + 4, FRAME, 1, false);
      c.text(x, y1 + 15, t.label(), TICK, INK, Anchor.MIDDLE, false);
    }
    c.text(x1 + 16, y1 + 15, "p", LABEL, GREY, Anchor.START, false);
    drawSteps(c, curves.gain(), GAIN, x0, x1, y0, y1, pEnd);
    drawSteps(c, curves.loss(), LOSS, x0, x1, y0, y1, pEnd);
    double chosen = x0 + in.p() / pEnd * (x1 - x0);
    c.line(chosen, top, chosen, y1, INK, 1, true);
    String label = "chosen p = " + number(in.p());
    boolean roomRight = chosen + 6 + Canvas.textWidth(label, TICK) < x1;
    c.text(roomRight ? chosen + 5 : chosen - 5, y1 + 28, label, TICK, INK,
        roomRight ? Anchor.START : Anchor.END, true);
    dot(c, chosen, y1 - curves.chosenGain() * (y1 - y0), GAIN);
    dot(c, chosen, y1 - curves.chosenLoss() * (y1 - y0), LOSS);
    c.outline(x0, top, x1 - x0, y1 - top, FRAME, 1);
  }

  private static void drawSteps(Canvas c, List<QualityCurves.Step> steps, String colour,
      double x0, double x1, double y0, double y1, double pEnd) {
    double[] xs = new double[steps.size() * 2];
    double[] ys = new double[steps.size() * 2];
    for (int i = 0; i < steps.size(); i++) {
      QualityCurves.Step s = steps.get(i);
      double y = y1 - s.value() * (y1 - y0);
      xs[2 * i] = x0 + Math.min(s.from(), pEnd) / pEnd * (x1 - x0);
      xs[2 * i + 1] = x0 + Math.min(s.to(), pEnd) / pEnd * (x1 - x0);
      ys[2 * i] = y;
      ys[2 * i + 1] = y;
    }
    c.polyline(xs, ys, colour, 2);
  }

  private static void dot(Canvas c, double x, double y, String colour) {
    c.fill(x - 3.5, y - 3.5, 7, 7, colour, 1, null);
  }

  private void drawCurvesLegend(Canvas c, double x) {
    double y = curvesPlotTop();
    String[][] entries = {{GAIN, "gain"}, {LOSS, "loss"}, {INK, "chosen p"}, {"#c8c8c8", "breakpoints"}};
    for (int i = 0; i < entries.length; i++) {
      c.line(x, y + 6, x + 14, y + 6, entries[i][0], i < 2 ? 2 : 1, i == 2);
      c.text(x + 20, y + 10, entries[i][1], TICK, INK, Anchor.START, false);
      y += 16;
    }
    c.text(x, y + 12, curves.breakpoints().size() + " breakpoints", TICK, GREY, Anchor.START, false);
  }

  // ---- text helpers -----------------------------------------------------------------------

  private String tooltip(Block b) {
    Tooltip t = b.tooltip();
    StringBuilder s = new StringBuilder();
    s.append('[').append(number(t.start())).append(", ").append(number(t.end())).append(") ")
        .append(t.unit()).append('\n').append(t.producer()).append('\n')
        .append(t.leaves()).append(t.leaves() == 1 ? " leaf × " : " leaves × ")
        .append(t.slices()).append(t.slices() == 1 ? " slice" : " slices");
    if (t.hiddenParts() > 1) {
      s.append("\naggregated for display: ").append(t.hiddenParts()).append(" parts");
    }
    if (!t.merged().isEmpty()) {
      s.append("\nmerged layer: ").append(String.join(", ", t.merged()));
    }
    for (TypeShare share : t.types()) {
      s.append(String.format(Locale.ROOT, "%n%s %.1f%% (%s)", share.type(), 100 * share.share(), number(share.value())));
    }
    return s.toString();
  }

  /** The text, cut with an ellipsis to fit a width; empty when not even 3 characters fit. */
  static String fit(String text, double width, double size) {
    if (Canvas.textWidth(text, size) <= width) {
      return text;
    }
    int chars = (int) (width / (size * 0.6)) - 1;
    return chars < 3 ? "" : text.substring(0, chars) + "…";
  }

  /** Greedy wrap of items joined by " · " into lines no wider than {@code width}. */
  static List<String> wrap(List<String> items, double width, double size) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String item : items) {
      String candidate = line.length() == 0 ? item : line + " · " + item;
      if (line.length() > 0 && Canvas.textWidth(candidate, size) > width) {
        lines.add(line.toString());
        line = new StringBuilder(item);
      } else {
        line = new StringBuilder(candidate);
      }
    }
    lines.add(line.toString());
    return lines;
  }

  /** Up to 4 significant digits, no trailing zeros. */
  public static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return Long.toString((long) v);
    }
    return Decimals.significant4(v);
  }

  private static double fraction(double value, double max) {
    return max > 0 ? value / max : 0;
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
