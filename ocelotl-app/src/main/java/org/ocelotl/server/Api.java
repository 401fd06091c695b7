package org.ocelotl.server;

import static java.util.Map.entry;
import static org.ocelotl.analysis.RequestSpec.*;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.analysis.AnalysisRequest;
import org.ocelotl.analysis.AnalysisResult;
import org.ocelotl.analysis.AnalysisService;
import org.ocelotl.analysis.CompareRequest;
import org.ocelotl.analysis.CompareResult;
import org.ocelotl.analysis.GanttView;
import org.ocelotl.analysis.JsonForm;
import org.ocelotl.analysis.ModelInput;
import org.ocelotl.analysis.OutliersRequest;
import org.ocelotl.analysis.Param;
import org.ocelotl.analysis.Progress;
import org.ocelotl.analysis.ProvisionalResult;
import org.ocelotl.analysis.RecordTable;
import org.ocelotl.analysis.RequestSpec;
import org.ocelotl.analysis.RequestValues;
import org.ocelotl.analysis.Requests;
import org.ocelotl.analysis.Selection;
import org.ocelotl.analysis.SelectionFile;
import org.ocelotl.analysis.Statistics;
import org.ocelotl.analysis.TopologyResult;
import org.ocelotl.analysis.TraceDescription;
import org.ocelotl.analysis.TraceSql;
import org.ocelotl.analysis.TraceSummary;
import org.ocelotl.analysis.TreemapResult;
import org.ocelotl.export.GanttPicture;
import org.ocelotl.export.OverviewInput;
import org.ocelotl.export.OverviewPicture;
import org.ocelotl.export.SubTrace;
import org.ocelotl.export.TopologyPicture;
import org.ocelotl.export.TreemapPicture;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.store.TraceStore;
import org.ocelotl.workspace.ImportProgress;
import org.ocelotl.workspace.Workspace;

/**
 * The JSON API (docs/api.md): a route table, each endpoint reading its query by the request spec
 * ({@link RequestSpec}) and answering with the analysis service's bytes — byte for byte what the
 * command line gets for the same request.
 *
 * <p>A model session ({@link #forModel}, {@code ocelotl view --model}) answers about one model
 * file: the overviews, breakpoints, exports and treemap, which need the model alone, on the whole
 * model or a window of its slices (a zoom). What reads a trace's records or store is refused
 * there with 404 and the reason.
 */
public final class Api implements AutoCloseable {
  /** Keys of the server's own protocol: the trace, the page's job (client, seq) and the answer's form. */
  private static final Set<String> ANALYSIS_KEYS = Set.of("trace", "client", "seq", "format");
  private static final Set<String> RECORD_KEYS = Set.of("trace", "format");
  /** A comparison's picture without a height: the overview picture's default ({@code /api/export}). */
  private static final int PICTURE_HEIGHT = Integer.parseInt(RequestSpec.in(PICTURE, HEIGHT).fallback());

  /** One endpoint: its method (null: the handler checks), its parameters, and whether it reads a trace's store. */
  private record Route(String method, List<Param> params, Set<String> keys, boolean needsTrace, Handler handler) {}

  @FunctionalInterface
  private interface Handler {
    Response answer(Call call) throws IOException;
  }

  /** One call: the method, the path's segments after the endpoint's, the query and its values, the body. */
  private record Call(String method, List<String> path, Params query, RequestValues values, String body) {}

  private final Map<String, Route> routes = Map.ofEntries(
      entry("vocabulary", get(List.of(), Set.of(), false, c -> json(RequestSpec.vocabulary()))),
      entry("session", get(List.of(), Set.of(), false, c -> json(session()))),
      entry("traces", get(List.of(), Set.of(), true, this::traces)),
      entry("import", new Route("POST", List.of(), Set.of("client", "seq"), true, this::importTrace)),
      entry("cancel", new Route("POST", List.of(), Set.of("client"), false,
          c -> json(new Cancelled(jobs().cancel(c.query().string("client")))))),
      entry("progress", get(List.of(), Set.of("client"), false, c -> json(jobs().progress(c.query().optional("client"))))),
      entry("overview", get(OVERVIEW_ANSWER, union(ANALYSIS_KEYS, "progressive"), false, this::overview)),
      entry("outliers", get(OUTLIERS, ANALYSIS_KEYS, false, this::outliers)),
      entry("compare", get(COMPARE, Set.of("base", "other", "client", "seq", "format"), true, this::compare)),
      entry("breakpoints", get(OVERVIEW, ANALYSIS_KEYS, false, this::breakpoints)),
      entry("export", get(PICTURE, ANALYSIS_KEYS, false, this::export)),
      entry("treemap", get(TREEMAP, ANALYSIS_KEYS, false, this::treemap)),
      entry("topology", get(TOPOLOGY, ANALYSIS_KEYS, true, this::topology)),
      entry("gantt", get(GANTT, RECORD_KEYS, true, this::gantt)),
      entry("events", get(EVENTS, RECORD_KEYS, true, this::events)),
      entry("stats", get(STATS, RECORD_KEYS, true, this::stats)),
      entry("subtrace", get(SUB_TRACE, RECORD_KEYS, true, this::subTrace)),
      entry("query", get(List.of(), Set.of("trace", "sql", "format"), true, this::query)),
      entry("selections", new Route(null, List.of(), Set.of("trace", "name"), true, this::selections)));

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

  /** Whether this API answers about traces (a workspace's), not a model file alone. */
  public boolean servesTraces() {
    return traces != null;
  }

  @Override
  public void close() {
    service.clear();
  }

  Response handle(String method, String path, Params params, String body) throws IOException {
    List<String> parts = List.of(path.split("/", -1));
    Route route = routes.get(parts.get(0));
    if (route == null) {
      throw HttpError.notFound("no such API endpoint: /api/" + HttpError.quote(path));
    }
    if (model != null && route.needsTrace()) {
      throw HttpError.notFound("/api/" + parts.get(0) + " needs a trace's records; this server shows the model file "
          + model.model().getFileName() + " (ocelotl view --model), which holds none");
    }
    if (route.method() != null) {
      OcelotlServer.requireMethod(method, route.method());
      params.only(route.params(), route.keys());
    }
    return route.handler().answer(new Call(method, parts.subList(1, parts.size()), params,
        params.values(route.params()), body));
  }

  private static Route get(List<Param> params, Set<String> keys, boolean needsTrace, Handler handler) {
    return new Route("GET", params, keys, needsTrace, handler);
  }

  private Jobs jobs() {
    return jobs;
  }

  // ---- traces ---------------------------------------------------------------------------

  /** {@code /traces}, {@code /traces/ID}, {@code /traces/ID/producers}, {@code /traces/ID/types}. */
  private Response traces(Call c) throws IOException {
    if (c.path().isEmpty()) {
      return json(new TraceList(traces.list().stream().map(TraceSummary::of).toList()));
    }
    TraceStore store = traces.get(c.path().get(0));
    String what = c.path().size() == 2 ? c.path().get(1) : c.path().size() == 1 ? "" : null;
    if ("".equals(what)) {
      return json(TraceDescription.of(store));
    } else if ("producers".equals(what)) {
      return json(new ProducerList(TraceDescription.producers(store.metadata())));
    } else if ("types".equals(what)) {
      return json(new TypeList(TraceDescription.types(store.metadata())));
    }
    throw HttpError.notFound("no such API endpoint: /api/traces/" + HttpError.quote(String.join("/", c.path())));
  }

  /**
   * Imports the file the body names. With {@code client} and {@code seq} it is that page's job, as
   * an overview is: {@code /api/progress} follows it (bytes read of the file's) and
   * {@code /api/cancel} stops it, leaving no store behind (a trace of 6 GB takes minutes).
   */
  private Response importTrace(Call c) throws IOException {
    Jobs.Job job = begin(c);
    try {
      job.stage("importing the trace");
      return json(TraceDescription.of(traces.importFile(Bodies.importPath(c.body()), (read, total, records) -> {
        job.check();
        job.advanced(read, total);
      })));
    } finally {
      jobs.end(job);
    }
  }

  /** What the server shows: no model over a workspace's traces, or the model file's shape in a model session. */
  private Session session() throws IOException {
    if (model == null) {
      return new Session(null);
    }
    MicroscopicModel m = service.analysis(model, Aggregation.TEMPORAL, Progress.NONE).built().model();
    return new Session(new Session.Model(model.model().getFileName().toString(), m.slices(), m.leaves(),
        m.tree().height(), m.types()));
  }

  // ---- the analysis ----------------------------------------------------------------------

  /**
   * The model a call asks about: a trace's, as its parameters describe it; or the session's model
   * file, on the window of slices that {@code start} and {@code end} give (a zoom), whose building
   * parameters are refused.
   */
  private ModelInput input(Call c) throws IOException {
    if (model == null) {
      TraceStore store = traces.get(c.query().string("trace"));
      return new ModelInput.FromTrace(store, Requests.model(c.values(), store, traces.workspace()));
    }
    if (c.query().optional("trace") != null) {
      throw refusedInSession("parameter 'trace'");
    }
    for (Param p : MODEL) {
      if (p != FROM && p != TO && c.values().given(p)) {
        throw refusedInSession(c.values().spelling(p));
      }
    }
    return new ModelInput.FromFiles(model.model(), model.tree(), model.slices(), c.values().number(FROM),
        c.values().number(TO));
  }

  /** The analyses' work ahead runs only while {@code idle} (the server answers nothing): see {@link AnalysisService#buildAheadOnlyWhile}. */
  public void buildAheadOnlyWhile(java.util.function.BooleanSupplier idle) {
    service.buildAheadOnlyWhile(idle);
  }

  private HttpError refusedInSession(String spelling) {
    return HttpError.badRequest(spelling + " chooses how a trace's model is built; this server shows the model file "
        + model.model().getFileName() + ", built already");
  }

  /**
   * With {@code progressive=1}, a spatiotemporal request whose breakpoints are not known yet gets
   * the partition at p at once ({@code provisional: true}); the page then asks again without it.
   * With {@code answer=view}, either answer leaves out the parts, breakpoints and curves.
   */
  private Response overview(Call c) throws IOException {
    boolean whole = c.values().choice(ANSWER).equals(FULL);
    AnalysisRequest request = Requests.overview(c.values(), input(c));
    boolean progressive = c.query().choice("progressive", "0", List.of("0", "1")).equals("1");
    Jobs.Job job = begin(c);
    service.newRequest();
    try {
      if (progressive) {
        Optional<ProvisionalResult> first = service.provisional(request, job);
        if (first.isPresent()) {
          return Response.json(whole ? first.get().json() : first.get().viewJson());
        }
      }
      AnalysisResult result = service.answerBeforeNeighbours(request, job);
      // before the neighbours' programmes take the cores
      byte[] json = whole ? result.json() : result.viewJson();
      service.buildNeighbours(request, result);
      return Response.json(json);
    } finally {
      jobs.end(job);
    }
  }

  private Jobs.Job begin(Call c) {
    return jobs.begin(c.query().optional("client"), c.query().integer("seq", 0, 0, Integer.MAX_VALUE));
  }

  /** What the partition shown hides (docs/aggregation.md): the JSON form of the analysis service's answer. */
  private Response outliers(Call c) throws IOException {
    OutliersRequest request = Requests.outliers(c.values(), input(c));
    Jobs.Job job = begin(c);
    try {
      return Response.json(service.outliers(request, job).json());
    } finally {
      jobs.end(job);
    }
  }

  /**
   * Two runs compared (docs/aggregation.md, "Comparing two runs"): {@code base} and {@code other}
   * name two traces of the workspace; the answer is the bytes of {@code ocelotl compare --json}, or
   * with {@code format=svg|png} those of its {@code --out} picture (height: given, else 900, the
   * overview picture's).
   */
  private Response compare(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "svg", "png"));
    CompareRequest request = Requests.compare(c.values(), traces.get(c.query().string("base")),
        traces.get(c.query().string("other")));
    Jobs.Job job = begin(c);
    CompareResult result;
    try {
      result = service.compare(request, job);
    } finally {
      jobs.end(job);
    }
    if (format.equals("json")) {
      return Response.json(result.json());
    }
    int width = c.values().integer(WIDTH);
    int height = c.values().given(HEIGHT) ? c.values().integer(HEIGHT) : PICTURE_HEIGHT;
    return Response.picture(format, result.overview().fileStem(), (f, out) -> OverviewPicture.renderShaded(
        OverviewInput.of(result), result.difference().model(), CompareResult.OPACITY_NOTE, f, width, height, out));
  }

  /** The breakpoint table, as CSV (a download) or JSON. */
  private Response breakpoints(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "csv"));
    AnalysisResult result = service.answer(Requests.overview(c.values(), input(c)), jobs.begin(null, 0)); // stops if its client leaves
    if (format.equals("json")) {
      return Response.json(JsonForm.bytes(JsonForm.breakpoints(result.analysis())));
    }
    return Response.download("text/csv; charset=utf-8", result.breakpointCsv(), result.fileStem() + "-breakpoints.csv");
  }

  /** The current view as an SVG or PNG picture with axes, legend, curves and caption, or its aggregates as CSV. */
  private Response export(Call c) throws IOException {
    String format = c.query().choice("format", "svg", List.of("svg", "png", "csv"));
    AnalysisResult result = service.answer(Requests.overview(c.values(), input(c)), jobs.begin(null, 0)); // stops if its client leaves
    if (format.equals("csv")) {
      return Response.download("text/csv; charset=utf-8", result.partsCsv(), result.fileStem() + "-parts.csv");
    }
    int width = c.values().integer(WIDTH);
    int height = c.values().integer(HEIGHT);
    return Response.picture(format, result.fileStem(),
        (f, out) -> OverviewPicture.render(OverviewInput.of(result), f, width, height, out));
  }

  /** The treemap of the spatial analysis: JSON (the analysis result with its cells), or its picture. */
  private Response treemap(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "svg", "png"));
    Jobs.Job job = begin(c);
    TreemapResult result;
    try {
      result = service.treemap(Requests.treemap(c.values(), input(c)), job);
    } finally {
      jobs.end(job);
    }
    return format.equals("json") ? Response.json(result.json())
        : Response.picture(format, result.fileStem(), (f, out) -> TreemapPicture.render(result, f, out));
  }

  /** The topology graph of the spatial analysis: JSON, or its picture. */
  private Response topology(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "svg", "png"));
    TraceStore store = traces.get(c.query().string("trace"));
    var request = Requests.topology(c.values(), store, Requests.model(c.values(), store, traces.workspace()),
        c.values().list(TOGGLES));
    Jobs.Job job = begin(c);
    TopologyResult result;
    try {
      result = service.topology(request, job);
    } finally {
      jobs.end(job);
    }
    // The size is the picture's: the JSON's positions are in [0, 1]², whatever the page's panel measures.
    return format.equals("json") ? Response.json(result.json()) : Response.picture(format, result.fileStem(),
        (f, out) -> TopologyPicture.render(result, f, c.values().integer(WIDTH), c.values().integer(HEIGHT), out));
  }

  // ---- details on demand -----------------------------------------------------------------

  /** The Gantt chart of a selection: its geometry as JSON for a chart of width × height, or its picture. */
  private Response gantt(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "svg", "png"));
    TraceStore store = traces.get(c.query().string("trace"));
    Requests.Window w = Requests.window(c.values(), store, traces.workspace());
    GanttView.Result result = new GanttView(store, w.from(), w.to(), w.producers(), w.types(), c.values().list(KIND),
        c.values().integer(WIDTH), c.values().integer(HEIGHT)).answer();
    return format.equals("json") ? Response.json(result.json())
        : Response.picture(format, result.trace().name() + "-gantt", (f, out) -> GanttPicture.render(result, f, out));
  }

  /** The event table of a selection, or a sequence's occurrences: the bytes of {@code ocelotl events} (CSV, or JSON). */
  private Response events(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "csv"));
    TraceStore store = traces.get(c.query().string("trace"));
    RecordTable.Table result = RecordTable.answer(c.values(), store, Requests.window(c.values(), store,
        traces.workspace()));
    return format.equals("json") ? Response.json(result.json())
        : Response.download("text/csv; charset=utf-8", result.csv(), "events.csv");
  }

  /** The statistics of a selection: the bytes of {@code ocelotl stats} (JSON, or CSV). */
  private Response stats(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "csv"));
    TraceStore store = traces.get(c.query().string("trace"));
    Statistics.Result result = Statistics.of(c.values(), store, Requests.window(c.values(), store, traces.workspace()))
        .answer();
    return format.equals("json") ? Response.json(result.json())
        : Response.download("text/csv; charset=utf-8", result.csv(), "stats.csv");
  }

  /**
   * A selection written as a trace of its own, a download: the bytes {@code ocelotl export} writes
   * (Pajé by default, CSV or Chrome's JSON), times kept absolute.
   */
  private Response subTrace(Call c) throws IOException {
    String format = c.query().choice("format", SubTrace.FORMATS.get(0), SubTrace.FORMATS);
    TraceStore store = traces.get(c.query().string("trace"));
    Requests.Window w = Requests.window(c.values(), store, traces.workspace());
    SubTrace sub = SubTrace.of(store, w.from(), w.to(), w.producers(), w.types());
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    sub.write(format, bytes);
    String type = format.equals("chrome") ? "application/json" : format.equals("csv") ? "text/csv; charset=utf-8"
        : "text/plain; charset=utf-8";
    return Response.download(type, bytes.toByteArray(), sub.fileName(format));
  }

  /**
   * A read-only SQL query over the trace's tables (docs/sql.md#in-the-web-ui): one SELECT or WITH
   * statement, answered as {@code ocelotl sql --json} prints it, or as its CSV (a download).
   */
  private Response query(Call c) throws IOException {
    String format = c.query().choice("format", "json", List.of("json", "csv"));
    TraceStore store = traces.get(c.query().string("trace"));
    TraceSql.Result result = TraceSql.select(store, c.query().string("sql"));
    return format.equals("json") ? Response.json(result.json())
        : Response.download("text/csv; charset=utf-8", result.csv(), "query.csv");
  }

  // ---- saved selections ------------------------------------------------------------------

  /**
   * {@code GET} lists a trace's selections, {@code POST} saves one ({@link Bodies#selection}),
   * {@code PATCH} renames one (the body: {"name": NEW}), {@code DELETE} removes one by name.
   */
  private Response selections(Call c) throws IOException {
    Params q = c.query();
    switch (c.method()) {
      case "GET" -> {
        q.only(Set.of("trace"));
        return json(new SelectionList(file(q).list().stream().map(SelectionFile::json).toList()));
      }
      case "POST" -> {
        q.only(Set.of("trace"));
        TraceStore store = traces.get(q.string("trace"));
        Selection saved = Bodies.selection(c.body()).resolve(store);
        SelectionFile.of(traces.workspace(), store).add(saved);
        return Response.json(JsonForm.bytes(SelectionFile.json(saved)));
      }
      case "PATCH" -> {
        q.only(Set.of("trace", "name"));
        String newName = Bodies.newName(c.body());
        file(q).rename(q.string("name"), newName);
        return json(new Renamed(q.string("name"), newName));
      }
      case "DELETE" -> {
        q.only(Set.of("trace", "name"));
        file(q).delete(q.string("name"));
        return json(new Deleted(q.string("name")));
      }
      default -> throw new HttpError(405, "method " + c.method() + " not allowed here; use GET, POST, PATCH or DELETE");
    }
  }

  private SelectionFile file(Params q) throws IOException {
    return SelectionFile.of(traces.workspace(), traces.get(q.string("trace")));
  }

  // ---- answers ---------------------------------------------------------------------------

  record Session(Model model) {
    record Model(String name, int slices, int leaves, int depth, List<String> types) {}
  }

  record TraceList(List<TraceSummary> traces) {}

  record ProducerList(List<TraceDescription.ProducerRow> producers) {}

  record TypeList(List<TraceDescription.TypeRow> types) {}

  record SelectionList(List<com.fasterxml.jackson.databind.node.ObjectNode> selections) {}

  record Cancelled(boolean cancelled) {}

  record Renamed(String renamed, String name) {}

  record Deleted(String deleted) {}

  private static Response json(Object answer) {
    return Response.json(JsonForm.bytes(answer));
  }

  private static Set<String> union(Set<String> a, String b) {
    Set<String> all = new java.util.HashSet<>(a);
    all.add(b);
    return Set.copyOf(all);
  }
}
