package org.ocelotl.analysis;

import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.view.ViewKind;

/**
 * One question to the analysis service, whichever front end asks it.
 *
 * @param input       where the microscopic model comes from
 * @param aggregation how it is aggregated
 * @param view        the overview to draw, or null for none (spatial aggregation, model files)
 * @param p           the trade-off, or NaN for the default p (the best normalised gain − loss)
 * @param height      the overview's drawing height in pixels, which decides which producers are
 *                    too thin to draw (visual aggregation)
 */
public record AnalysisRequest(ModelInput input, Aggregation aggregation, ViewKind view, double p, int height) {
  /** The drawing height when the front end does not say (the web UI's default canvas). */
  public static final int DEFAULT_HEIGHT = 600;
  /** The producer rows that height draws: what an automatic depth is chosen for when no view says. */
  public static final int DEFAULT_ROWS = (int) (DEFAULT_HEIGHT / org.ocelotl.view.OverviewGeometry.VISUAL_THRESHOLD_PX);

  public AnalysisRequest {
    if (!Double.isNaN(p) && !(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("p must be a number in [0, 1], got " + p);
    }
    if (view != null && view.spatiotemporal() != (aggregation == Aggregation.SPATIOTEMPORAL)) {
      throw new IllegalArgumentException("the " + view.aggregation() + " view " + view.view()
          + " cannot show a " + aggregation.name().toLowerCase(java.util.Locale.ROOT) + " aggregation");
    }
    if (height < 1) {
      throw new IllegalArgumentException("the drawing height must be at least 1 pixel, got " + height);
    }
  }

  /** The aggregation a view shows. */
  public static Aggregation aggregationOf(ViewKind view) {
    return view.spatiotemporal() ? Aggregation.SPATIOTEMPORAL : Aggregation.TEMPORAL;
  }
}
