package org.ocelotl.app;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.store.TraceStore;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options that choose a microscopic model: metric, window, slices, filters. Mixed into
 * every command that builds one ({@code model}, {@code overview}), so they read the same.
 */
public final class ModelOptions {
  @Option(names = "--metric", paramLabel = "METRIC", defaultValue = "state-duration",
      description = "What the cells measure: state-duration, state-average, event-count, variable-mean, "
          + "link-count, link-volume (default: ${DEFAULT-VALUE}).")
  String metric;

  @Option(names = "--slices", paramLabel = "N", description = "Number of time slices, 1 to 10000.")
  Integer slices;

  @Mixin SelectionOptions selection;

  @Option(names = "--exclude", paramLabel = "NAME", split = ",", description = "Remove these producers and their subtrees.")
  List<String> exclude = new ArrayList<>();

  @Option(names = "--depth", paramLabel = "D|auto", defaultValue = "0",
      description = "Producers at this depth of the tree become the leaves, each summing its subtree (0: every level; "
          + "auto: the deepest level whose producers get rows of 4 pixels in a 600-pixel overview).")
  String depth;

  @Option(names = "--approximate",
      description = "Allow a model rebuilt from a cached finer one by splitting slices in proportion (faster zooms on "
          + "huge traces; marked approximate). Default: exact, so the same request always gives the same answer.")
  boolean approximate;

  private int depth() {
    if (depth.equals("auto")) {
      return ProducerSelection.AUTO_DEPTH;
    }
    try {
      int d = Integer.parseInt(depth);
      if (d >= 0) {
        return d;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("--depth takes a depth ≥ 0 or auto, got '" + depth + "'");
  }

  /**
   * The request these options describe on {@code store} (whose saved selection {@code --selection}
   * may name), with {@code defaultSlices} when --slices is absent.
   */
  public ModelRequest request(int defaultSlices, TraceOptions trace, TraceStore store) throws IOException {
    SelectionOptions.Filter filter = selection.filter(trace.workspace(), store);
    return new ModelRequest(Metric.parse(metric), filter.from(), filter.to(), slices == null ? defaultSlices : slices,
        new ProducerSelection(filter.producers(), exclude, depth()), filter.types(), !approximate);
  }
}
