package org.ocelotl.analysis;

import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Outlier;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.TimeScale;

/**
 * The cells the partition shown hides, with what it was shown in.
 *
 * @param shown    the model, p and partition whose parts are ranked
 * @param outliers every deviating cell, highest score first (docs/aggregation.md)
 * @param limit    how many of them the JSON form lists
 */
public record OutliersResult(Shown shown, List<Outlier> outliers, int limit) {
  public OutliersResult {
    outliers = List.copyOf(outliers);
  }

  /**
   * The partition ranked: of a full answer, or of the first one of a spatiotemporal request (the
   * exact default p and its partition, or the partition at the request's p), which needs no
   * breakpoint search.
   *
   * @param defaultP the default p, NaN when not known (a request with p whose breakpoints are not searched)
   */
  public record Shown(String name, TraceSummary trace, BuiltModel built, Aggregation aggregation, double p,
      double defaultP, Partition partition, TimeScale timeScale) {
    static Shown of(AnalysisResult r) {
      Analysis a = r.analysis();
      return new Shown(r.name(), a.trace(), a.built(), a.aggregation(), r.p(), a.defaultP(), r.partition(),
          r.timeScale());
    }

    static Shown of(ProvisionalResult r) {
      return new Shown(r.trace().name(), r.trace(), r.built(), r.aggregation(), r.p(), r.defaultP(), r.partition(),
          r.timeScale());
    }
  }

  /** The JSON form: compact UTF-8, the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.outliers(this));
  }

  /** The first {@code limit}. */
  /**
   * "when" for a stretch of its part (every producer of the part over some of its slices: when the
   * run departs), "who" for a subtree below the part's node (which producers depart from the others).
   */
  public static String kind(Outlier o, org.ocelotl.aggregation.Partition partition) {
    return o.node() == partition.parts().get(o.part()).node() ? "when" : "who";
  }

  public List<Outlier> listed() {
    return outliers.subList(0, Math.min(limit, outliers.size()));
  }

  /** How many are worth telling apart at the p shown: what the caption counts as hidden. */
  public int hidden() {
    return hiddenAt(outliers, shown.p());
  }

  /** How many of the cells are worth telling apart at p (p below their {@link Outlier#worthUpTo()}). */
  public static int hiddenAt(List<Outlier> outliers, double p) {
    return (int) outliers.stream().filter(o -> o.worthUpTo() > p).count();
  }
}
