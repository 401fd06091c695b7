package org.ocelotl.scan;

import org.ocelotl.model.EventCategory;
import org.ocelotl.store.Columns;
import org.ocelotl.store.StoreMetadata;

/**
 * A model scan fed with batches of records by an engine other than the local store scan — a Spark
 * task reading a partition of the Parquet dataset. It plans on the store's metadata alone (the same
 * {@link ModelPlan} as a local build, so the same refusals and the same rows and columns) and adds
 * each batch with the same kernels as a local build ({@link ModelSums#add}), over the whole grid.
 * Scans of disjoint parts of the records are summed with {@link #add(double[][])}.
 *
 * <p>Against a local build, each cell gets the same additions; only their grouping differs (a local
 * build adds records one after another in store order, partial scans add their partial sums), so
 * counts, which stay integers far below 2^53, are equal, and sums of durations and values agree to
 * the rounding of a few additions.
 */
public final class ModelScan {
  private final ModelPlan plan;
  private final ModelLayout layout;
  private final ModelSums sums;

  private ModelScan(ModelPlan plan) {
    this.plan = plan;
    this.layout = plan.layout();
    this.sums = ModelSums.zero(plan.metric(), plan.grid(), plan.leaves(), plan.types());
  }

  /**
   * An empty scan for {@code request} on the trace {@code metadata} describes.
   *
   * @throws IllegalArgumentException for a request the trace cannot answer (message for the user),
   *                                  as {@link ModelBuilder#build} refuses it; an automatic depth included
   */
  public static ModelScan of(StoreMetadata metadata, ModelRequest request) {
    return new ModelScan(ModelPlan.of(metadata, request));
  }

  /** The category whose records the metric reads. */
  public EventCategory category() {
    return plan.metric().category();
  }

  /** The state metrics' inclusive time rather than exclusive: exclusive reads the outer-type column. */
  public boolean inclusive() {
    return plan.inclusive();
  }

  /** The model's window and slices: records outside it add nothing, so a reader may skip them. */
  public SliceGrid grid() {
    return plan.grid();
  }

  /** Adds the records of a batch (columns of {@link #category()}). */
  public void add(Columns columns) {
    sums.add(layout, plan.inclusive(), 0, plan.grid().slices(), columns);
  }

  /** The sums so far (live arrays, no copy): what a partial scan hands back to be summed. */
  public double[][] sums() {
    return sums.arrays();
  }

  /** Adds the sums of another scan of the same request over other records. */
  public void add(double[][] partial) {
    sums.add(partial);
  }

  /** The model of the records added; this scan must not be used afterwards. */
  public BuiltModel model() {
    return ModelBuilder.model(plan, sums, true);
  }
}
