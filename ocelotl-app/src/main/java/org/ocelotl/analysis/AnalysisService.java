package org.ocelotl.analysis;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.GatedPool;
import org.ocelotl.aggregation.HeapBudget;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.aggregation.PartsAhead;
import org.ocelotl.aggregation.Qualities;
import org.ocelotl.model.EventCategory;
import org.ocelotl.model.Metric;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.modelfile.ModelFiles;
import org.ocelotl.scan.BreakpointCache;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.scan.ModelBuilder;
import org.ocelotl.scan.ModelRequest;
import org.ocelotl.scan.ProducerSelection;
import org.ocelotl.scan.SliceGrid;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.view.Overview;
import org.ocelotl.view.OverviewGeometry;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.store.TraceStore;
import org.ocelotl.view.PlatformGraph;
import org.ocelotl.view.TimeWindow;
import org.ocelotl.view.Topology;
import org.ocelotl.view.TopologyGeometry;
import org.ocelotl.view.Treemap;
import org.ocelotl.view.TreemapGeometry;

/**
 * The analysis pipeline, once for every front end (docs/analysis.md): model → qualities →
 * breakpoints → default p → partition at p → curves → geometry. The command line and the web
 * API are thin shells over {@link #answer}: the same request gets the same result, and the
 * same bytes in its JSON and CSV forms.
 *
 * <p>The last few built models (per trace and model request, or per model file) and analyses
 * (per model and aggregation) are kept: a new p or another view of the same aggregation costs a look-up and
 * the geometry. Two requests for the same model compute it once.
 */
public final class AnalysisService {
  /** How many built models and analyses are kept (each up to a few hundred MB at large N). */
  static final int KEPT = 6;
  /**
   * Models and analyses computed at once, at most: each uses every core, so more would only
   * share them and multiply the memory. A request that would start one more is refused
   * ({@link Busy}) rather than queued behind the others; cheap requests (a new p or view of a
   * kept analysis) never wait for this.
   */
  public static final int MAX_CONCURRENT = 2;

  /** Refused because {@value #MAX_CONCURRENT} computations are under way; try again. */
  public static final class Busy extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Busy() {
      super(MAX_CONCURRENT + " analyses are being computed; try again when one is done", null, false, false);
    }
  }

  private final java.util.concurrent.Semaphore computing = new java.util.concurrent.Semaphore(MAX_CONCURRENT);

  private final ModelSource models;
  private final Memo<ModelId, BuiltModel> builtModels = new Memo<>(KEPT);
  private final Memo<AnalysisKey, Analysis> analyses = new Memo<>(KEPT);
  /**
   * The qualities of the last model a first answer was computed for ({@link #provisional}), for the
   * requests that follow on that model (decision 067): a zoom's page asks the window at the
   * analyst's p, then at its default p, and what that partition hides, three first answers on one
   * model. Each request gets them {@link Qualities#withWork answering to its own work}. One only:
   * they take 16 bytes per (node, interval), 96 MB at 768 leaves × 100 slices.
   */
  private final Memo<AnalysisKey, Qualities> firstQualities = new Memo<>(1);
  /** Qualities computed for first answers (the others came from {@link #firstQualities}). */
  private final java.util.concurrent.atomic.AtomicLong qualitiesComputed = new java.util.concurrent.atomic.AtomicLong();
  /** Graph layouts per kept model's tree (identity): a layout costs up to a second, a redraw must not. */
  private final Memo<ProducerTree, Platform.Layout> layouts = new Memo<>(KEPT);

  /** How many breakpoints on each side of the one shown get their parts built ahead of a step of p. */
  static final int NEIGHBOURS = 3;
  /** How often a waiting chain looks whether the server has become idle. */
  static final long IDLE_POLL_MILLIS = 50;
  /**
   * Runs the batches of {@link #buildNeighbours} one after the other, on a thread that only hands
   * their programmes to the two pools below and waits: a worker of a fork/join pool waiting for a
   * task of another pool may have its pool start a spare worker, which would run the next batch
   * beside it. A daemon, so that it never keeps the process alive.
   */
  private final java.util.concurrent.ExecutorService ahead = java.util.concurrent.Executors.newSingleThreadExecutor(
      task -> {
        Thread thread = new Thread(task, "ocelotl-parts-ahead");
        thread.setDaemon(true);
        return thread;
      });
  /**
   * The neighbours' programmes, on one core: a programme forks its subtrees into the pool it runs in
   * (decision 066), and in the common pool the neighbours' programmes took both cores from the next
   * request's (decision 068).
   */
  private final java.util.concurrent.ForkJoinPool oneCore = new java.util.concurrent.ForkJoinPool(1, pool -> {
    java.util.concurrent.ForkJoinWorkerThread thread =
        java.util.concurrent.ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
    thread.setName("ocelotl-neighbours");
    thread.setDaemon(true);
    return thread;
  }, null, false);
  /** The batch whose chain may take the cores ({@link #everyCore}'s gate), or -1: none. */
  private volatile long chainOf = -1;
  /**
   * The chain's programmes, on every core while the server is idle (decision 078): each stops at
   * its next node as soon as a request arrives, or a newer partition is shown, or the service is
   * cleared, and is run again from the start at the next idle moment.
   */
  private final GatedPool everyCore = new GatedPool(Runtime.getRuntime().availableProcessors(), "ocelotl-chain",
      () -> this.shown.get() == chainOf && this.idle.getAsBoolean()); // "this.": both are declared below
  /** Counts the partitions shown to {@link #buildNeighbours}: a batch stops when a newer one is shown. */
  private final java.util.concurrent.atomic.AtomicLong shown = new java.util.concurrent.atomic.AtomicLong();
  /** A partition was drawn for the first time and left for {@link #buildNeighbours} to keep on disk. */
  private final java.util.concurrent.atomic.AtomicBoolean unwritten = new java.util.concurrent.atomic.AtomicBoolean();
  /**
   * The parts of every breakpoint of the analysis last shown, built behind its neighbours while the
   * server is idle and kept as differences (decision 072): a p picked far away is then a look-up.
   * One analysis only: the chain holds its breakpoints, and through the partitions not yet built
   * their qualities.
   */
  private volatile PartsAhead chain;
  /**
   * Whether the chain may take its next programme: a server says whether it answers nothing
   * ({@link #buildAheadOnlyWhile}); by default, always.
   */
  private volatile java.util.function.BooleanSupplier idle = () -> true;

  /** Breakpoint searches run (the other analyses came from a memo or the breakpoint cache). */
  private final java.util.concurrent.atomic.AtomicLong searches = new java.util.concurrent.atomic.AtomicLong();

  public AnalysisService(ModelSource models) {
    this.models = models;
  }

  /** Models from the project's model cache, next to each store. */
  public static AnalysisService standard() {
    return new AnalysisService(ModelSource.cached());
  }

  /**
   * Forgets every kept model and analysis, and the chain of parts built ahead; a batch under way
   * stops, the chain's programme at its next node (a closed server's would otherwise run on for
   * minutes).
   */
  public void clear() {
    shown.incrementAndGet();
    chain = null;
    builtModels.clear();
    analyses.clear();
    firstQualities.clear();
    layouts.clear();
  }

  /** How many breakpoint searches this service has run. */
  long searches() {
    return searches.get();
  }

  /** How many models' qualities this service's first answers have computed. */
  long qualitiesComputed() {
    return qualitiesComputed.get();
  }

  /** Which model a kept model or analysis is of. */
  private sealed interface ModelId permits ModelKey, FileKey {}

  private record ModelKey(String trace, long modified, ModelRequest request) implements ModelId {}

  /**
   * Model files as they were when read: a file rewritten since (a new {@code ocelotl-spark
   * model} run) is another model. Kept so that moving p over a model file, as the web UI does,
   * costs a look-up and not a new read and search.
   */
  private record FileKey(ModelInput.FromFiles files, long modelModified, long treeModified) implements ModelId {
    static FileKey of(ModelInput.FromFiles files) throws IOException {
      return new FileKey(files, java.nio.file.Files.getLastModifiedTime(files.model()).toMillis(),
          files.tree() == null ? 0 : java.nio.file.Files.getLastModifiedTime(files.tree()).toMillis());
    }

    /** The key of the whole model: every window of the files is cut from the one model read. */
    FileKey whole() {
      return new FileKey(files.whole(), modelModified, treeModified);
    }
  }

  /**
   * The slices [from, to) that a model file's window covers: its analysis is that of those
   * slices alone, exactly (no rebinning), on the model's own slice numbers.
   */
  private record SliceWindow(int from, int to) {
    /**
     * @throws IllegalArgumentException for a window that is not whole slices of the model, or holds none
     */
    static SliceWindow of(ModelInput.FromFiles files, int slices) {
      double from = Double.isNaN(files.from()) ? 0 : files.from();
      double to = Double.isNaN(files.to()) ? slices : files.to();
      String window = "the window [" + number(from) + ", " + number(to) + ")";
      if (from != Math.rint(from) || to != Math.rint(to)) {
        throw new IllegalArgumentException(window + " cuts a slice: a model file's window is in whole slices");
      }
      if (from < 0) {
        throw new IllegalArgumentException(window + " starts before slice 0");
      }
      if (from >= to) {
        throw new IllegalArgumentException(window + " holds no slice: its start must be below its end");
      }
      if (to > slices) {
        throw new IllegalArgumentException(window + " ends beyond the model: its end must be at most " + slices);
      }
      return new SliceWindow((int) from, (int) to);
    }

    /** Whole numbers without a decimal point, as the user typed them; others as Java writes them. */
    private static String number(double v) {
      return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** The window's model: the whole one itself when the window is the whole model. */
    BuiltModel of(BuiltModel whole) {
      if (from == 0 && to == whole.model().slices()) {
        return whole;
      }
      return new BuiltModel(whole.model().window(from, to), new SliceGrid(from, to, to - from), null,
          BuiltModel.SLICE_UNIT, true, whole.typeColours(), false);
    }
  }

  private record AnalysisKey(ModelId model, Aggregation aggregation) {}

  /**
   * The answer to one request.
   *
   * @throws IllegalArgumentException for a request the model cannot satisfy; the message is
   *     meant for the user
   */
  public AnalysisResult answer(AnalysisRequest request, Progress progress) throws IOException {
    return answer(request, progress, true);
  }

  /**
   * The answer to an overview request of the web page, which {@link #buildNeighbours} follows: as
   * {@link #answer}, but a partition drawn for the first time is added to the breakpoint cache's
   * file by that batch, off the answer's path (the file holds every built partition's parts, tens
   * of MB rewritten: 7 % of a far p's CPU, decision 068).
   */
  public AnalysisResult answerBeforeNeighbours(AnalysisRequest request, Progress progress) throws IOException {
    return answer(request, progress, false);
  }

  private AnalysisResult answer(AnalysisRequest request, Progress progress, boolean keepNow) throws IOException {
    Resolved resolved = resolved(request, progress);
    return drawn(analysis(resolved.input(), request.aggregation(), progress), request, resolved.chosen(), progress,
        keepNow);
  }

  /**
   * A quick first answer while the full one would take long: for a spatiotemporal request whose
   * analysis is not known yet, the optimal partition at the request's p by one dynamic programme,
   * or the exact default p and its partition by a few ({@code Qualities.tradeOff}), without the
   * breakpoint search; empty when the full answer is already kept or is quick anyway (temporal and
   * spatial searches, model files).
   */
  public java.util.Optional<ProvisionalResult> provisional(AnalysisRequest request, Progress progress)
      throws IOException {
    ModelInput input = resolved(request, progress).input();
    if (request.aggregation() != Aggregation.SPATIOTEMPORAL || !(input instanceof ModelInput.FromTrace trace)) {
      return java.util.Optional.empty();
    }
    ModelKey modelKey = new ModelKey(TraceSummary.id(trace.store()), trace.store().metadata().source().modified(),
        trace.request());
    if (analyses.has(new AnalysisKey(modelKey, request.aggregation()))) {
      return java.util.Optional.empty();
    }
    progress.stage("building the model");
    BuiltModel built = builtModels.get(modelKey, () -> capped(() -> fromTrace(trace, progress)), progress);
    if (BreakpointCache.has(trace.store(), built.model(), request.aggregation())) {
      return java.util.Optional.empty(); // the full answer is a file read away
    }
    return java.util.Optional.of(cappedNow(() -> {
      progress.stage("computing qualities and the partition at p");
      boolean[] computedHere = {false};
      Qualities kept = firstQualities.get(new AnalysisKey(modelKey, request.aggregation()), () -> {
        qualitiesComputed.incrementAndGet();
        computedHere[0] = true;
        return Qualities.of(built.model(), request.aggregation(), progress);
      }, progress);
      // Computed here, they answer to this request and reserved its evaluations' heap already.
      Qualities q = computedHere[0] ? kept : kept.withWork(progress);
      boolean byDefault = Double.isNaN(request.p());
      Breakpoint tradeOff = byDefault ? q.tradeOff() : null;
      double p = byDefault ? tradeOff.p() : request.p();
      Partition partition = byDefault ? tradeOff.partition() : q.best(p);
      Overview overview = request.view() == null ? null : OverviewGeometry.build(built.model(), partition,
          request.view(), window(built), built.typeColours(), request.height(), OverviewGeometry.VISUAL_THRESHOLD_PX);
      return new ProvisionalResult(TraceSummary.of(trace.store()), built, request.aggregation(), request.view(),
          trace.request().producers().depth(), p, byDefault ? p : Double.NaN, partition, q.whole(), overview);
    }));
  }

  /**
   * What the partition shown hides: the cells of its parts that deviate most from them, highest
   * score first (docs/aggregation.md). Temporal phases list the subtrees that depart from them over
   * the whole phase; spatiotemporal parts any subtree over any stretch of their slices. A
   * spatiotemporal request whose breakpoints are not known ranks the parts of its first answer
   * ({@link #provisional}: the same p and partition, without the minute-long search); else those
   * of the full answer.
   */
  public OutliersResult outliers(OutliersRequest request, Progress progress) throws IOException {
    java.util.Optional<ProvisionalResult> first = provisional(request.analysis(), progress);
    OutliersResult.Shown shown = first.isPresent() ? OutliersResult.Shown.of(first.get())
        : OutliersResult.Shown.of(answer(request.analysis(), progress));
    progress.stage("ranking what the aggregates hide");
    List<org.ocelotl.aggregation.Outlier> outliers = org.ocelotl.aggregation.Outliers.of(shown.built().model(),
        shown.partition().parts(), shown.aggregation(), progress);
    return new OutliersResult(shown, outliers, request.limit(), byTheLinks(request.analysis(), shown, outliers,
        progress));
  }

  /**
   * Who the states cannot name (decision 061): where the largest departure the partition hides is
   * a stretch of every producer — a stall every rank waits on, as behind a slowed link, which the
   * state durations record on every rank (decision 041) — and the trace records the links'
   * bandwidth and its use, the cell of one link that departs most from the other links (the
   * links' utilization over the same window and slices, ranked as one part by the same split
   * score) over less than the whole window, named by the producers behind it ({@link LinkSites})
   * if it is {@link OutliersResult.ByLink#busier busier} there; else null. A link departing over the
   * whole window departs by the platform's build (an uplink carries a site's traffic, a NIC one
   * host's), not over a stretch of the run; only the first such cell is looked at, so that an
   * unperturbed run's links yield nothing rather than their least quiet cell.
   */
  private OutliersResult.ByLink byTheLinks(AnalysisRequest request, OutliersResult.Shown shown,
      List<org.ocelotl.aggregation.Outlier> outliers, Progress progress) throws IOException {
    ProducerTree tree = shown.built().model().tree();
    if (shown.aggregation() != Aggregation.SPATIOTEMPORAL || outliers.isEmpty()
        || tree.parent(outliers.get(0).node()) >= 0) {
      return null;
    }
    ModelInput input = resolved(request, progress).input();
    if (!(input instanceof ModelInput.FromTrace trace) || trace.request().metric() != Metric.STATE_DURATION
        || !recordsLinkUse(trace.store().metadata())) {
      return null;
    }
    ModelRequest asked = trace.request();
    progress.stage("ranking the links' use");
    BuiltModel links = built(new ModelInput.FromTrace(trace.store(), ModelRequest.of(Metric.UTILIZATION,
        asked.slices()).withWindow(asked.from(), asked.to()).withTypes(LINKS).withExact(asked.exact())), progress);
    MicroscopicModel model = links.model();
    if (!links.grid().equals(shown.built().grid())) {
      return null; // the links' slices are not the overview's: no cell of one is a cell of the other
    }
    for (org.ocelotl.aggregation.Outlier cell : org.ocelotl.aggregation.Outliers.of(model,
        List.of(new org.ocelotl.aggregation.Part(0, 0, model.slices() - 1)), Aggregation.SPATIOTEMPORAL, progress)) {
      if (model.tree().leafCount(cell.node()) == 1 && (cell.first() > 0 || cell.last() < model.slices() - 1)) {
        String link = model.tree().path(cell.node());
        int site = LinkSites.site(trace.store(), tree, link);
        OutliersResult.ByLink found = site < 0 ? null : OutliersResult.ByLink.of(site, link, cell, model);
        return found != null && found.busier() ? found : null;
      }
    }
    return null;
  }

  /**
   * How OTHER departs from BASE (docs/aggregation.md, "Comparing two runs"): both runs cut into the
   * same model (BASE's producer depth and variable for both), their difference model aggregated
   * spatiotemporally with its exact breakpoints, the overview at p coloured by what was gained, and
   * the differences ranked.
   */
  public CompareResult compare(CompareRequest request, Progress progress) throws IOException {
    CompareResult result = compared(request, progress);
    CompareRequest links = linksComparison(request, result);
    if (links == null) {
      return result;
    }
    CompareResult byLinks = compared(links, progress);
    return result.withLinks(byLinks, site(request, result, byLinks));
  }

  /**
   * The site behind the links' first difference, in the states' tree (decision 060): where the
   * states' first difference is every producer's, who is behind the link that departs first;
   * null where that difference is no single link or the link has no site ({@link LinkSites}).
   * OTHER's platform: the links' difference is in OTHER's time, and the runs share the platform.
   */
  private static CompareResult.LinkSite site(CompareRequest request, CompareResult states, CompareResult byLinks) {
    if (byLinks.changes().isEmpty()) {
      return null;
    }
    org.ocelotl.compare.Differences.Change first = byLinks.changes().get(0);
    org.ocelotl.model.ProducerTree links = byLinks.difference().model().tree();
    if (links.parent(first.node()) < 0) {
      return null; // every link: no one link departs
    }
    String link = links.path(first.node());
    int node = LinkSites.site(request.other().store(), states.difference().model().tree(), link);
    return node < 0 ? null : new CompareResult.LinkSite(node, link, first);
  }

  /** The links' use over bandwidth: the one pair of variables {@link #linksComparison} compares. */
  public static final List<String> LINKS = List.of("bandwidth");

  /**
   * The same two runs compared by the links' use (utilization of bandwidth), where the states'
   * first difference is every producer over a stretch — a stall every rank waits on, as behind a
   * slowed link (decision 044: there the states tell when but not who, the links' use can; decision
   * 060: the first, not the first three, as a stretched comparison puts a waiting site second) —
   * and both traces record the links' bandwidth and its use; else null.
   */
  private static CompareRequest linksComparison(CompareRequest request, CompareResult result) {
    ModelRequest asked = request.base().request();
    if (asked.metric() != Metric.STATE_DURATION || result.changes().isEmpty()
        || result.difference().model().tree().parent(result.changes().get(0).node()) >= 0
        || !recordsLinkUse(request.base().store().metadata()) || !recordsLinkUse(request.other().store().metadata())) {
      return null;
    }
    java.util.function.UnaryOperator<ModelRequest> links = r -> ModelRequest.of(Metric.UTILIZATION, r.slices())
        .withProducers(new ProducerSelection(List.of(), List.of(), r.producers().depth())).withTypes(LINKS)
        .withExact(r.exact());
    return new CompareRequest(new ModelInput.FromTrace(request.base().store(), links.apply(asked)),
        new ModelInput.FromTrace(request.other().store(), links.apply(request.other().request())), request.align(),
        request.from(), request.to(), Double.NaN, request.height(), request.limit());
  }

  private static boolean recordsLinkUse(StoreMetadata m) {
    return !org.ocelotl.model.Utilization.variables(m.recordedVariables(), LINKS).isEmpty();
  }

  private CompareResult compared(CompareRequest request, Progress progress) throws IOException {
    ModelInput.FromTrace base = (ModelInput.FromTrace) resolved(new AnalysisRequest(request.base(),
        Aggregation.SPATIOTEMPORAL, null, request.p(), request.height()), progress).input();
    ModelRequest asked = base.request();
    ModelInput.FromTrace other = new ModelInput.FromTrace(request.other().store(), request.other().request()
        .withProducers(asked.producers()).withTypes(asked.types()));
    StoreMetadata bm = base.store().metadata();
    StoreMetadata om = other.store().metadata();
    double length = Math.min(bm.windowEnd() - bm.start(), om.windowEnd() - om.start());
    boolean start = request.align() == CompareRequest.Align.START;
    double[] baseSpan = {bm.start(), start ? bm.start() + length : bm.windowEnd()};
    double[] otherSpan = {om.start(), start ? om.start() + length : om.windowEnd()};
    double[] otherWindow = {Double.isNaN(request.from()) ? otherSpan[0] : request.from(),
        Double.isNaN(request.to()) ? otherSpan[1] : request.to()};
    double[] baseWindow = matching(otherWindow, otherSpan, baseSpan, om.timeUnit());
    progress.stage("building BASE's model");
    BuiltModel b = built(new ModelInput.FromTrace(base.store(), asked.withWindow(baseWindow[0], baseWindow[1])),
        progress);
    progress.stage("building OTHER's model");
    BuiltModel o = built(new ModelInput.FromTrace(other.store(), other.request().withWindow(otherWindow[0],
        otherWindow[1])), progress);
    org.ocelotl.compare.Difference difference = org.ocelotl.compare.Difference.of(b.model(), o.model());
    return cappedNow(() -> {
      progress.stage("computing qualities and breakpoints of the difference");
      MicroscopicModel model = difference.model();
      List<Breakpoint> breakpoints = Qualities.of(model, Aggregation.SPATIOTEMPORAL, progress).breakpoints();
      List<String> colours = new java.util.ArrayList<>();
      for (String type : difference.types()) {
        int t = o.model().types().indexOf(type);
        colours.add(t >= 0 ? o.typeColours().get(t) : b.typeColours().get(b.model().types().indexOf(type)));
      }
      List<String> differenceColours = new java.util.ArrayList<>();
      for (int t : difference.typeOf()) {
        differenceColours.add(colours.get(t));
      }
      BuiltModel built = new BuiltModel(model, o.grid(), o.metric(), o.timeUnit(), b.exact() && o.exact(),
          differenceColours, o.inclusive());
      TraceSummary otherTrace = TraceSummary.of(other.store());
      TraceSummary shown = new TraceSummary(otherTrace.id(), TraceSummary.of(base.store()).name() + " → "
          + otherTrace.name(), otherTrace.path(), otherTrace.format(), otherTrace.start(), otherTrace.origin(), otherTrace.end(),
          otherTrace.unit());
      Analysis analysis = new Analysis(shown, built, Aggregation.SPATIOTEMPORAL, breakpoints,
          Breakpoint.defaultP(breakpoints), Analysis.filters(asked), asked.producers().depth());
      double p = Double.isNaN(request.p()) ? analysis.defaultP() : request.p();
      Partition partition = Breakpoint.at(breakpoints, p);
      progress.stage("drawing");
      Overview overview = OverviewGeometry.shaded(OverviewGeometry.build(CompareResult.gains(difference), partition,
          org.ocelotl.view.ViewKind.of("spatiotemporal", "mode"), window(built), colours, request.height(),
          OverviewGeometry.VISUAL_THRESHOLD_PX), model);
      AnalysisResult result = new AnalysisResult(analysis, org.ocelotl.view.ViewKind.of("spatiotemporal", "mode"), p,
          partition, QualityCurves.of(breakpoints, p), overview, null);
      progress.stage("ranking the differences");
      List<org.ocelotl.compare.Differences.Change> changes = org.ocelotl.compare.Differences.of(difference,
          partition.parts(), progress);
      return new CompareResult(request, TraceSummary.of(base.store()), otherTrace, baseWindow, otherWindow,
          difference, result, changes, colours, null, null);
    });
  }

  /**
   * BASE's window that matches {@code window}, a part of OTHER's window {@code other} compared with
   * BASE's {@code base}: the same offsets, scaled by the ratio of the two spans (1 with the start
   * align, whose spans are equal).
   *
   * @throws IllegalArgumentException when {@code window} is not within {@code other}
   */
  static double[] matching(double[] window, double[] other, double[] base, String unit) {
    if (!(window[0] >= other[0] && window[1] <= other[1] && window[0] < window[1])) {
      throw new IllegalArgumentException("the window compared, [" + window[0] + ", " + window[1] + ") in OTHER's "
          + "time, must lie within [" + other[0] + ", " + other[1] + ") " + unit + ", the span the align compares");
    }
    double scale = (base[1] - base[0]) / (other[1] - other[0]);
    // A bound of the span maps onto BASE's bound itself, not onto a product that rounding may move.
    return new double[] {window[0] == other[0] ? base[0] : base[0] + (window[0] - other[0]) * scale,
        window[1] == other[1] ? base[1] : base[0] + (window[1] - other[0]) * scale};
  }

  /** A trace's model, built once and kept. */
  private BuiltModel built(ModelInput.FromTrace trace, Progress progress) throws IOException {
    ModelKey modelKey = new ModelKey(TraceSummary.id(trace.store()), trace.store().metadata().source().modified(),
        trace.request());
    return builtModels.get(modelKey, () -> capped(() -> fromTrace(trace, progress)), progress);
  }

  /**
   * Says that a request for another partition has come: the batch of neighbours under way stops
   * before its next partition instead of taking the cores from it (a p picked far away finds none
   * of them useful).
   */
  public void newRequest() {
    shown.incrementAndGet();
  }

  /**
   * The chain of every breakpoint's parts (decision 072) then runs only while {@code idle} says so:
   * a server's requests other than overviews (a Gantt chart, statistics, an event page) do not stop
   * the batch, and minutes of programmes on every core would otherwise share the cores with them.
   * The chain's programme under way stops at its next node when {@code idle} turns false, and runs
   * again once it is true (decision 078); {@code idle} is asked before each node, from every core.
   * The neighbours, a few programmes right after an answer, are not held.
   */
  public void buildAheadOnlyWhile(java.util.function.BooleanSupplier idle) {
    this.idle = idle;
  }

  /**
   * Builds in the background the parts of the {@value #NEIGHBOURS} breakpoints on each side of the
   * one a result shows, nearest first, alternating sides, and keeps them in the breakpoint cache:
   * the page steps p from breakpoint to breakpoint (← and →), and a partition whose parts are built
   * is drawn without a dynamic programme (one costs 0.2–0.4 s at 768 leaves × 100 slices,
   * docs/benchmarks.md). A batch stops before its next partition when a newer one is shown, so the
   * thread follows the analyst instead of queueing behind old positions. The batch then writes the
   * breakpoint cache's file if it built a partition or one was drawn ({@link #answerBeforeNeighbours}),
   * and goes on, until the next request, with every other breakpoint of the list, outwards, each
   * programme on every core while the server is idle ({@link PartsAhead}: a p picked far away is
   * then a look-up; decision 078). The web server calls this after answering; a
   * one-shot command has no next step to prepare.
   *
   * @return done when the batch has ended: stopped, or every breakpoint's parts built (tests wait on it)
   */
  public java.util.concurrent.Future<?> buildNeighbours(AnalysisRequest request, AnalysisResult result) {
    long generation = shown.incrementAndGet();
    List<Breakpoint> breakpoints = result.analysis().breakpoints();
    int at = Breakpoint.indexAt(breakpoints, result.p());
    return ahead.submit(() -> {
      boolean built = false;
      try {
        for (int step = 1; step <= NEIGHBOURS && shown.get() == generation; step++) {
          for (int k : new int[] {at + step, at - step}) {
            if (k >= 0 && k < breakpoints.size() && !breakpoints.get(k).partition().partsBuilt()
                && shown.get() == generation) {
              Partition partition = breakpoints.get(k).partition();
              oneCore.submit(partition::parts).get();
              built = true;
            }
          }
        }
        if ((unwritten.getAndSet(false) | built) && request.input() instanceof ModelInput.FromTrace trace) {
          BreakpointCache.write(trace.store(), result.analysis().built().model(), result.analysis().aggregation(),
              breakpoints);
        }
        // Then every other breakpoint, one programme at a time on every core, until the next
        // request: the chain keeps their parts as differences, which the file does not hold (it
        // keeps those drawn).
        PartsAhead parts = chain;
        if (parts == null || parts.breakpoints() != breakpoints) {
          parts = new PartsAhead(breakpoints, result.analysis().built().model(), at);
          chain = parts;
        }
        chainOf = generation;
        while (shown.get() == generation) {
          if (!idle.getAsBoolean()) {
            Thread.sleep(IDLE_POLL_MILLIS); // a chart, statistics or event page is being answered: it has the cores
            continue;
          }
          try {
            if (!everyCore.submit(parts::extend).get()) {
              break; // every breakpoint's parts built
            }
          } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof GatedPool.Closed)) {
              break; // a partition that cannot be built here: see below
            } // else a request came during the programme: it has the cores; the programme runs again once idle
          }
        }
      } catch (RuntimeException | java.util.concurrent.ExecutionException e) {
        // Built ahead only to save time: a partition that cannot be built here (the heap, a store
        // removed meanwhile) is built, or its failure told, when a request asks for it.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the service is closing
      }
    });
  }

  /**
   * The partition at the request's p, the curves and the view of an analysis. A partition of a
   * trace's analysis drawn for the first time is added to the breakpoint cache's file, so that a
   * revisit after a restart draws it without computing the qualities: here when {@code keepNow},
   * else by the {@link #buildNeighbours} batch that follows the answer.
   */
  private AnalysisResult drawn(Analysis analysis, AnalysisRequest request, VariableChoice chosen,
      Progress progress, boolean keepNow) {
    progress.stage("drawing");
    double p = Double.isNaN(request.p()) ? analysis.defaultP() : request.p();
    Partition partition = Breakpoint.at(analysis.breakpoints(), p);
    if (!partition.partsBuilt() && request.input() instanceof ModelInput.FromTrace trace) {
      partition.parts();
      if (keepNow) {
        BreakpointCache.write(trace.store(), analysis.built().model(), analysis.aggregation(), analysis.breakpoints());
      } else {
        unwritten.set(true);
      }
    }
    QualityCurves curves = QualityCurves.of(analysis.breakpoints(), p);
    Overview overview = null;
    if (request.view() != null) {
      BuiltModel built = analysis.built();
      overview = OverviewGeometry.build(built.model(), partition, request.view(), window(built),
          built.typeColours(), request.height(), OverviewGeometry.VISUAL_THRESHOLD_PX);
    }
    progress.check();
    return new AnalysisResult(analysis, request.view(), p, partition, curves, overview, chosen);
  }

  /** A request's input as built, and the variable chosen for it when its type filter named none. */
  private record Resolved(ModelInput input, VariableChoice chosen) {}

  /**
   * The input with an automatic producer depth resolved for the rows the view can draw, and a
   * variable mean narrowed to one variable.
   */
  private Resolved resolved(AnalysisRequest request, Progress progress) throws IOException {
    if (!(request.input() instanceof ModelInput.FromTrace trace)) {
      return new Resolved(request.input(), null);
    }
    int rows = Math.max(1, (int) (request.height() / OverviewGeometry.VISUAL_THRESHOLD_PX));
    ModelRequest model = ModelBuilder.withDepthFor(trace.store(), trace.request(), rows);
    if (model.metric() != Metric.VARIABLE_MEAN) {
      return new Resolved(new ModelInput.FromTrace(trace.store(), model), null);
    }
    StoreMetadata m = trace.store().metadata();
    oneVariable(m, model);
    if (!model.types().isEmpty() || variables(m).stream().map(StoreMetadata.EventType::name).distinct().count() <= 1) {
      return new Resolved(new ModelInput.FromTrace(trace.store(), model), null);
    }
    progress.stage("choosing the variable that varies most");
    MicroscopicModel every = built(new ModelInput.FromTrace(trace.store(), model), progress).model();
    Map<String, Long> records = new java.util.HashMap<>();
    variables(m).forEach(t -> records.merge(t.name(), t.count(), Long::sum));
    VariableChoice chosen = VariableChoice.of(every, records);
    return new Resolved(new ModelInput.FromTrace(trace.store(), model.withTypes(List.of(chosen.type()))), chosen);
  }

  /** The trace's variables that have records. */
  private static List<StoreMetadata.EventType> variables(StoreMetadata m) {
    return m.types().stream().filter(t -> t.category() == EventCategory.VARIABLE && t.count() > 0).toList();
  }

  /**
   * Variables have units of their own that traces do not state (a bandwidth in B/s beside a
   * latency in s): a mode across them, or a stack of them, would compare what cannot be
   * compared. A variable mean therefore shows one variable: the one the type filter keeps, or,
   * without a filter, the one that varies most ({@link VariableChoice}, chosen by the caller).
   *
   * @throws IllegalArgumentException when the filter keeps several
   */
  static void oneVariable(StoreMetadata m, ModelRequest request) {
    if (request.types().isEmpty()) {
      return;
    }
    List<String> kept = variables(m).stream()
        .filter(t -> request.types().contains(t.name()) || t.group() != null && request.types().contains(t.group()))
        .map(StoreMetadata.EventType::name).distinct().toList();
    if (kept.size() > 1) {
      throw new IllegalArgumentException("the variable mean shows one variable at a time (their units differ); the "
          + "type filter keeps " + kept.size() + ": " + String.join(", ", kept) + "; keep one");
    }
  }

  /**
   * A treemap (docs/views.md): the spatial analysis at p, cut at the partition's nodes or at a
   * depth, for the window or one time step. Stepping through time or moving p reuses the kept
   * analysis and costs only the geometry.
   */
  public TreemapResult treemap(TreemapRequest request, Progress progress) throws IOException {
    AnalysisResult result = answer(request.analysis(), progress);
    MicroscopicModel model = result.analysis().built().model();
    if (request.slice() >= model.slices()) {
      throw new IllegalArgumentException("the time step must be a slice in [0, " + (model.slices() - 1)
          + "], got " + request.slice());
    }
    boolean[] cut = request.depth() < 0 ? TreemapGeometry.cutOf(model.tree(), result.partition())
        : TreemapGeometry.cutAtDepth(model.tree(), request.depth());
    int first = request.slice() < 0 ? 0 : request.slice();
    int last = request.slice() < 0 ? model.slices() - 1 : request.slice();
    Treemap treemap = TreemapGeometry.build(model, cut, first, last, window(result.analysis().built()),
        result.analysis().built().typeColours(), request.width(), request.height(), OverviewGeometry.VISUAL_THRESHOLD_PX);
    progress.check();
    return new TreemapResult(request, result, treemap, HiddenNodes.of(model, cut, first, last, progress));
  }

  /**
   * A topology graph (docs/views.md): the spatial analysis at p, cut at the partition or a depth,
   * with the user's expanded and collapsed groups, for the window or one time step. Positions
   * come from one layout of the whole tree and platform, so they never move with the cut or time.
   */
  public TopologyResult topology(TopologyRequest request, Progress progress) throws IOException {
    if (!(request.analysis().input() instanceof ModelInput.FromTrace trace)) {
      throw new IllegalArgumentException("a topology graph needs a trace: model files have no platform");
    }
    // Not narrowed to one variable: the capacity model holds each resource's capacity and use
    // (TopologyRequest.capacityModel), which the graph shows side by side, never summed across.
    int rows = Math.max(1, (int) (request.analysis().height() / OverviewGeometry.VISUAL_THRESHOLD_PX));
    TraceStore store = trace.store();
    trace = new ModelInput.FromTrace(store, ModelBuilder.withDepthFor(store, trace.request(), rows));
    AnalysisResult result = drawn(analysis(trace, Aggregation.SPATIAL, progress), request.analysis(), null, progress,
        true);
    BuiltModel built = result.analysis().built();
    MicroscopicModel model = built.model();
    if (request.slice() >= model.slices()) {
      throw new IllegalArgumentException("the time step must be a slice in [0, " + (model.slices() - 1)
          + "], got " + request.slice());
    }
    int first = request.slice() < 0 ? 0 : request.slice();
    int last = request.slice() < 0 ? model.slices() - 1 : request.slice();
    ProducerTree tree = model.tree();
    // The kinds, platform links and positions depend on no window or step: computed once per model.
    Platform.Layout layout = layouts.get(tree, () -> Platform.layout(store, built), progress);
    PlatformGraph graph = Platform.of(store, built, layout, request.mapping(), first, last);
    boolean[] cut = request.depth() < 0 ? TreemapGeometry.cutOf(tree, result.partition())
        : TreemapGeometry.cutAtDepth(tree, request.depth());
    for (String toggle : request.toggles()) {
      int node = nodeAt(tree, toggle.substring(1));
      if (toggle.charAt(0) == '+') {
        TopologyGeometry.expand(tree, cut, node);
      } else {
        TopologyGeometry.collapse(tree, cut, node);
      }
    }
    Topology topology = TopologyGeometry.build(graph, cut, layout.positions(), request.side());
    progress.check();
    return new TopologyResult(request, result, topology, built.grid().boundary(first), built.grid().boundary(last + 1),
        HiddenNodes.of(model, cut, first, last, progress));
  }

  /** The node of a path of names from below the root ("" = the root). */
  private static int nodeAt(ProducerTree tree, String path) {
    int node = 0;
    if (!path.isEmpty()) {
      for (String name : path.split("/")) {
        int found = -1;
        for (int c = 0; c < tree.childCount(node) && found < 0; c++) {
          if (tree.name(tree.child(node, c)).equals(name)) {
            found = tree.child(node, c);
          }
        }
        if (found < 0) {
          throw new IllegalArgumentException("no producer group '" + path + "' in this model");
        }
        node = found;
      }
    }
    return node;
  }

  /** The model aggregated for every p: computed once per model and aggregation, then kept. */
  public Analysis analysis(ModelInput input, Aggregation aggregation, Progress progress) throws IOException {
    progress.stage("building the model");
    if (input instanceof ModelInput.FromFiles files) {
      FileKey fileKey = FileKey.of(files);
      BuiltModel whole = builtModels.get(fileKey.whole(), () -> capped(() -> fromFiles(files)), progress);
      SliceWindow window = SliceWindow.of(files, whole.model().slices());
      // The window's values are copied only when its analysis is computed, not on every new p.
      return analyses.get(new AnalysisKey(fileKey, aggregation),
          () -> capped(() -> aggregate(null, null, window.of(whole), aggregation, List.of(), 0, progress)), progress);
    }
    ModelInput.FromTrace trace = (ModelInput.FromTrace) input;
    ModelKey modelKey = new ModelKey(TraceSummary.id(trace.store()), trace.store().metadata().source().modified(),
        trace.request());
    BuiltModel built = builtModels.get(modelKey, () -> capped(() -> fromTrace(trace, progress)), progress);
    return analyses.get(new AnalysisKey(modelKey, aggregation),
        () -> capped(() -> aggregate(trace.store(), TraceSummary.of(trace.store()), built, aggregation,
            Analysis.filters(trace.request()), trace.request().producers().depth(), progress)),
        progress);
  }

  /** {@link #capped}, called directly rather than through a memo. */
  private <V> V cappedNow(java.util.concurrent.Callable<V> computation) throws IOException {
    try {
      return capped(computation);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /**
   * Runs a computation within the cap on concurrent ones, holding the heap it reserves until it
   * ends ({@link HeapBudget}): two computations never take the same free heap.
   */
  private <V> V capped(java.util.concurrent.Callable<V> computation) throws Exception {
    if (!computing.tryAcquire()) {
      throw new Busy();
    }
    try (HeapBudget.Scope heap = HeapBudget.open()) {
      return computation.call();
    } finally {
      computing.release();
    }
  }

  /**
   * The analysis of a model: its breakpoints from the store's breakpoint cache when a past search
   * left them there (this service's or another process's), else searched and kept there.
   *
   * @param store the trace's store, or null for a model read from files (nowhere to keep them)
   */
  private Analysis aggregate(TraceStore store, TraceSummary trace, BuiltModel built, Aggregation aggregation,
      List<String> filters, int depth, Progress progress) {
    List<Breakpoint> breakpoints = store == null ? null : BreakpointCache.read(store, built.model(), aggregation);
    if (breakpoints == null) {
      progress.stage("computing qualities and breakpoints");
      searches.incrementAndGet();
      breakpoints = Qualities.of(built.model(), aggregation, progress).breakpoints();
      if (store != null) {
        // The default p's partition is the one drawn first: kept with its parts, a revisit draws it at once.
        Breakpoint.at(breakpoints, Breakpoint.defaultP(breakpoints)).parts();
        BreakpointCache.write(store, built.model(), aggregation, breakpoints);
      }
    }
    return new Analysis(trace, built, aggregation, breakpoints, Breakpoint.defaultP(breakpoints), filters, depth);
  }

  private BuiltModel fromTrace(ModelInput.FromTrace input, Progress progress) throws IOException {
    BuiltModel built = models.build(input.store(), input.request(), progress);
    if (input.request().types().isEmpty()) {
      return built;
    }
    // The model's producers are those with records of the metric's category; with a type
    // filter, many may hold none of the chosen types (network links for a host variable).
    return new BuiltModel(built.model().withoutEmptyLeaves(), built.grid(), built.metric(), built.timeUnit(),
        built.exact(), built.typeColours(), built.inclusive());
  }

  /** A model file has no time axis of its own: its whole window is the slices [0, N), unit "slice". */
  private static BuiltModel fromFiles(ModelInput.FromFiles files) throws IOException {
    MicroscopicModel model = ModelFiles.read(files.model(), files.tree(), files.slices());
    return new BuiltModel(model, new SliceGrid(0, model.slices(), model.slices()), null, BuiltModel.SLICE_UNIT,
        true, Collections.nCopies(model.typeCount(), null), false);
  }

  static TimeWindow window(BuiltModel built) {
    return new TimeWindow(built.grid().start(), built.grid().end(), built.timeUnit());
  }
}
