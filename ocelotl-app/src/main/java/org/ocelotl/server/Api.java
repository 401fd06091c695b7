package org.ocelotl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.RecordTable;
import org.ocelotl.analysis.Selection;
import org.ocelotl.analysis.SelectionFile;
import org.ocelotl.analysis.SelectionRequest;
import org.ocelotl.analysis.Progress;
import org.ocelotl.analysis.Statistics;
import org.ocelotl.analysis.TraceSummary;
import org.ocelotl.analysis.TopologyRequest;
import org.ocelotl.analysis.TopologyResult;
import org.ocelotl.analysis.TreemapRequest;
import org.ocelotl.analysis.TreemapResult;
import org.ocelotl.export.Format;
import org.ocelotl.export.GanttPicture;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.ViewKind;
import org.ocelotl.workspace.Workspace;

/**
 * The JSON API (docs/api.md): traces, their producers and types, the import action, and the
 * analysis service's answers (overviews with their breakpoints, curves and geometry; the
 * breakpoint table; pictures). This class only reads parameters into requests: every answer
 * is the service's, byte for byte what the command line gets for the same request.
 *
 * <p>A model session ({@link #forModel}, {@code ocelotl view --model}) answers about one model
 * file: the overviews, breakpoints, exports and treemap, which need the model alone, on the whole
 * model or a window of its slices (a zoom). What reads a trace's records or store is refused
 * there with 404 and the reason.
 */
public final class Api implements AutoCloseable {
  private static final Set<String> OVERVIEW_PARAMS = Set.of("trace", "metric", "aggregation", "view",
      "start", "end", "slices", "p", "include", "exclude", "xkinds", "depth", "xtypes", "exact", "height", "client",
      "seq", "selection");
  private static final Set<String> EXPORT_PARAMS = union(OVERVIEW_PARAMS, Set.of("format", "width"));
  private static final Set<String> TREEMAP_PARAMS = union(Set.of("trace", "metric", "start", "end", "slices", "p",
      "include", "exclude", "xkinds", "depth", "xtypes", "exact", "client", "seq", "selection"),
      Set.of("cut", "step", "width", "height", "format"));
  private static final Set<String> TOPOLOGY_PARAMS = union(Set.of("trace", "metric", "start", "end", "slices", "p",
      "include", "exclude", "xkinds", "depth", "xtypes", "exact", "client", "seq", "selection"),
      Set.of("cut", "step", "toggles", "width", "height", "format"));
  /** Endpoints that read a trace's store: a model session has none. */
  private static final Set<String> TRACE_ONLY = Set.of("traces", "import", "gantt", "events", "selections", "stats",
      "topology");
  /** Parameters that choose how a trace's model is built: a model file's is built already. */
  private static final List<String> BUILD_PARAMS = List.of("trace", "metric", "slices", "include",
      "exclude", "xkinds", "depth", "xtypes", "exact", "selection");
  private static final int DEFAULT_SLICES = 100;
  /** Slices of a treemap: its time steps (spatial aggregation integrates the window). */
  private static final int TREEMAP_SLICES = 20;

  /** The workspace's traces, or null in a model session. */
  private final Traces traces;
  /** The model file of a model session, or null. */
  private final ModelInput.FromFiles model;
  private final AnalysisService service;
  private final Jobs jobs = new Jobs();

  public Api(Workspace workspace, AnalysisService service) {
    this(new Traces(workspace), null, service);
  }

  private Api(Traces traces, ModelInput.FromFiles model, AnalysisService service) {
    this.traces = traces;
    this.model = model;
    this.service = service;
  }

  /** The API of a model session: every view that a model file alone gives. */
  public static Api forModel(ModelInput.FromFiles model, AnalysisService service) {
    return new Api(null, model, service);
  }

  @Override
  public void close() {
    service.clear();
  }

  Response handle(String method, String path, Params params, String body) throws IOException {
    String[] parts = path.split("/", -1);
    if (model != null && TRACE_ONLY.contains(parts[0])) {
      throw HttpError.notFound("/api/" + parts[0] + " needs a trace's records; this server shows the model file "
          + model.model().getFileName() + " (ocelotl view --model), which holds none");
    }
    switch (parts[0]) {
      case "session" -> {
        OcelotlServer.requireMethod(method, "GET");
        params.only(Set.of());
        return Response.json(JsonForm.bytes(session()));
      }
      case "traces" -> {
        OcelotlServer.requireMethod(method, "GET");
        params.only(Set.of());
        if (parts.length == 1) {
          return Response.json(JsonForm.bytes(Map.of("traces", traces.list().stream().map(s -> JsonForm.trace(TraceSummary.of(s))).toList())));
        }
        TraceStore store = traces.get(parts[1]);
        if (parts.length == 2) {
          return Response.json(JsonForm.bytes(info(store)));
        }
        if (parts.length == 3 && parts[2].equals("producers")) {
          return Response.json(JsonForm.bytes(Map.of("producers", producers(store))));
        }
        if (parts.length == 3 && parts[2].equals("types")) {
          return Response.json(JsonForm.bytes(Map.of("types", types(store))));
        }
      }
      case "import" -> {
        OcelotlServer.requireMethod(method, "POST");
        return importTrace(params, body);
      }
      case "cancel" -> {
        OcelotlServer.requireMethod(method, "POST");
        params.only(Set.of("client"));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("cancelled", jobs.cancel(params.string("client")));
        return Response.json(JsonForm.bytes(answer));
      }
      case "gantt" -> {
        OcelotlServer.requireMethod(method, "GET");
        return gantt(params.only(Set.of("trace", "from", "to", "producers", "types", "kind", "width", "height", "format",
            "selection")));
      }
      case "events" -> {
        OcelotlServer.requireMethod(method, "GET");
        return events(params.only(Set.of("trace", "from", "to", "producers", "types", "kind", "match", "min_duration",
            "max_duration", "sort", "offset", "limit", "format", "selection")));
      }
      case "selections" -> {
        return selections(method, params, body);
      }
      case "stats" -> {
        OcelotlServer.requireMethod(method, "GET");
        return stats(params.only(Set.of("trace", "from", "to", "producers", "types", "kind", "by", "top", "buckets",
            "format", "selection")));
      }
      case "progress" -> {
        OcelotlServer.requireMethod(method, "GET");
        params.only(Set.of("client"));
        return Response.json(JsonForm.bytes(jobs.progress(params.optional("client"))));
      }
      case "overview" -> {
        OcelotlServer.requireMethod(method, "GET");
        return overview(params.only(union(OVERVIEW_PARAMS, Set.of("progressive"))));
      }
      case "outliers" -> {
        OcelotlServer.requireMethod(method, "GET");
        return outliers(params.only(union(OVERVIEW_PARAMS, Set.of("limit"))));
      }
      case "breakpoints" -> {
        OcelotlServer.requireMethod(method, "GET");
        return breakpoints(params.only(union(OVERVIEW_PARAMS, Set.of("format"))));
      }
      case "export" -> {
        OcelotlServer.requireMethod(method, "GET");
        return export(params.only(EXPORT_PARAMS));
      }
      case "treemap" -> {
        OcelotlServer.requireMethod(method, "GET");
        return treemap(params.only(TREEMAP_PARAMS));
      }
      case "topology" -> {
        OcelotlServer.requireMethod(method, "GET");
        return topology(params.only(TOPOLOGY_PARAMS));
      }
      default -> { }
    }
    throw HttpError.notFound("no such API endpoint: /api/" + HttpError.quote(path));
  }

  private static String importPath(String body) {
    JsonNode parsed;
    try {
      parsed = JsonForm.parse(body == null || body.isBlank() ? "null" : body);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path\"}: " + e.getMessage());
    }
    JsonNode path = parsed == null ? null : parsed.get("path");
    if (path == null || !path.isTextual() || path.asText().isBlank()) {
      throw HttpError.badRequest("the body must be JSON {\"path\": \"/absolute/path/to/trace\"}");
    }
    return path.asText().trim();
  }

  /**
   * What the server shows: {@code {"model": null}} over a workspace's traces, or the model file's
   * name, slices, leaves, tree height and types in a model session.
   */
  private ObjectNode session() throws IOException {
    ObjectNode session = JsonForm.object();
    if (model == null) {
      session.putNull("model");
      return session;
    }
    org.ocelotl.model.MicroscopicModel m = service.analysis(model, Aggregation.TEMPORAL, Progress.NONE).built().model();
    ObjectNode about = session.putObject("model");
    about.put("name", model.model().getFileName().toString());
    about.put("slices", m.slices());
    about.put("leaves", m.leaves());
    about.put("depth", m.tree().height());
    ArrayNode types = about.putArray("types");
    m.types().forEach(types::add);
    return session;
  }

  /**
   * The model a URL asks about: the session's model file, on the window of slices that {@code
   * start} and {@code end} give (a zoom; the whole model without them), or a trace's model as the
   * parameters describe it ({@link #modelRequest}).
   */
  private ModelInput input(Params params, int defaultSlices) throws IOException {
    if (model == null) {
      return new ModelInput.FromTrace(traces.get(params.string("trace")), modelRequest(params, defaultSlices));
    }
    for (String name : BUILD_PARAMS) {
      if (params.optional(name) != null) {
        throw HttpError.badRequest("parameter '" + name + "' chooses how a trace's model is built; this server shows "
            + "the model file " + model.model().getFileName() + ", built already");
      }
    }
    return new ModelInput.FromFiles(model.model(), model.tree(), model.slices(), params.number("start"),
        params.number("end"));
  }

  // ---- trace descriptions ---------------------------------------------------------------

  private static ObjectNode info(TraceStore store) {
    StoreMetadata m = store.metadata();
    ObjectNode info = JsonForm.trace(TraceSummary.of(store));
    for (EventCategory category : EventCategory.values()) {
      info.put(StoreMetadata.categoryName(category), m.count(category));
    }
    info.put("producers", m.producers().size());
    info.put("leaves", store.tree().leafCount());
    info.put("depth", store.tree().height());
    ArrayNode metrics = info.putArray("metrics");
    for (Metric metric : Metric.values()) {
      if (m.offers(metric)) {
        metrics.add(metric.cliName()); // only what this trace can show: no menu entry that can only fail
      }
    }
    ArrayNode warnings = info.putArray("warnings");
    m.warnings().forEach(warnings::add);
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
    int[] depths = new int[all.size()];
    ArrayList<Integer> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      int id = stack.remove(stack.size() - 1);
      StoreMetadata.Producer p = all.get(id);
      if (p.parent() >= 0) {
        depths[id] = depths[p.parent()] + 1;
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", (long) id);
      row.put("name", p.name());
      row.put("path", store.metadata().path(id));
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

  /** The analysis request a URL describes, with every refusal naming its parameter. */
  private AnalysisRequest query(Params params) throws IOException {
    String aggregationName = params.choice("aggregation", "temporal", List.of("temporal", "spatiotemporal"));
    String viewName = params.string("view", "mode");
    ViewKind view;
    try {
      view = ViewKind.of(aggregationName, viewName);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("parameter 'view': " + e.getMessage());
    }
    int height = params.integer("height", AnalysisRequest.DEFAULT_HEIGHT, 20, OverviewPicture.MAX_SIDE);
    return new AnalysisRequest(input(params, DEFAULT_SLICES), AnalysisRequest.aggregationOf(view), view, p(params),
        height);
  }

  /** The model a URL describes: metric, window, slices, producer and type filters, exactness. */
  private ModelRequest modelRequest(Params params, int defaultSlices) throws IOException {
    TraceStore store = traces.get(params.string("trace"));
    StoreMetadata m = store.metadata();
    Metric metric = Metric.parse(params.choice("metric", Metric.STATE_DURATION.cliName(), metricNames()));
    Selection selection = selection(params, store, "start", "end", "include", "xtypes");
    double start = selection != null ? selection.from() : params.number("start");
    double end = selection != null ? selection.to() : params.number("end");
    start = Double.isNaN(start) ? m.start() : start;
    end = Double.isNaN(end) ? m.windowEnd() : end;
    if (!(end > start)) {
      throw HttpError.badRequest("the window needs start < end, got start = " + start + ", end = " + end);
    }
    int slices = params.integer("slices", defaultSlices, 2, SliceGrid.MAX_SLICES);
    int depth = "auto".equals(params.optional("depth")) ? ProducerSelection.AUTO_DEPTH
        : params.integer("depth", 0, 0, 1000);
    ProducerSelection producers = new ProducerSelection(selection != null ? selection.producers() : params.list("include"),
        excluded(store, params.list("exclude"), params.list("xkinds")), depth);
    // Exact unless asked: the same URL must give the same answer, whatever the cache holds.
    boolean exact = params.choice("exact", "true", List.of("true", "false")).equals("true");
    // A selection's types are kept as the command line keeps them, so both answer the same bytes.
    List<String> types = selection != null ? selection.types() : keptTypes(m, metric, params.list("xtypes"));
    return new ModelRequest(metric, start, end, slices, producers, types, exact);
  }

  /** The p asked for, or NaN for the default. */
  private static double p(Params params) {
    double p = params.number("p");
    if (!Double.isNaN(p) && !(p >= 0 && p <= 1)) {
      throw HttpError.badRequest("parameter 'p': expected a number in [0, 1], found " + p);
    }
    return p;
  }

  /**
   * The producers left out: those named, and every producer of the container types named in
   * {@code xkinds} ("MPI": every rank), so that a page leaves out a whole level with a short URL.
   */
  private static List<String> excluded(TraceStore store, List<String> exclude, List<String> kinds) {
    if (kinds.isEmpty()) {
      return exclude;
    }
    List<String> all = new ArrayList<>(exclude);
    Set<String> known = new java.util.TreeSet<>();
    for (Map<String, Object> row : producers(store)) {
      String kind = (String) row.get("kind");
      if ((Long) row.get("depth") > 0) {
        known.add(kind);
        if (kinds.contains(kind)) {
          all.add((String) row.get("path"));
        }
      }
    }
    for (String kind : kinds) {
      if (!known.contains(kind)) {
        throw HttpError.badRequest("parameter 'xkinds': no producer of type '" + HttpError.quote(kind)
            + "'; this trace has " + String.join(", ", known));
      }
    }
    return all;
  }

  static List<String> metricNames() {
    return java.util.Arrays.stream(Metric.values()).map(Metric::cliName).toList();
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
          + ": the metric '" + metric.label() + "' needs some");
    }
    if (excluded.isEmpty()) {
      return List.of();
    }
    for (String name : excluded) {
      if (!all.contains(name)) {
        throw HttpError.badRequest("parameter 'xtypes': unknown " + metric.category().name().toLowerCase(Locale.ROOT)
            + " type '" + name + "'; this trace has " + String.join(", ", all));
      }
    }
    List<String> kept = all.stream().filter(name -> !excluded.contains(name)).toList();
    if (kept.isEmpty()) {
      throw HttpError.badRequest("no " + StoreMetadata.categoryName(metric.category())
          + " left to show: the type filter removed them all");
    }
    return kept;
  }

  /**
   * With {@code progressive=1}, a spatiotemporal request whose breakpoints are not known yet gets
   * the partition at p at once ({@code provisional: true}); the page then asks again without it.
   */
  private Response overview(Params params) throws IOException {
    AnalysisRequest request = query(params);
    boolean progressive = params.choice("progressive", "0", List.of("0", "1")).equals("1");
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    try {
      if (progressive) {
        java.util.Optional<org.ocelotl.analysis.ProvisionalResult> first = service.provisional(request, job);
        if (first.isPresent()) {
          return Response.json(first.get().json());
        }
      }
      return Response.json(service.answer(request, job).json());
    } finally {
      jobs.end(job);
    }
  }

  /** What the partition shown hides (docs/aggregation.md): the JSON form of the analysis service's answer. */
  private Response outliers(Params params) throws IOException {
    AnalysisRequest analysis = query(params);
    int limit = params.integer("limit", org.ocelotl.analysis.OutliersRequest.DEFAULT_LIMIT, 1,
        org.ocelotl.analysis.OutliersRequest.MAX_LIMIT);
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    try {
      return Response.json(service.outliers(new org.ocelotl.analysis.OutliersRequest(analysis, limit), job).json());
    } finally {
      jobs.end(job);
    }
  }

  /** The breakpoint table, as CSV (a download) or JSON. */
  private Response breakpoints(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "csv"));
    AnalysisResult result = service.answer(query(params), jobs.begin(null, 0)); // stops if its client leaves
    if (format.equals("json")) {
      return Response.json(JsonForm.bytes(JsonForm.breakpoints(result.analysis())));
    }
    return Response.download("text/csv; charset=utf-8", result.breakpointCsv(), result.fileStem() + "-breakpoints.csv");
  }

  /**
   * The current view as an SVG or PNG picture with axes, legend, curves and caption, or its
   * aggregates as CSV.
   */
  private Response export(Params params) throws IOException {
    String format = params.choice("format", "svg", List.of("svg", "png", "csv"));
    int width = params.integer("width", 1400, OverviewPicture.MIN_WIDTH, OverviewPicture.MAX_SIDE);
    int height = params.integer("height", 900, OverviewPicture.MIN_HEIGHT, OverviewPicture.MAX_SIDE);
    AnalysisResult result = service.answer(query(params), jobs.begin(null, 0)); // stops if its client leaves
    if (format.equals("csv")) {
      return Response.download("text/csv; charset=utf-8", result.partsCsv(), result.fileStem() + "-parts.csv");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format picture = format.equals("svg") ? Format.SVG : Format.PNG;
    OverviewPicture.render(result.picture(), picture, width, height, out);
    return Response.download(picture == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        result.fileStem() + "." + format);
  }

  /**
   * The treemap of the spatial analysis (docs/api.md): JSON (the analysis result with its
   * cells), or its picture as SVG or PNG. {@code cut} is {@code p} (the spatial partition) or a
   * depth; {@code step} a slice index or absent for the whole window.
   */
  private Response treemap(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "svg", "png"));
    int depth = cutDepth(params);
    int step = params.integer("step", -1, 0, SliceGrid.MAX_SLICES - 1);
    AnalysisRequest analysis = new AnalysisRequest(input(params, TREEMAP_SLICES), Aggregation.SPATIAL, null, p(params),
        AnalysisRequest.DEFAULT_HEIGHT);
    TreemapRequest request = new TreemapRequest(analysis, depth, step,
        params.integer("width", TreemapRequest.DEFAULT_WIDTH, TreemapRequest.MIN_SIDE, TreemapRequest.MAX_SIDE),
        params.integer("height", TreemapRequest.DEFAULT_HEIGHT, TreemapRequest.MIN_SIDE, TreemapRequest.MAX_SIDE));
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    TreemapResult result;
    try {
      result = service.treemap(request, job);
    } finally {
      jobs.end(job);
    }
    if (format.equals("json")) {
      return Response.json(result.json());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format picture = format.equals("svg") ? Format.SVG : Format.PNG;
    result.render(picture, out);
    return Response.download(picture == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        result.fileStem() + "." + format);
  }

  /** The cut parameter: p (-1, the spatial partition) or a depth. */
  private static int cutDepth(Params params) {
    String cut = params.string("cut", "p");
    int depth;
    try {
      depth = cut.equals("p") ? -1 : Integer.parseInt(cut);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("parameter 'cut': expected p or a depth, found '" + cut + "'");
    }
    if (depth < -1) {
      throw HttpError.badRequest("parameter 'cut': expected p or a depth ≥ 0, found '" + cut + "'");
    }
    return depth;
  }

  /**
   * The topology graph of the spatial analysis (docs/api.md): JSON, or its picture as SVG or PNG.
   * Without a metric or type filter, a trace with capacity variables is shown by capacity and use.
   */
  private Response topology(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "svg", "png"));
    int depth = cutDepth(params);
    int step = params.integer("step", -1, 0, SliceGrid.MAX_SLICES - 1);
    TraceStore store = traces.get(params.string("trace"));
    ModelRequest model = modelRequest(params, TREEMAP_SLICES);
    if (params.optional("metric") == null && params.optional("xtypes") == null && model.types().isEmpty()) {
      model = TopologyRequest.capacityModel(store.metadata(), model);
    }
    AnalysisRequest analysis = new AnalysisRequest(new ModelInput.FromTrace(store, model),
        Aggregation.SPATIAL, null, p(params), AnalysisRequest.DEFAULT_HEIGHT);
    TopologyRequest request;
    try {
      request = new TopologyRequest(analysis, depth, step, params.list("toggles"));
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("parameter 'toggles': " + e.getMessage());
    }
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    TopologyResult result;
    try {
      result = service.topology(request, job);
    } finally {
      jobs.end(job);
    }
    if (format.equals("json")) {
      return Response.json(result.json());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format picture = format.equals("svg") ? Format.SVG : Format.PNG;
    result.render(picture, params.integer("width", 1000, OverviewPicture.MIN_WIDTH, OverviewPicture.MAX_SIDE),
        params.integer("height", 1000, OverviewPicture.MIN_HEIGHT, OverviewPicture.MAX_SIDE), out);
    return Response.download(picture == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        result.fileStem() + "." + format);
  }

  /**
   * Imports the file the body names. With {@code client} and {@code seq} it is that page's job, as
   * an overview is: {@code /api/progress} follows it (bytes read of the file's) and
   * {@code /api/cancel} stops it, leaving no store behind (a trace of 6 GB takes minutes).
   */
  private Response importTrace(Params params, String body) throws IOException {
    params.only(Set.of("client", "seq"));
    Jobs.Job job = jobs.begin(params.optional("client"), params.integer("seq", 0, 0, Integer.MAX_VALUE));
    try {
      job.stage("importing the trace");
      return Response.json(JsonForm.bytes(info(traces.importFile(importPath(body), (read, total, records) -> {
        job.check();
        job.advanced(read, total);
      }))));
    } finally {
      jobs.end(job);
    }
  }

  /**
   * The Gantt chart of a selection: its geometry as JSON for a chart area of width × height, or
   * the picture (svg, png) of that size as {@code ocelotl gantt} draws it.
   */
  private Response gantt(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "svg", "png"));
    int width = params.integer("width", 1000, 10, OverviewPicture.MAX_SIDE);
    int height = params.integer("height", 600, 10, OverviewPicture.MAX_SIDE);
    boolean picture = !format.equals("json");
    TraceStore store = traces.get(params.string("trace"));
    Window w = window(params, store);
    GanttView.Result result = new GanttView(store, w.from(), w.to(), w.producers(), w.types(), params.list("kind"),
        picture ? GanttPicture.chartWidth(width) : width, picture ? GanttPicture.chartHeight(height) : height).answer();
    if (!picture) {
      return Response.json(result.json());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Format f = format.equals("svg") ? Format.SVG : Format.PNG;
    GanttPicture.render(result.gantt(), result.timeScale(), result.trace().name(), result.records(), f, width, height, out);
    return Response.download(f == Format.SVG ? "image/svg+xml" : "image/png", out.toByteArray(),
        result.trace().name().replaceAll("[^A-Za-z0-9._-]", "_") + "-gantt." + format);
  }

  /** The event table of a selection: the bytes of {@code ocelotl events} (CSV, or JSON). */
  private Response events(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "csv"));
    double min = params.number("min_duration");
    double max = params.number("max_duration");
    TraceStore store = traces.get(params.string("trace"));
    Window w = window(params, store);
    RecordTable.Result result = new RecordTable(store, w.from(), w.to(), w.producers(), w.types(), params.list("kind"),
        params.optional("match"), Double.isNaN(min) ? Double.NEGATIVE_INFINITY : min,
        Double.isNaN(max) ? Double.POSITIVE_INFINITY : max, params.string("sort", "start"),
        params.integer("offset", 0, 0, Integer.MAX_VALUE), params.integer("limit", 100, 0, RecordTable.MAX_LIMIT)).answer();
    return format.equals("json") ? Response.json(result.json())
        : Response.download("text/csv; charset=utf-8", result.csv(), "events.csv");
  }

  /** The statistics of a selection: the bytes of {@code ocelotl stats} (JSON, or CSV). */
  private Response stats(Params params) throws IOException {
    String format = params.choice("format", "json", List.of("json", "csv"));
    TraceStore store = traces.get(params.string("trace"));
    Window w = window(params, store);
    Statistics.Result result = new Statistics(store, w.from(), w.to(), w.producers(), w.types(), params.list("kind"),
        params.string("by", "type"), params.integer("top", 0, 0, Integer.MAX_VALUE),
        params.integer("buckets", Statistics.DEFAULT_BUCKETS, 1, Statistics.MAX_BUCKETS)).answer();
    return format.equals("json") ? Response.json(result.json())
        : Response.download("text/csv; charset=utf-8", result.csv(), "stats.csv");
  }

  // ---- saved selections ------------------------------------------------------------------

  /**
   * The saved selection named by the parameter {@code selection}, or null; refused beside any of
   * the parameters it replaces.
   */
  private Selection selection(Params params, TraceStore store, String... replaced) throws IOException {
    String name = params.optional("selection");
    if (name == null || name.isEmpty()) {
      return null;
    }
    boolean given = false;
    for (String p : replaced) {
      given |= params.optional(p) != null;
    }
    Selection.exclusive(name, given, String.join(", ", replaced));
    return SelectionFile.of(traces.workspace(), store).get(name);
  }

  /** The window, producers and types of a record query: its parameters, or a saved selection's. */
  private record Window(double from, double to, List<String> producers, List<String> types) {}

  private Window window(Params params, TraceStore store) throws IOException {
    Selection s = selection(params, store, "from", "to", "producers", "types");
    return s != null ? new Window(s.from(), s.to(), s.producers(), s.types())
        : new Window(params.number("from"), params.number("to"), params.list("producers"), params.list("types"));
  }

  /**
   * {@code GET} lists a trace's selections, {@code POST} saves one (the body: name, from, to,
   * producers, types, note, and optionally a rule {kind: active|share, types, above}),
   * {@code PATCH} renames one (the body: {"name": NEW}), {@code DELETE} removes one by name.
   */
  private Response selections(String method, Params params, String body) throws IOException {
    switch (method) {
      case "GET" -> {
        params.only(Set.of("trace"));
        SelectionFile file = SelectionFile.of(traces.workspace(), traces.get(params.string("trace")));
        ObjectNode answer = JsonForm.object();
        ArrayNode list = answer.putArray("selections");
        file.list().forEach(s -> list.add(SelectionFile.json(s)));
        return Response.json(JsonForm.bytes(answer));
      }
      case "POST" -> {
        params.only(Set.of("trace"));
        TraceStore store = traces.get(params.string("trace"));
        Selection saved = selectionRequest(body).resolve(store);
        SelectionFile.of(traces.workspace(), store).add(saved);
        return Response.json(JsonForm.bytes(SelectionFile.json(saved)));
      }
      case "PATCH" -> {
        params.only(Set.of("trace", "name"));
        String name = params.string("name");
        String newName = text(bodyObject(body, "a JSON rename", "{\"name\": NEW}"), "name");
        SelectionFile.of(traces.workspace(), traces.get(params.string("trace"))).rename(name, newName);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("renamed", name);
        answer.put("name", newName);
        return Response.json(JsonForm.bytes(answer));
      }
      case "DELETE" -> {
        params.only(Set.of("trace", "name"));
        String name = params.string("name");
        SelectionFile.of(traces.workspace(), traces.get(params.string("trace"))).delete(name);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("deleted", name);
        return Response.json(JsonForm.bytes(answer));
      }
      default -> throw new HttpError(405, "method " + method + " not allowed here; use GET, POST, PATCH or DELETE");
    }
  }

  /** The request's body as a JSON object; 400 naming what was {@code expected} otherwise. */
  private static JsonNode bodyObject(String body, String what, String expected) {
    JsonNode json;
    try {
      json = JsonForm.parse(body == null || body.isBlank() ? "null" : body);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("the body must be " + what + ": " + e.getMessage());
    }
    if (json == null || !json.isObject()) {
      throw HttpError.badRequest("the body must be a JSON object " + expected);
    }
    return json;
  }

  private static SelectionRequest selectionRequest(String body) {
    JsonNode json = bodyObject(body, "a JSON selection",
        "{\"name\", \"from\", \"to\", \"producers\", \"types\", \"note\", \"rule\"}");
    JsonNode rule = json.get("rule");
    boolean hasRule = rule != null && !rule.isNull();
    String kind = hasRule ? text(rule, "kind") : null;
    if (hasRule && !kind.equals(Selection.Rule.ACTIVE) && !kind.equals(Selection.Rule.SHARE)) {
      throw HttpError.badRequest("rule.kind: expected active or share, found '" + HttpError.quote(kind) + "'");
    }
    List<String> ruleTypes = hasRule ? strings(rule, "types") : List.of();
    boolean share = hasRule && kind.equals(Selection.Rule.SHARE);
    if (share && ruleTypes.size() != 1) {
      throw HttpError.badRequest("rule.types: a share rule takes one type");
    }
    return new SelectionRequest(text(json, "name"), number(json, "from"), number(json, "to"), strings(json, "producers"),
        strings(json, "types"), json.path("note").asText(""), share ? List.of() : ruleTypes,
        share ? ruleTypes.get(0) : null, share ? number(rule, "above") : Double.NaN);
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw HttpError.badRequest("field '" + field + "': expected a string");
    }
    return value.asText();
  }

  /** A number, or NaN when absent or null. */
  private static double number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Double.NaN;
    }
    if (!value.isNumber()) {
      throw HttpError.badRequest("field '" + field + "': expected a number");
    }
    return value.asDouble();
  }

  private static List<String> strings(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    List<String> list = new ArrayList<>();
    if (value.isArray()) {
      value.forEach(item -> list.add(item.isTextual() ? item.asText() : null));
    }
    if (!value.isArray() || list.contains(null)) {
      throw HttpError.badRequest("field '" + field + "': expected a list of strings");
    }
    return list;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
