package org.ocelotl.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.export.Format;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.export.TreemapPicture;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.Treemap;

/**
 * The answer to a {@link TreemapRequest}: the spatial analysis (breakpoints, curves, the
 * partition at p) and the treemap drawn from it, with one JSON form.
 */
public record TreemapResult(TreemapRequest request, AnalysisResult result, Treemap treemap) {
  /** The analysis result's JSON form with a {@code "treemap"} field: the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.treemapResult(this));
  }

  /** The picture: the treemap at its requested size, with caption and legend around it. */
  public void render(Format format, OutputStream out) throws IOException {
    TreemapPicture.render(treemap, title(), caption(), request.width(), request.height(), format, out);
  }

  /** What the picture's caption says: window or step, N, producers, metric, cut, p, exactness. */
  public List<String> caption() {
    Treemap t = treemap;
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

  /** The trace's name, or "model". */
  public String title() {
    return result.analysis().trace() != null ? result.analysis().trace().name() : "model";
  }

  /** The file name stem of an export: trace, "treemap". */
  public String fileStem() {
    return (title() + "-treemap").replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
