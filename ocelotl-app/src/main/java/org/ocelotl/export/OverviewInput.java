package org.ocelotl.export;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.CompareResult;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.ViewKind;

/**
 * Everything one overview picture shows.
 *
 * @param model        the microscopic model
 * @param window       its time window, in the trace's unit
 * @param view         which overview
 * @param breakpoints  the p search's output, p ascending (for the curves panel)
 * @param p            the chosen p
 * @param partition    the partition optimal at p
 * @param typeColours  null, or one entry per type of the model: null or the trace's "r g b"
 * @param traceName    shown as the picture's title
 * @param metric       e.g. "state total duration" (caption, and the stacked bars' y axis)
 * @param exactModel   false when the model was rebuilt from a cached one (approximate)
 * @param filters      the model's producer and type filters in caption words; empty for none
 * @param timeScale    how times read: since the trace's start, in a unit suiting the window
 */
public record OverviewInput(MicroscopicModel model, TimeWindow window, ViewKind view,
    List<Breakpoint> breakpoints, double p, Partition partition, List<String> typeColours,
    String traceName, String metric, boolean exactModel, List<String> filters, TimeScale timeScale) {
  /** What the picture of an analysis result shows: its view, with axes, legend, curves and caption. */
  public static OverviewInput of(AnalysisResult r) {
    if (r.view() == null) {
      throw new IllegalArgumentException("no view was asked for: a picture needs one");
    }
    BuiltModel built = r.analysis().built();
    TimeWindow window = new TimeWindow(built.grid().start(), built.grid().end(), built.timeUnit());
    return new OverviewInput(built.model(), window, r.view(), r.analysis().breakpoints(), r.p(), r.partition(),
        built.typeColours(), r.name(), r.metricLabel(), built.exact(), r.filters(), r.timeScale());
  }

  /** The difference overview of two runs compared: its partition, coloured by the type each part gained most. */
  public static OverviewInput of(CompareResult r) {
    AnalysisResult o = r.overview();
    BuiltModel built = o.analysis().built();
    List<String> caption = new java.util.ArrayList<>(o.analysis().filters());
    caption.add(0, "difference of OTHER from BASE, align " + r.request().align().word() + ", time of OTHER");
    return new OverviewInput(r.gains(), new TimeWindow(built.grid().start(), built.grid().end(), built.timeUnit()),
        o.view(), o.analysis().breakpoints(), o.p(), o.partition(), r.colours(), o.name(), o.metricLabel(), built.exact(),
        caption, o.timeScale());
  }

  public OverviewInput {
    breakpoints = List.copyOf(breakpoints);
    filters = List.copyOf(filters);
    // List.copyOf refuses nulls, and a type without a trace colour is a null entry.
    typeColours = typeColours == null ? null : Collections.unmodifiableList(new ArrayList<>(typeColours));
  }
}
