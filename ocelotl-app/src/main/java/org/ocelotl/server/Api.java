package org.ocelotl.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.export.Format;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.json.Json;
import org.ocelotl.model.EventCategory;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.Metric;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.store.Workspace;
import org.ocelotl.view.Overview;
import org.ocelotl.view.OverviewGeometry;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.ViewKind;

/**
 * The JSON API over the pipeline (docs/api.md): traces, their producers and types, the import
 * action, and overviews with their breakpoints, curves and geometry.
 *
 * <p>Per (trace, model request) the built model is kept, and per (model, aggregation) its
 * qualities and breakpoints: moving p then costs a look-up and the geometry, a zoom costs a
 * model build and a quality computation.
 */
public final class Api implements AutoCloseable {
  private static final Set<String> OVERVIEW_PARAMS = Set.of("trace", "metric", "aggregation", "view",
      "start", "end", "slices", "p", "include", "exclude", "depth", "xtypes", "exact", "height", "client", "seq");
  private static final Set<String> EXPORT_PARAMS = union(OVERVIEW_PARAMS, Set.of("format", "width"));
  private static final int DEFAULT_SLICES = 100;

  private final Traces traces;
  private final ModelSource models;
  private final Jobs jobs = new Jobs();
  private final Memo<ModelKey, BuiltModel> modelCache = new Memo<>(6);
  private final Memo<AnalysisKey, Analysis> analysisCache = new Memo<>(6);

  public Api(Workspace workspace, ModelSource models) {
    this.traces = new Traces(workspace);
    this.models = models;
  }

  @Override
  public void close() {
    modelCache.clear();
    analysisCache.clear();
  }

  Response handle(String method, String path, Params params, String body) throws Exception {
    String[] parts = path.split("/", -1);
    switch (parts[0]) {
      case "traces" -> {
        OcelotlServer.requireMethod(method, "GET");
        params.only(Set.of());
        if (parts.length == 1) {
          return Response.json(Json.write(Map.of("traces", traces.list().stream().map(Traces::summary).toList())));
        }
        TraceStore store = traces.get(parts[1]);
        if (parts.length == 2) {
          return Response.json(Json.write(info(store)));
        }
        if (parts.length == 3 && parts[2].equals("producers")) {
          return Response.json(Json.write(Map.of("producers", producers(store))));
        }
        if (parts.length == 3 && parts[2].equals("types")) {
          return Response.json(Json.write(Map.of("types", types(store))));
        }
      }
      case "import" -> {
        OcelotlServer.requireMethod(method, "POST");
        return Response.json(Json.write(info(traces.importFile(importPath(body), org.ocelotl.trace.ImportProgress.NONE))));
      }
      case "progress" -> {
        OcelotlServer.requireMethod(method, "GET");
        params.only(Set.of("client"));
        return Response.json(Json.write(jobs.progress(params.optional("client"))));
      }
      case "overview" -> {
        OcelotlServer.requireMethod(method, "GET");
        return Response.json(overview(params.only(OVERVIEW_PARAMS)));
      }
      case "breakpoints" -> {
        OcelotlServer.requireMethod(method, "GET");
        return breakpoints(params.only(union(OVERVIEW_PARAMS, Set.of("format"))));
      }
      case "export" -> {
        OcelotlServer.requireMethod(method, "GET");
        return export(params.only(EXPORT_PARAMS));
      }
      default -> { }
    }
    throw HttpError.notFound("no such API endpoint: /api/" + path);
  }

  private static String importPath(String body) {
    Object parsed;
    try {
      parsed = Json.parse(body == null || body.isBlank() ? "null" : body);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path\"}: " + e.getMessage());
    }
    if (!(parsed instanceof Map<?, ?> map) || !(map.get("path") instanceof String path) || path.isBlank()) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path/to/trace\"}");
    }
    return path.trim();
  }

  // ---- trace descriptions ---------------------------------------------------------------

  private static Map<String, Object> info(TraceStore store) {
    StoreMetadata m = store.metadata();
    Map<String, Object> info = Traces.summary(store);
    for (EventCategory category : EventCategory.values()) {
      info.put(StoreMetadata.categoryName(category), m.count(category));
    }
    info.put("producers", (long) m.producers().size());
    info.put("leaves", (long) store.tree().leafCount());
    info.put("depth", (long) store.tree().height());
    info.put("metrics", metricNames());
    info.put("warnings", m.warnings());
    return info;
  }

  /**
   * The store's producers in depth-first order (parents first), each with the path the filters
   * use: names from below the root joined by '/'.
   */
  private static List<Map<String, Object>> producers(TraceStore store) {
    List<StoreMetadata.Producer> all = store.metadata().producers();
    List<List<Integer>> children = new ArrayList<>();
    all.forEach(p -> children.add(new ArrayList<>()));
    int root = -1;
    for (StoreMetadata.Producer p : all) {
      if (p.parent() < 0) {
        root = p.id();
      } else {
        children.get(p.parent()).add(p.id());
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    String[] paths = new String[all.size()];
    int[] depths = new int[all.size()];
    ArrayList<Integer> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      int id = stack.remove(stack.size() - 1);
      StoreMetadata.Producer p = all.get(id);
      if (p.parent() >= 0) {
        depths[id] = depths[p.parent()] + 1;
        paths[id] = paths[p.parent()].isEmpty() ? p.name() : paths[p.parent()] + "/" + p.name();
      } else {
        paths[id] = "";
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", (long) id);
      row.put("name", p.name());
      row.put("path", paths[id]);
      row.put("parent", (long) p.parent());
      row.put("depth", (long) depths[id]);
      row.put("kind", p.kind());
      rows.add(row);
      List<Integer> kids = children.get(id);
      for (int k = kids.size() - 1; k >= 0; k--) {
        stack.add(kids.get(k));
      }
    }
    return rows;
  }

  private static List<Map<String, Object>> types(TraceStore store) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (StoreMetadata.EventType t : store.metadata().types()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", (long) t.id());
      row.put("name", t.name());
      row.put("category", t.category().name().toLowerCase(Locale.ROOT));
      row.put("count", t.count());
      row.put("color", t.color());
      rows.add(row);
    }
    return rows;
  }

  // ---- overviews ------------------------------------------------------------------------

  /** A parsed overview request. */
  private record Query(TraceStore store, String traceId, ModelRequest model, Aggregation aggregation,
      ViewKind view, double p, int height) {}

  private record ModelKey(String trace, long modified, ModelRequest request) {}

  private record AnalysisKey(ModelKey model, Aggregation aggregation) {}

  /** A model's qualities with its breakpoints and default p: what every p of it needs. */
  private record Analysis(BuiltModel built, Qualities qualities, List<Breakpoint> breakpoints,
      double defaultP) {}

  private Query query(Params params) throws IOException {
    String traceId = params.string("trace");
    TraceStore store = traces.get(traceId);
    StoreMetadata m = store.metadata();
    Metric metric = Metric.parse(params.choice("metric", Metric.STATE_DURATION.cliName(), metricNames()));
    String aggregationName = params.choice("aggregation", "temporal", List.of("temporal", "spatiotemporal"));
    String viewName = params.string("view", "mode");
    ViewKind view;
    try {
      view = ViewKind.of(aggregationName, viewName);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("parameter 'view': " + e.getMessage());
    }
    double start = params.number("start");
    double end = params.number("end");
    start = Double.isNaN(start) ? m.start() : start;
    end = Double.isNaN(end) ? m.end() : end;
    if (!(end > start)) {
      throw HttpError.badRequest("the window needs start < end, got start = " + start + ", end = " + end);
    }
    int slices = params.integer("slices", DEFAULT_SLICES, 2, SliceGrid.MAX_SLICES);
    double p = params.number("p");
    if (!Double.isNaN(p) && !(p >= 0 && p <= 1)) {
      throw HttpError.badRequest("parameter 'p': expected a number in [0, 1], found " + p);
    }
    int depth = params.integer("depth", 0, 0, 1000);
    ProducerSelection producers = new ProducerSelection(params.list("include"), params.list("exclude"), depth);
    boolean exact = params.choice("exact", "false", List.of("true", "false")).equals("true");
    ModelRequest request = new ModelRequest(metric, start, end, slices, producers,
        keptTypes(m, metric, params.list("xtypes")), exact);
    int height = params.integer("height", 600, 20, OverviewPicture.MAX_SIDE);
    Aggregation aggregation = view.spatiotemporal() ? Aggregation.SPATIOTEMPORAL : Aggregation.TEMPORAL;
    return new Query(store, traceId, request, aggregation, view, p, height);
  }

  static List<String> metricNames() {
    return java.util.Arrays.stream(Metric.values()).map(Metric::cliName).toList();
  }

  /** What the user reads in the caption and the pictures. */
  static String label(Metric metric) {
    return switch (metric) {
      case STATE_DURATION -> "state total duration";
      case STATE_AVERAGE -> "state average duration";
      case EVENT_COUNT -> "event occurrences";
      case VARIABLE_MEAN -> "variable mean";
      case LINK_COUNT -> "link count";
    };
  }

  /**
   * The model keeps types by name; the UI removes them by name: every type of the metric's
   * category but the excluded ones (empty = all).
   */
  private static List<String> keptTypes(StoreMetadata m, Metric metric, List<String> excluded) {
    List<String> all = m.types().stream().filter(t -> t.category() == metric.category())
        .map(StoreMetadata.EventType::name).distinct().toList();
    if (all.isEmpty()) {
      throw HttpError.badRequest("this trace has no " + StoreMetadata.categoryName(metric.category())
          + ": the metric '" + label(metric) + "' needs some");
    }
    if (excluded.isEmpty()) {
      return List.of();
    }
    List<String> kept = all.stream().filter(name -> !excluded.contains(name)).toList();
    if (kept.isEmpty()) {
      throw HttpError.badRequest("no " + StoreMetadata.categoryName(metric.category())
          + " left to show: the type filter removed them all");
    }
    return kept;
  }

  private Analysis analysis(Query q, Jobs.Job job, Map<String, Object> timings) throws Exception {
    ModelKey modelKey = new ModelKey(q.traceId(), q.store().metadata().source().modified(), q.model());
    job.stage("building the model");
    long t0 = System.nanoTime();
    BuiltModel built = modelCache.get(modelKey, () -> models.build(q.store(), q.model()), job);
    long t1 = System.nanoTime();
    job.stage("computing qualities and breakpoints");
    Analysis analysis = analysisCache.get(new AnalysisKey(modelKey, q.aggregation()), () -> {
      Qualities qualities = Qualities.of(built.model(), q.aggregation());
      List<Breakpoint> breakpoints = qualities.breakpoints();
      return new Analysis(built, qualities, breakpoints, Breakpoint.defaultP(breakpoints));
    }, job);
    long t2 = System.nanoTime();
    timings.put("modelMs", (t1 - t0) / 1e6);
    timings.put("qualitiesMs", (t2 - t1) / 1e6);
    return analysis;
  }

  private String overview(Params params) throws Exception {
    Query q = query(params);
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    try {
      Map<String, Object> timings = new LinkedHashMap<>();
      Analysis a = analysis(q, job, timings);
      job.stage("drawing");
      long t0 = System.nanoTime();
      double p = Double.isNaN(q.p()) ? a.defaultP() : q.p();
      Partition partition = Breakpoint.at(a.breakpoints(), p);
      TimeWindow window = new TimeWindow(q.model().from(), q.model().to(), q.store().metadata().timeUnit());
      Overview overview = OverviewGeometry.build(a.built().model(), partition, q.view(), window,
          a.built().typeColours(), q.height(), OverviewPicture.VISUAL_THRESHOLD_PX);
      QualityCurves curves = QualityCurves.of(a.breakpoints(), p);
      String overviewJson = overview.toJson();
      timings.put("geometryMs", (System.nanoTime() - t0) / 1e6);
      job.check();
      Map<String, Object> head = new LinkedHashMap<>();
      head.put("trace", Traces.summary(q.store()));
      head.put("metric", q.model().metric().cliName());
      head.put("metricLabel", label(q.model().metric()));
      head.put("aggregation", q.view().aggregation());
      head.put("view", q.view().view());
      head.put("start", q.model().from());
      head.put("end", q.model().to());
      head.put("slices", (long) q.model().slices());
      head.put("leaves", (long) a.built().model().leaves());
      head.put("types", a.built().model().types());
      head.put("valueUnit", a.built().unit());
      head.put("exact", a.built().exact());
      head.put("p", p);
      head.put("defaultP", a.defaultP());
      head.put("parts", (long) partition.size());
      head.put("gain", partition.gain());
      head.put("loss", partition.loss());
      head.put("gainFraction", curves.chosenGain());
      head.put("lossFraction", curves.chosenLoss());
      head.put("breakpoints", breakpointRows(a.breakpoints()));
      head.put("timings", timings);
      String json = Json.write(head);
      return json.substring(0, json.length() - 1) + ",\"curves\":" + curves.toJson()
          + ",\"overview\":" + overviewJson + "}";
    } finally {
      jobs.end(job);
    }
  }

  private static List<Map<String, Object>> breakpointRows(List<Breakpoint> breakpoints) {
    Partition last = breakpoints.get(breakpoints.size() - 1).partition();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Breakpoint b : breakpoints) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("p", b.p());
      row.put("parts", (long) b.partition().size());
      row.put("gain", b.partition().gain());
      row.put("loss", b.partition().loss());
      row.put("gainFraction", last.gain() > 0 ? b.partition().gain() / last.gain() : 0.0);
      row.put("lossFraction", last.loss() > 0 ? b.partition().loss() / last.loss() : 0.0);
      rows.add(row);
    }
    return rows;
  }

  /** The breakpoint table, as CSV (a download) or JSON. */
  private Response breakpoints(Params params) throws Exception {
    String format = params.choice("format", "json", List.of("json", "csv"));
    Query q = query(params);
    Analysis a = analysis(q, jobs.begin(null, 0), new LinkedHashMap<>());
    List<Map<String, Object>> rows = breakpointRows(a.breakpoints());
    if (format.equals("json")) {
      return Response.json(Json.write(Map.of("breakpoints", rows)));
    }
    StringBuilder csv = new StringBuilder("p,parts,gain,loss,gain_fraction,loss_fraction\n");
    for (Map<String, Object> row : rows) {
      csv.append(row.get("p")).append(',').append(row.get("parts")).append(',').append(row.get("gain"))
          .append(',').append(row.get("loss")).append(',').append(row.get("gainFraction")).append(',')
          .append(row.get("lossFraction")).append('\n');
    }
    return Response.download("text/csv; charset=utf-8", csv.toString().getBytes(StandardCharsets.UTF_8),
        fileStem(q) + "-breakpoints.csv");
  }

  /** The current view as an SVG or PNG picture with axes, legend, curves and caption. */
  private Response export(Params params) throws Exception {
    String format = params.choice("format", "svg", List.of("svg", "png"));
    int width = params.integer("width", 1400, OverviewPicture.MIN_WIDTH, OverviewPicture.MAX_SIDE);
    int height = params.integer("height", 900, OverviewPicture.MIN_HEIGHT, OverviewPicture.MAX_SIDE);
    Query q = query(params);
    Analysis a = analysis(q, jobs.begin(null, 0), new LinkedHashMap<>());
    double p = Double.isNaN(q.p()) ? a.defaultP() : q.p();
    StoreMetadata m = q.store().metadata();
    OverviewInput input = new OverviewInput(a.built().model(),
        new TimeWindow(q.model().from(), q.model().to(), m.timeUnit()), q.view(), a.breakpoints(), p,
        Breakpoint.at(a.breakpoints(), p), a.built().typeColours(), m.name(), label(q.model().metric()),
        a.built().exact());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format picture = format.equals("svg") ? Format.SVG : Format.PNG;
    OverviewPicture.render(input, picture, width, height, out);
    return Response.download(picture == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        fileStem(q) + "." + format);
  }

  private static String fileStem(Query q) {
    String name = q.store().metadata().name().replaceAll("[^A-Za-z0-9._-]", "_");
    return name + "-" + q.view().aggregation() + "-" + q.view().view();
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
