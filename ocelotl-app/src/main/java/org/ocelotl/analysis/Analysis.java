package org.ocelotl.analysis;

import java.util.List;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.scan.BuiltModel;

/**
 * A model aggregated for every p at once: what each p of it needs, kept by the service so that
 * moving p costs a look-up and the geometry. The qualities themselves are not kept (they are
 * the large part, and the breakpoints hold every partition).
 *
 * @param trace       the trace the model comes from, or null for a model read from files
 * @param built       the model and what a view must say of it
 * @param breakpoints every distinct optimal partition, p ascending, the first at p = 0
 * @param defaultP    the best normalised gain − loss (SPEC.md §5)
 */
public record Analysis(TraceSummary trace, BuiltModel built, Aggregation aggregation, List<Breakpoint> breakpoints,
    double defaultP) {
  public Analysis {
    breakpoints = List.copyOf(breakpoints);
  }
}
