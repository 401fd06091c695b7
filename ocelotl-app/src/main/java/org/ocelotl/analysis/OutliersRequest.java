package org.ocelotl.analysis;

/**
 * What the partition shown hides (docs/aggregation.md, "What each aggregate hides"): the analysis
 * and how many of its hidden cells to list. The only parameter this question adds, declared here
 * for every front end.
 *
 * @param analysis the model, aggregation and p (the partition shown)
 * @param limit    how many cells of each kind to list, who then when, each highest score first (decision
 *                 061; the count of all is always given)
 */
public record OutliersRequest(AnalysisRequest analysis, int limit) {
  /** Listed when the front end does not say: what fits beside an overview. */
  public static final int DEFAULT_LIMIT = 10;
  public static final int MAX_LIMIT = 1000;

  public OutliersRequest {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("the limit must be a count in [1, " + MAX_LIMIT + "], got " + limit);
    }
  }
}
