package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;

/**
 * A model aggregated for every p at once: what each p of it needs, kept by the service so that
 * moving p costs a look-up and the geometry. The qualities themselves are not kept (they are
 * the large part, and the breakpoints hold every partition).
 *
 * @param trace       the trace the model comes from, or null for a model read from files
 * @param built       the model and what a view must say of it
 * @param breakpoints every distinct optimal partition, p ascending, the first at p = 0
 * @param defaultP    the best normalised gain − loss (SPEC.md §5)
 * @param filters     the model's producer and type filters as a reader reads them in a caption
 *                    ("producers: rennes, nancy"), empty when the model covers the whole trace
 * @param producerDepth the depth at which the producer tree was cut (0: every level)
 */
public record Analysis(TraceSummary trace, BuiltModel built, Aggregation aggregation, List<Breakpoint> breakpoints,
    double defaultP, List<String> filters, int producerDepth) {
  public Analysis {
    breakpoints = List.copyOf(breakpoints);
    filters = List.copyOf(filters);
  }

  /** The filters of a model request, in caption words. */
  static List<String> filters(ModelRequest request) {
    List<String> words = new ArrayList<>();
    ProducerSelection producers = request.producers();
    if (!producers.include().isEmpty()) {
      words.add("producers: " + list(producers.include()));
    }
    if (!producers.exclude().isEmpty()) {
      words.add("without: " + list(producers.exclude()));
    }
    if (producers.depth() > 0) {
      words.add("producers cut at depth " + producers.depth());
    }
    if (!request.types().isEmpty()) {
      words.add("types: " + list(request.types()));
    }
    return words;
  }

  /** A list a caption can hold: up to four names, else the count and the first three. */
  private static String list(List<String> names) {
    return names.size() <= 4 ? String.join(", ", names)
        : names.size() + " (" + String.join(", ", names.subList(0, 3)) + ", …)";
  }
}
