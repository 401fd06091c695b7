package org.ocelotl.analysis;

import java.util.List;
import org.ocelotl.aggregation.Outlier;

/**
 * The cells the partition shown hides, with the answer it was shown in.
 *
 * @param result   the analysis answer: model, p, partition
 * @param outliers every deviating cell, highest score first (docs/aggregation.md)
 * @param limit    how many of them the JSON form lists
 */
public record OutliersResult(AnalysisResult result, List<Outlier> outliers, int limit) {
  public OutliersResult {
    outliers = List.copyOf(outliers);
  }

  /** The JSON form: compact UTF-8, the same bytes from every front end. */
  public byte[] json() {
    return JsonForm.bytes(JsonForm.outliers(this));
  }

  /** The first {@code limit}. */
  public List<Outlier> listed() {
    return outliers.subList(0, Math.min(limit, outliers.size()));
  }

  /** How many are worth telling apart at the p shown: what the caption counts as hidden. */
  public int hidden() {
    return hiddenAt(outliers, result.p());
  }

  /** How many of the cells are worth telling apart at p (p below their {@link Outlier#worthUpTo()}). */
  public static int hiddenAt(List<Outlier> outliers, double p) {
    return (int) outliers.stream().filter(o -> o.worthUpTo() > p).count();
  }
}
