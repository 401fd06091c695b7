package org.ocelotl.analysis;

import static org.ocelotl.analysis.RequestSpec.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.Metrics;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.Workspace;

/**
 * The requests that a request's values describe, built once for every front end: the rules that
 * turn parameters into a model request (a saved selection in place of the window and filters, the
 * trace's bounds as the default window, producer kinds and excluded types resolved against the
 * trace) live here, not in a front end.
 */
public final class Requests {
  private Requests() {}

  /**
   * The model request of {@code values} on {@code store}, whose saved selection {@code selection}
   * may name (read from {@code workspace}).
   */
  public static ModelRequest model(RequestValues values, TraceStore store, Workspace workspace) throws IOException {
    return model(values, store.metadata(), selection(values, store, workspace, FROM, TO, PRODUCERS, TYPES,
        EXCLUDE_TYPES));
  }

  /**
   * The model request of {@code values} on a trace's metadata alone, with the saved selection
   * that replaces its window and filters, or null: what a dataset on Spark, which has no
   * workspace, is asked with.
   */
  public static ModelRequest model(RequestValues values, StoreMetadata m, Selection selection) {
    Metric metric = values.given(METRIC) ? Metrics.parse(values.choice(METRIC)) : defaultMetric(m);
    // NaN: the trace's bound; the model's plan checks the window against the trace.
    double start = selection != null ? selection.from()
        : values.takes(FROM) ? values.time(FROM, m.origin(), m.timeUnit()) : Double.NaN;
    double end = selection != null ? selection.to()
        : values.takes(TO) ? values.time(TO, m.origin(), m.timeUnit()) : Double.NaN;
    int depth = values.integer(DEPTH, ProducerSelection.AUTO_DEPTH);
    List<String> kept = selection != null ? selection.producers() : values.list(PRODUCERS);
    List<String> excluded = excluded(values, m);
    // A selection's types are kept as they were saved, whatever the front end.
    List<String> types = selection != null ? selection.types() : types(values, m, metric);
    // A request that cannot take a cached model (a dataset on Spark) is exact.
    boolean exact = !values.takes(EXACT) || values.choice(EXACT).equals("true");
    boolean inclusive = values.takes(TIME) && values.choice(TIME).equals(INCLUSIVE);
    return new ModelRequest(metric, start, end, values.integer(SLICES), new ProducerSelection(kept, excluded, depth),
        types, exact, inclusive);
  }

  /**
   * Two runs compared: the same model asked of both (its window set by the align, narrowed by a
   * window in OTHER's time), the difference overview's p, the drawing height (a picture's, else the
   * page's canvas) and the differences listed.
   */
  public static CompareRequest compare(RequestValues values, TraceStore base, TraceStore other) {
    int height = values.given(HEIGHT) ? values.integer(HEIGHT) : AnalysisRequest.DEFAULT_HEIGHT;
    StoreMetadata om = other.metadata();
    // The model's window is the service's to set from the align; a window given is OTHER's.
    return new CompareRequest(
        new ModelInput.FromTrace(base, model(values, base.metadata(), null).withWindow(Double.NaN, Double.NaN)),
        new ModelInput.FromTrace(other, model(values, om, null).withWindow(Double.NaN, Double.NaN)),
        CompareRequest.Align.valueOf(values.choice(ALIGN).toUpperCase(Locale.ROOT)),
        values.time(FROM, om.origin(), om.timeUnit()), values.time(TO, om.origin(), om.timeUnit()), values.number(P),
        height, values.integer(LIMIT));
  }

  /** What the overview's partition hides, and how many of its cells to list. */
  public static OutliersRequest outliers(RequestValues values, ModelInput input) {
    return new OutliersRequest(overview(values, input), values.integer(LIMIT));
  }

  /** The overview a request asks for, on {@code input}. */
  public static AnalysisRequest overview(RequestValues values, ModelInput input) {
    ViewKind view;
    try {
      view = ViewKind.of(values.choice(AGGREGATION), values.choice(VIEW));
    } catch (IllegalArgumentException e) {
      throw values.refusal(VIEW, e.getMessage());
    }
    // The height the view is drawn at decides which producers are too thin to draw: the picture's
    // height when one is given, else the page's default canvas (a picture's default size aside).
    int height = values.given(HEIGHT) ? values.integer(HEIGHT) : AnalysisRequest.DEFAULT_HEIGHT;
    return new AnalysisRequest(input, AnalysisRequest.aggregationOf(view), view, values.number(P), height);
  }

  /** The spatial analysis behind a treemap or a topology graph, on {@code input}. */
  public static AnalysisRequest spatial(RequestValues values, ModelInput input) {
    return new AnalysisRequest(input, Aggregation.SPATIAL, null, values.number(P), AnalysisRequest.DEFAULT_HEIGHT);
  }

  public static TreemapRequest treemap(RequestValues values, ModelInput input) {
    return new TreemapRequest(spatial(values, input), values.integer(CUT, -1), values.integerOr(STEP, -1),
        values.integer(WIDTH), values.integer(HEIGHT));
  }

  /**
   * The metric of a request that names none: the spec's default (the states' durations), unless
   * the trace has no records it reads; then the first metric the trace has records for, in the
   * order the metrics are listed, as the page picks it (a default that can only fail is none).
   */
  static Metric defaultMetric(StoreMetadata m) {
    Metric preferred = Metrics.parse(METRIC.fallback());
    if (m.offers(preferred)) {
      return preferred;
    }
    for (Metric metric : Metrics.all()) {
      if (m.offers(metric)) {
        return metric;
      }
    }
    return preferred; // nothing to show: the model's plan says why
  }

  /**
   * A topology graph: without a metric or a type filter, a trace that records capacities is shown
   * by capacity and use, or by the variables the analyst maps to each node kind's size and fill
   * ({@link TopologyRequest#capacityModel}, {@link NodeMapping}).
   */
  public static TopologyRequest topology(RequestValues values, TraceStore store, ModelRequest model,
      List<String> toggles) {
    NodeMapping mapping = NodeMapping.of(values, store.metadata());
    if (!values.given(METRIC) && !values.given(EXCLUDE_TYPES) && model.types().isEmpty()) {
      model = TopologyRequest.capacityModel(store.metadata(), model, mapping);
    } else if (!mapping.isDefault() && (model.metric() != Metric.VARIABLE_MEAN || !model.types().isEmpty()
        || values.given(EXCLUDE_TYPES))) {
      // The page always sends its metric (decision 039): variable mean is the one whose model holds every variable.
      throw new IllegalArgumentException("a node's size and fill name variables: they take the variable mean (or no "
          + "metric) without a type filter");
    }
    AnalysisRequest analysis = spatial(values, new ModelInput.FromTrace(store, model));
    int side = Math.min(values.integer(WIDTH), values.integer(HEIGHT));
    // Read before the try: a bad cut or step names its own parameter, not the toggles.
    int cut = values.integer(CUT, -1);
    int step = values.integerOr(STEP, -1);
    try {
      return new TopologyRequest(analysis, cut, step, toggles, side, mapping);
    } catch (IllegalArgumentException e) {
      throw values.refusal(TOGGLES, e.getMessage());
    }
  }

  /**
   * What a record query looks at: a window (NaN: the trace's bound), producers and types.
   */
  public record Window(double from, double to, List<String> producers, List<String> types) {}

  /** The window, producers and types of a record query: its parameters, or a saved selection's. */
  public static Window window(RequestValues values, TraceStore store, Workspace workspace) throws IOException {
    // A sub-trace's request names no types to leave out; the record views' requests do.
    Selection s = values.takes(EXCLUDE_TYPES) ? selection(values, store, workspace, FROM, TO, PRODUCERS, TYPES,
        EXCLUDE_TYPES) : selection(values, store, workspace, FROM, TO, PRODUCERS, TYPES);
    return s != null ? new Window(s.from(), s.to(), s.producers(), s.types())
        : new Window(values.time(FROM, store.metadata().origin(), store.metadata().timeUnit()),
            values.time(TO, store.metadata().origin(), store.metadata().timeUnit()), values.list(PRODUCERS),
            keptTypes(values, store.metadata()));
  }

  /**
   * The type names a record query keeps: those named (all when none is), less those left out; a
   * name left out that the trace does not have is refused, as a kept one is.
   */
  private static List<String> keptTypes(RequestValues values, StoreMetadata m) {
    List<String> types = values.list(TYPES);
    List<String> left = values.takes(EXCLUDE_TYPES) ? values.list(EXCLUDE_TYPES) : List.of();
    if (left.isEmpty()) {
      return types;
    }
    Set<Integer> out;
    try {
      out = RecordQuery.typesNamed(m, left);
    } catch (IllegalArgumentException e) {
      throw values.refusal(EXCLUDE_TYPES, e.getMessage());
    }
    Set<Integer> in = types.isEmpty() ? null : RecordQuery.typesNamed(m, types);
    Set<String> kept = new TreeSet<>();
    for (StoreMetadata.EventType t : m.types()) {
      if ((in == null || in.contains(t.id())) && !out.contains(t.id())) {
        kept.add(t.name());
      }
    }
    if (kept.isEmpty()) {
      throw values.refusal(EXCLUDE_TYPES, "every type is left out");
    }
    return List.copyOf(kept);
  }

  /** The saved selection named, or null; refused beside any of the parameters it replaces. */
  private static Selection selection(RequestValues values, TraceStore store, Workspace workspace, Param... replaced)
      throws IOException {
    String name = values.text(SELECTION);
    if (name == null || name.isEmpty()) {
      return null;
    }
    boolean given = false;
    List<String> spelt = new ArrayList<>();
    for (Param p : replaced) {
      given |= values.given(p);
      spelt.add(values.spelling(p));
    }
    Selection.exclusive(name, given, String.join(", ", spelt));
    return SelectionFile.of(workspace, store).get(name);
  }

  /**
   * The producers left out: those named, and every producer of the container types named ("MPI":
   * every rank), so that a page leaves out a whole level with a short URL.
   */
  private static List<String> excluded(RequestValues values, StoreMetadata m) {
    List<String> exclude = values.list(EXCLUDE);
    List<String> kinds = values.list(EXCLUDE_KINDS);
    if (kinds.isEmpty()) {
      return exclude;
    }
    List<String> all = new ArrayList<>(exclude);
    Set<String> known = new TreeSet<>();
    for (StoreMetadata.Producer p : m.producers()) {
      if (p.parent() >= 0) { // the root is no kind of producer a user leaves out
        known.add(p.kind());
        if (kinds.contains(p.kind())) {
          all.add(m.path(p.id()));
        }
      }
    }
    for (String kind : kinds) {
      if (!known.contains(kind)) {
        throw values.refusal(EXCLUDE_KINDS, "no producer of type '" + kind + "'; this trace has "
            + String.join(", ", known));
      }
    }
    return all;
  }

  /**
   * The types the model keeps: those named (or every type of the metric's category), less those
   * excluded; empty keeps every type.
   */
  private static List<String> types(RequestValues values, StoreMetadata m, Metric metric) {
    List<String> excluded = values.list(EXCLUDE_TYPES);
    List<String> kept = values.list(TYPES);
    if (excluded.isEmpty()) {
      return kept; // checked against the trace where the model is planned
    }
    List<String> all = m.types().stream().filter(t -> t.category() == metric.category())
        .map(StoreMetadata.EventType::name).distinct().toList();
    String category = StoreMetadata.categoryName(metric.category());
    for (String name : excluded) {
      if (!all.contains(name)) {
        throw values.refusal(EXCLUDE_TYPES, "unknown " + metric.category().name().toLowerCase(Locale.ROOT)
            + " type '" + name + "'; this trace has " + String.join(", ", all));
      }
    }
    List<String> left = (kept.isEmpty() ? all : kept).stream().filter(name -> !excluded.contains(name)).toList();
    if (left.isEmpty()) {
      throw new IllegalArgumentException("no " + category + " left to show: the type filter removed them all");
    }
    return left;
  }
}
