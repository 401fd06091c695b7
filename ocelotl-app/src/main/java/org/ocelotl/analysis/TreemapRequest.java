package org.ocelotl.analysis;

import org.ocelotl.aggregation.Aggregation;

/**
 * A treemap question (docs/views.md): the spatial analysis of a model, the cut and the time
 * step shown, and the treemap's size.
 *
 * @param analysis the model and p; its aggregation must be spatial and it asks for no overview
 * @param depth    the hierarchy depth to cut at, or -1 for the spatial partition at p
 * @param slice    the one slice shown (a time step), or -1 for the whole window
 * @param width    the treemap's drawing width in pixels (the picture adds caption and legend)
 * @param height   the treemap's drawing height in pixels
 */
public record TreemapRequest(AnalysisRequest analysis, int depth, int slice, int width, int height) {
  public static final int DEFAULT_WIDTH = 1000;
  public static final int DEFAULT_HEIGHT = 640;
  public static final int MIN_SIDE = 100;
  public static final int MAX_SIDE = 8192;

  public TreemapRequest {
    if (analysis.aggregation() != Aggregation.SPATIAL || analysis.view() != null) {
      throw new IllegalArgumentException("a treemap shows a spatial aggregation and no overview");
    }
    if (depth < -1) {
      throw new IllegalArgumentException("the cut depth must be ≥ 0, got " + depth);
    }
    if (slice < -1) {
      throw new IllegalArgumentException("the time step must be a slice index ≥ 0, got " + slice);
    }
    if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) {
      throw new IllegalArgumentException("the treemap's size must be between " + MIN_SIDE + "×" + MIN_SIDE + " and "
          + MAX_SIDE + "×" + MAX_SIDE + " pixels, got " + width + "×" + height);
    }
  }
}
