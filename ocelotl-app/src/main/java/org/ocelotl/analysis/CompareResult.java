package org.ocelotl.analysis;

import java.util.List;
import org.ocelotl.compare.Difference;
import org.ocelotl.compare.Differences;

/**
 * How OTHER departs from BASE: the difference overview (an analysis result of the difference
 * model, in OTHER's time) and the differences ranked.
 *
 * @param base        BASE's trace
 * @param other       OTHER's trace
 * @param baseWindow  the window of BASE compared, in BASE's time [start, end)
 * @param otherWindow the window of OTHER compared, in OTHER's time
 * @param difference  the two models matched and their difference
 * @param overview    the difference overview: its model is the difference model, its picture's
 *                    colours those of the gains ({@link #gains})
 * @param changes     every difference, highest score first
 * @param colours     the trace colour of each of {@link Difference#types} (OTHER's, else BASE's), or null
 * @param links       the same runs compared by the links' use, where the first difference is a stall
 *                    of every producer and both runs record it ({@link AnalysisService#compare}); or null
 * @param site        where the links' first difference is a link with a site ({@link LinkSites}): that
 *                    site, the answer's first difference; or null
 */
public record CompareResult(CompareRequest request, TraceSummary base, TraceSummary other, double[] baseWindow,
    double[] otherWindow, Difference difference, AnalysisResult overview, List<Differences.Change> changes,
    List<String> colours, CompareResult links, LinkSite site) {
  /** The largest differences the summary names, the site behind a link among them where there is one. */
  public static final int SUMMARISED = 3;

  /** What the difference overview's opacity says, in its picture's legend. */
  public static final String OPACITY_NOTE = "opacity = |OTHER − BASE| / largest";

  /**
   * The site behind the link that departs first by the links' use: the states' first difference
   * is then every producer's (it says when, not who), so the site comes first, found by the link
   * (decision 060). Its window, score and type shares are the link difference's: a score of the
   * links' comparison, not on the states' scale, and first for that reason, not for its size.
   *
   * @param node   the site's node in the tree of {@link #difference}'s model (the states')
   * @param link   the link's path
   * @param change the links' first difference, of {@link #links}
   */
  public record LinkSite(int node, String link, Differences.Change change) {}

  public CompareResult {
    changes = List.copyOf(changes);
    colours = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(colours));
  }

  /** This result with the comparison by the links' use beside it, and the site it finds (or null). */
  public CompareResult withLinks(CompareResult byLinks, LinkSite behindTheLink) {
    return new CompareResult(request, base, other, baseWindow, otherWindow, difference, overview, changes, colours,
        byLinks, behindTheLink);
  }

  /** The JSON form: the difference overview's analysis result with {@code compare} and {@code differences}. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.compare(this));
  }

  /** The states' differences listed: the first {@code limit}, less one for the site where it comes first. */
  public List<Differences.Change> listed() {
    int room = site == null ? request.limit() : request.limit() - 1; // limit ≥ 1 (RequestSpec.COMPARE)
    return changes.subList(0, Math.min(room, changes.size()));
  }

  /** Every difference the answer counts: the states', and the site where it comes first. */
  public int count() {
    return changes.size() + (site == null ? 0 : 1);
  }

  /**
   * What the difference overview's colours show: per cell and type, what OTHER gained over BASE
   * (the j+ of the difference model, on every type). A part is drawn in the colour of the type that
   * gained most.
   */
  public org.ocelotl.model.MicroscopicModel gains() {
    return gains(difference);
  }

  static org.ocelotl.model.MicroscopicModel gains(Difference difference) {
    double[] b = difference.base().values();
    double[] o = difference.other().values();
    double[] gained = new double[b.length];
    for (int i = 0; i < b.length; i++) {
      gained[i] = Math.max(0, o[i] - b[i]);
    }
    return new org.ocelotl.model.MicroscopicModel(difference.base().tree(), difference.base().slices(),
        difference.types(), gained);
  }

  /** Each run's duration: its trace's span. */
  public double baseDuration() {
    return base.end() - base.start();
  }

  public double otherDuration() {
    return other.end() - other.start();
  }

  /**
   * How much OTHER departs from BASE over the window compared: Σ|OTHER − BASE| / Σ(BASE + OTHER),
   * 0 for the same run twice, 1 when they never overlap (every type of every cell).
   */
  public double departure() {
    double[] d = difference.model().values();
    double[] b = difference.base().values();
    double[] o = difference.other().values();
    double moved = 0;
    double all = 0;
    for (double x : d) {
      moved += x;
    }
    for (int i = 0; i < b.length; i++) {
      all += b[i] + o[i];
    }
    return all == 0 ? 0 : moved / all;
  }
}
