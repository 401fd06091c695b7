package org.ocelotl.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ocelotl.model.BuiltInMetric;
import org.ocelotl.model.Metric;
import org.ocelotl.scan.Metrics;
import org.ocelotl.scan.SliceGrid;

/**
 * The request vocabulary of the analysis service (decision 031): every parameter a user gives,
 * declared once — name, command-line flags, URL keys, type, range, default, one line of doc — and
 * the parameters of each kind of request. The command line declares its options from here
 * ({@code RequestOptions}), the server reads its queries by it ({@code Params}), the Spark commands
 * declare theirs from it, and the page reads it from {@code /api/vocabulary}; docs/cli.md and
 * docs/api.md hold its tables (a test keeps them equal).
 *
 * <p>A parameter's meaning is the same under every spelling: a URL takes the command line's name as
 * well as its own older key (a window's start is {@code start} or {@code from}, kept producers
 * {@code include} or {@code producers}). To add one: one line below, its name in the lists of the
 * requests that take it, and one read where the request is built ({@link Requests}).
 */
public final class RequestSpec {
  private RequestSpec() {}

  // ---- the model: what the cells measure, over which window, slices, producers and types ----

  public static final Param METRIC = choice("metric", "--metric", "metric", "METRIC", metricNames(),
      Metric.STATE_DURATION.cliName(), "What the cells measure (on a trace without states, the default is the "
          + "first metric it has records for).");
  public static final Param FROM = number("from", List.of("--from"), List.of("start", "from"), "T0", null,
      "Window start: a time in the trace's unit, or since the trace's start with a unit (150ms, 2.5s; "
          + "ns, us, ms, s, min, h) (default: the trace's start; comparing two runs: OTHER's time).");
  public static final Param TO = number("to", List.of("--to"), List.of("end", "to"), "T1", null,
      "Window end, exclusive, written as the start is (default: the trace's end).");
  public static final Param SLICES = new Param("slices", List.of("--slices"), List.of("slices"), Param.Type.INTEGER,
      "N", 2, SliceGrid.MAX_SLICES, List.of(), "100", null, "Number of time slices.");
  // auto by default in every front end (issue 33 item 10): at 768 ranks, every level would draw
  // rows under a pixel, aggregated into marks; auto draws the 32 cabinets (decision 053).
  public static final Param DEPTH = new Param("depth", List.of("--depth"), List.of("depth"), Param.Type.INTEGER,
      "D|auto", 0, 1000, List.of("auto"), "auto", null, "Producers at this depth become the leaves, each summing its "
          + "subtree (0: every level; auto: the deepest level that fits the drawing, 4 pixels a row; without a "
          + "drawing, the page's 600 pixels).");
  public static final Param PRODUCERS = list("producers", "--producers", List.of("include", "producers"), "NAME",
      "Keep only these producers and their subtrees (names, or paths a/b/c where names repeat).");
  public static final Param EXCLUDE = list("exclude", "--exclude", List.of("exclude"), "NAME",
      "Remove these producers and their subtrees.");
  public static final Param EXCLUDE_KINDS = list("exclude-kinds", "--exclude-kinds", List.of("xkinds", "exclude-kinds"),
      "KIND", "Remove every producer of these container types (e.g. MPI: every rank).");
  public static final Param TYPES = list("types", "--types", List.of("types"), "NAME",
      "Keep only these event types (names, or a group such as a Pajé state type).");
  public static final Param EXCLUDE_TYPES = list("exclude-types", "--exclude-types", List.of("xtypes", "exclude-types"),
      "NAME", "Remove these event types.");
  public static final Param EXACT = new Param("exact", List.of("--approximate"), List.of("exact"), Param.Type.CHOICE,
      "true|false", 0, 0, List.of("true", "false"), "true", "false", "Exact model (default), or one rebuilt from a "
          + "cached finer model by splitting slices in proportion, marked approximate (--approximate, exact=false).");
  public static final Param SELECTION = text("selection", "--selection", "selection", "NAME",
      "A saved selection's window, producers and types, in place of those parameters.");

  // ---- the analysis and its views ----

  public static final Param AGGREGATION = choice("aggregation", List.of("--aggregation", "--mode"), "aggregation",
      "AGGREGATION", List.of("temporal", "spatiotemporal"), "temporal", "How the model is aggregated.");
  public static final Param VIEW = choice("view", "--view", "view", "VIEW", List.of("mode", "stacked", "partition"),
      "mode", "The overview drawn (stacked: temporal only).");
  public static final Param P = new Param("p", List.of("--p"), List.of("p"), Param.Type.NUMBER, "P|auto", 0, 1,
      List.of("auto"), "auto", null, "The trade-off p, or auto for the best normalised gain − loss.");
  /** The values of {@link #ANSWER}. */
  public static final String FULL = "full";
  public static final String VIEW_ONLY = "view";
  // Issue 28: at 768 leaves and a small p the full answer is 12–19 MB of JSON, and a new p of a
  // model the page has drawn needs neither its parts (the page reads partCount) nor the
  // breakpoints and curves, the same for every p of the model (decision 068).
  public static final Param ANSWER = new Param("answer", List.of(), List.of("answer"), Param.Type.CHOICE,
      "full|view", 0, 0, List.of(FULL, VIEW_ONLY), FULL, null, "The overview's answer: full, or view: without "
          + "parts, breakpoints and curves (a page that holds the model's breakpoints asks a new p so).");
  public static final Param CUT = new Param("cut", List.of("--cut", "--cut-depth"), List.of("cut"), Param.Type.INTEGER,
      "p|D", 0, 1000, List.of("p"), "p", null, "Cut the tree at the spatial partition for p, or at depth D.");
  public static final Param STEP = new Param("step", List.of("--step"), List.of("step"), Param.Type.INTEGER, "K", 0,
      SliceGrid.MAX_SLICES - 1, List.of(), null, null, "Only time slice K (0 to N−1) instead of the whole window.");
  public static final Param TOGGLES = new Param("toggles", List.of(), List.of("toggles"), Param.Type.LIST, "±PATH", 0, 0,
      List.of(), null, null, "Groups expanded (+a/b) or collapsed (-a/b), in order (command line: --expand, --collapse).");
  // The topology graph's size and fill per node kind (decision 050): the URL carries the lists; a
  // mapping file is the command line's only, a URL cannot name a file on the server.
  public static final Param SIZE = list("size", "--size", List.of("size"), "KIND=VARIABLE",
      "Topology graph: the variable that sizes each node kind (host=speed,link=bandwidth; default: its capacity).");
  public static final Param FILL = list("fill", "--fill", List.of("fill"), "KIND=VARIABLE",
      "Topology graph: the variable that fills each node kind (default: its capacity's use; a variable of another "
          + "unit fills as its share of the largest of the kind).");
  public static final Param MAPPING = new Param("mapping", List.of("--mapping"), List.of(), Param.Type.TEXT, "FILE",
      0, 0, List.of(), null, null, "Topology graph: a file of size.KIND=VARIABLE and fill.KIND=VARIABLE lines "
          + "(--size and --fill override it).");
  /** The largest side of a picture: 16 384 pixels. */
  private static final int MAX_SIDE = 16_384;
  public static final Param WIDTH = new Param("width", List.of("--width"), List.of("width"), Param.Type.INTEGER, "PX",
      10, MAX_SIDE, List.of(), "1400", null, "Width in pixels.");
  public static final Param HEIGHT = new Param("height", List.of("--height"), List.of("height"), Param.Type.INTEGER, "PX",
      10, MAX_SIDE, List.of(), "900", null, "Height in pixels.");
  /** The smallest picture with its caption, axes and legend readable. */
  private static final int MIN_PICTURE_WIDTH = 480;
  private static final int MIN_PICTURE_HEIGHT = 360;

  public static final Param ALIGN = choice("align", "--align", "align", "start|stretch", List.of("start", "stretch"),
      "start", "Comparing two runs: time since each run's start (over the shorter run), or both runs stretched "
          + "onto one relative span.");

  // ---- details on demand: records of a window ----

  public static final Param KIND = list("kind", "--kind", List.of("kind"), "KIND",
      "Record kinds: state, event, variable, link.");
  public static final Param MATCH = text("match", "--match", "match", "REGEX",
      "Only records whose type, producer or value this regular expression finds.");
  public static final Param MIN_DURATION = number("min-duration", List.of("--min-duration"),
      List.of("min_duration", "min-duration"), "X", null,
      "Only records lasting at least X (in the trace's unit, or with a unit: 2ms).");
  public static final Param MAX_DURATION = number("max-duration", List.of("--max-duration"),
      List.of("max_duration", "max-duration"), "X", null,
      "Only records lasting at most X (in the trace's unit, or with a unit: 2ms).");
  public static final Param SEQUENCE = list("sequence", "--sequence", List.of("sequence"), "TYPE",
      "Occurrences, per producer, of these state or event types as consecutive records in this order, instead of "
          + "the records (docs/analysis.md#sequences).");
  public static final Param WITHIN = number("within", List.of("--within"), List.of("within"), "D", null,
      "With a sequence: only occurrences lasting at most D (in the trace's unit, or with a unit: 10ms).");
  public static final Param SORT = text("sort", "--sort", "sort", "COLUMN",
      "start, end, duration, producer, type, kind or value; -COLUMN for descending.").defaulting("start");
  public static final Param OFFSET = integer("offset", "--offset", "offset", "N", 0, Integer.MAX_VALUE, "0",
      "Rows skipped first.");
  public static final Param LIMIT = integer("limit", "--limit", "limit", "N", 0, RecordTable.MAX_LIMIT, "100",
      "Rows listed: a page of records, or the first outliers of each kind (who, then when).");
  public static final Param BY = text("by", "--by", "by", "GROUP",
      "type, producer, or depth:K (the tree's nodes K levels below the root).").defaulting("type");
  public static final Param TOP = integer("top", "--top", "top", "N", 0, Integer.MAX_VALUE, "0",
      "With by producer or depth:K: per type, the N largest groups and one '(others)' row (0: all).");
  /** The values of {@link #TIME}. */
  public static final String EXCLUSIVE = "exclusive";
  public static final String INCLUSIVE = "inclusive";
  public static final Param TIME = new Param("time", List.of("--inclusive"), List.of("time"), Param.Type.CHOICE,
      "exclusive|inclusive", 0, 0, List.of(EXCLUSIVE, INCLUSIVE), EXCLUSIVE, INCLUSIVE, "States' time, in the state "
          + "metrics and the statistics: exclusive (default: minus the states nested in them, so each instant counts "
          + "once) or inclusive (--inclusive).");
  public static final Param BUCKETS = integer("buckets", "--buckets", "buckets", "B", 1, Statistics.MAX_BUCKETS,
      "" + Statistics.DEFAULT_BUCKETS, "Time buckets of the density of records (JSON).");

  // ---- what each request takes ----

  /** What builds a trace's model. */
  public static final List<Param> MODEL = List.of(METRIC, FROM, TO, SLICES, DEPTH, PRODUCERS, EXCLUDE, EXCLUDE_KINDS,
      TYPES, EXCLUDE_TYPES, EXACT, SELECTION, TIME);
  /** An overview: the model, aggregated, at p, drawn at this height (the page's canvas). */
  public static final List<Param> OVERVIEW = concat(MODEL, List.of(AGGREGATION, VIEW, P,
      HEIGHT.defaulting("" + AnalysisRequest.DEFAULT_HEIGHT).ranging(20, MAX_SIDE)));
  /** The overview endpoint: an overview, and how much of its answer to send. */
  public static final List<Param> OVERVIEW_ANSWER = concat(OVERVIEW, List.of(ANSWER));
  /** An overview's picture: the overview at this size, with axes, legend, curves and caption. */
  public static final List<Param> PICTURE = concat(MODEL, List.of(AGGREGATION, VIEW, P,
      WIDTH.ranging(MIN_PICTURE_WIDTH, MAX_SIDE), HEIGHT.ranging(MIN_PICTURE_HEIGHT, MAX_SIDE)));
  /**
   * The command line's overview picture: the spatiotemporal one unless told, the view an analyst
   * opens a trace with on a terminal; the page starts on the temporal one, which the API's default
   * keeps. Its height, left out, fits every producer row ({@code ocelotl overview --help}).
   */
  public static final List<Param> OVERVIEW_COMMAND = withDefault(withDefault(PICTURE, AGGREGATION, "spatiotemporal"),
      HEIGHT, null);
  /** Slices of a spatial view: its time steps (spatial aggregation integrates the window). */
  static final String SPATIAL_SLICES = "20";
  /** A treemap: the model (20 slices), p, the cut, the step, the treemap's own size. */
  public static final List<Param> TREEMAP = concat(withDefault(MODEL, SLICES, SPATIAL_SLICES),
      List.of(P, CUT, STEP,
          WIDTH.defaulting("" + TreemapRequest.DEFAULT_WIDTH).ranging(TreemapRequest.MIN_SIDE, TreemapRequest.MAX_SIDE),
          HEIGHT.defaulting("" + TreemapRequest.DEFAULT_HEIGHT).ranging(TreemapRequest.MIN_SIDE, TreemapRequest.MAX_SIDE)));
  /** A topology graph: the treemap's, with the groups expanded or collapsed, and the picture's size. */
  public static final List<Param> TOPOLOGY = concat(withDefault(MODEL, SLICES, SPATIAL_SLICES),
      List.of(P, CUT, STEP, TOGGLES, SIZE, FILL, MAPPING, WIDTH.defaulting("1000").ranging(MIN_PICTURE_WIDTH, MAX_SIDE),
          HEIGHT.defaulting("1000").ranging(MIN_PICTURE_HEIGHT, MAX_SIDE)));
  /**
   * The records of a window: a selection's window, producers, types (kept, or every type but those
   * left out: the web page's details follow its view's type filter in a short URL), and kinds.
   */
  public static final List<Param> RECORDS = List.of(FROM, TO, PRODUCERS, TYPES, EXCLUDE_TYPES, KIND, SELECTION);
  /** A Gantt chart: the records, on a chart of this size (the picture adds axes and legend). */
  public static final List<Param> GANTT = concat(RECORDS, List.of(WIDTH.defaulting("1000"), HEIGHT.defaulting("600")));
  /** The event table. */
  public static final List<Param> EVENTS = concat(RECORDS, List.of(MATCH, MIN_DURATION, MAX_DURATION, SEQUENCE,
      WITHIN, SORT, OFFSET, LIMIT));
  /**
   * A dataset's model on Spark ({@code ocelotl-spark model}): no workspace, hence no saved
   * selection; no model cache, hence always exact.
   */
  public static final List<Param> DATASET_MODEL = List.of(METRIC, FROM, TO, SLICES, DEPTH, PRODUCERS, EXCLUDE,
      EXCLUDE_KINDS, TYPES, EXCLUDE_TYPES, TIME);
  /** The records of a window written as a trace of their own ({@code ocelotl export}). */
  public static final List<Param> SUB_TRACE = List.of(FROM, TO, PRODUCERS, TYPES, SELECTION);
  /** The statistics. */
  public static final List<Param> STATS = concat(RECORDS, List.of(BY, TOP, BUCKETS, TIME));

  /** What the overview's partition hides: the overview's request, and how many cells to list. */
  public static final List<Param> OUTLIERS = concat(OVERVIEW,
      List.of(LIMIT.defaulting("" + OutliersRequest.DEFAULT_LIMIT).ranging(1, OutliersRequest.MAX_LIMIT)));
  /** The command line's list: of the spatiotemporal overview unless told, as {@code ocelotl overview} draws it. */
  public static final List<Param> OUTLIERS_COMMAND = withDefault(OUTLIERS, AGGREGATION, "spatiotemporal");

  /**
   * Two runs compared ({@code ocelotl compare}, {@code /api/compare}): each cut into the same model
   * (the model's options but a saved selection; the window is the span {@code align} decides, or a
   * part of it given in OTHER's time: the page's zoom), the difference overview at p, and how many
   * differences to list.
   */
  public static final List<Param> COMPARE = concat(List.of(METRIC, FROM, TO, SLICES, DEPTH, PRODUCERS, EXCLUDE,
      EXCLUDE_KINDS, TYPES, EXCLUDE_TYPES, EXACT, TIME, ALIGN, P, WIDTH.ranging(MIN_PICTURE_WIDTH, MAX_SIDE),
      HEIGHT.ranging(MIN_PICTURE_HEIGHT, MAX_SIDE).defaulting(null)),
      List.of(LIMIT.defaulting("" + OutliersRequest.DEFAULT_LIMIT).ranging(1, OutliersRequest.MAX_LIMIT)));

  /** Every parameter, once, in the order of the docs' tables. */
  public static final List<Param> ALL = List.of(METRIC, FROM, TO, SLICES, DEPTH, PRODUCERS, EXCLUDE, EXCLUDE_KINDS,
      TYPES, EXCLUDE_TYPES, EXACT, SELECTION, AGGREGATION, VIEW, P, ANSWER, CUT, STEP, ALIGN, TOGGLES, SIZE, FILL, MAPPING, WIDTH, HEIGHT, KIND, MATCH,
      MIN_DURATION, MAX_DURATION, SEQUENCE, WITHIN, SORT, OFFSET, LIMIT, BY, TOP, BUCKETS, TIME);

  /** The spec as the page reads it ({@code /api/vocabulary}): every parameter, and what each request takes. */
  public record Vocabulary(List<Param> parameters, java.util.Map<String, List<String>> requests,
      List<MetricChoice> metrics) {}

  /**
   * A metric as the page's menu offers it: its name (the {@code metric} key's value), its label,
   * and the category of the types it reads (the type filter's list).
   */
  public record MetricChoice(String name, String label, String category) {}

  /** The requests of the API, by endpoint (the command of the same name takes the same). */
  public static final java.util.Map<String, List<Param>> REQUESTS = new java.util.TreeMap<>(java.util.Map.of(
      "overview", OVERVIEW_ANSWER, "export", PICTURE, "treemap", TREEMAP, "topology", TOPOLOGY, "gantt", GANTT,
      "events", EVENTS, "stats", STATS, "outliers", OUTLIERS, "compare", COMPARE, "subtrace", SUB_TRACE));

  public static Vocabulary vocabulary() {
    java.util.Map<String, List<String>> requests = new java.util.TreeMap<>();
    REQUESTS.forEach((name, params) -> requests.put(name, params.stream().map(Param::name).toList()));
    List<MetricChoice> metrics = metrics().stream().map(m -> new MetricChoice(m.cliName(), m.label(),
        m.category().name().toLowerCase(java.util.Locale.ROOT))).toList();
    return new Vocabulary(ALL, requests, metrics);
  }

  /** The parameter of this name in {@code params}. */
  public static Param in(List<Param> params, Param p) {
    for (Param q : params) {
      if (q.name().equals(p.name())) {
        return q;
      }
    }
    throw new IllegalStateException(p.name() + " is not a parameter of this request");
  }

  /**
   * Every metric's name, the plug-ins' included; only Ocelotl's own when a plug-in is refused, so
   * that the spec stands and the refusal is told, in one line, where a metric is read
   * ({@link Metrics#parse}).
   */
  static List<String> metricNames() {
    return metrics().stream().map(Metric::cliName).toList();
  }

  private static List<Metric> metrics() {
    try {
      return Metrics.all();
    } catch (IllegalArgumentException refusedPlugin) {
      return List.of(BuiltInMetric.values());
    }
  }

  private static List<Param> withDefault(List<Param> params, Param p, String value) {
    return params.stream().map(q -> q.name().equals(p.name()) ? q.defaulting(value) : q).toList();
  }

  private static List<Param> concat(List<Param> a, List<Param> b) {
    List<Param> all = new ArrayList<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  private static Param choice(String name, String flag, String key, String label, List<String> words, String fallback,
      String doc) {
    return choice(name, List.of(flag), key, label, words, fallback, doc);
  }

  private static Param choice(String name, List<String> flags, String key, String label, List<String> words,
      String fallback, String doc) {
    return new Param(name, flags, List.of(key), Param.Type.CHOICE, label, 0, 0, words, fallback, null, doc);
  }

  private static Param number(String name, List<String> flags, List<String> keys, String label, String fallback,
      String doc) {
    return new Param(name, flags, keys, Param.Type.NUMBER, label, -Double.MAX_VALUE, Double.MAX_VALUE, List.of(),
        fallback, null, doc);
  }

  private static Param integer(String name, String flag, String key, String label, int min, int max, String fallback,
      String doc) {
    return new Param(name, List.of(flag), List.of(key), Param.Type.INTEGER, label, min, max, List.of(), fallback, null,
        doc);
  }

  private static Param list(String name, String flag, List<String> keys, String label, String doc) {
    return new Param(name, List.of(flag), keys, Param.Type.LIST, label, 0, 0, List.of(), null, null, doc);
  }

  private static Param text(String name, String flag, String key, String label, String doc) {
    return new Param(name, List.of(flag), List.of(key), Param.Type.TEXT, label, 0, 0, List.of(), null, null, doc);
  }
}
