package org.ocelotl.analysis;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.ocelotl.aggregation.Aggregation;
import org.ocelotl.aggregation.Breakpoint;
import org.ocelotl.aggregation.Part;
import org.ocelotl.aggregation.Partition;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;
import org.ocelotl.scan.BuiltModel;
import org.ocelotl.view.AxisNode;
import org.ocelotl.view.Block;
import org.ocelotl.view.LegendEntry;
import org.ocelotl.view.Overview;
import org.ocelotl.view.QualityCurves;
import org.ocelotl.view.TimeScale;
import org.ocelotl.view.Tooltip;
import org.ocelotl.view.Topology;
import org.ocelotl.view.Treemap;
import org.ocelotl.view.TreemapCell;
import org.ocelotl.view.TypeShare;
import org.ocelotl.view.ViewKind;

/**
 * The JSON of every answer, written by Jackson: the analysis result (docs/analysis.md) and the
 * small documents of the CLI and the API (lists, trace descriptions). The layouts are spelled
 * out here, field by field, rather than derived from class shapes, so that renaming a Java
 * component never changes a contract silently; golden files in the tests pin them.
 */
public final class JsonForm {
  /** Request bodies are small; deeper nesting is an attack or a mistake, not a request. */
  static final int MAX_NESTING = 64;
  /**
   * Doubles are written by Jackson's Schubfach writer: the shortest decimal that reads back as the
   * same double, as Double.toString gives from JDK 19 on; JDK 17's own took a third of a new p's
   * answer (curves, blocks and shares are tens of thousands of doubles).
   */
  private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
      .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
      .build());

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonForm() {}

  /** Compact UTF-8 JSON of a tree, a map or a list of plain values. */
  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** What writes a large answer straight to a generator, without a tree of nodes in between. */
  @FunctionalInterface
  public interface Streamed {
    void write(com.fasterxml.jackson.core.JsonGenerator json) throws java.io.IOException;
  }

  /** Compact UTF-8 JSON written by {@code body}: for answers of many thousands of objects. */
  public static byte[] streamed(Streamed body) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(1 << 16);
    try (com.fasterxml.jackson.core.JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
      json.setCodec(MAPPER);
      body.write(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /** Indented JSON with a final newline, for files and terminals. */
  public static String pretty(Object value) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** @throws IllegalArgumentException with Jackson's description of what is wrong and where */
  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      // Limits (nesting depth) are reported without a location.
      String where = e.getLocation() == null ? ""
          : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      String what = e.getOriginalMessage();
      throw new IllegalArgumentException((what.length() > 300 ? what.substring(0, 300) + "…" : what) + where);
    }
  }

  public static ObjectNode object() {
    return NODES.objectNode();
  }

  /**
   * A value of a tree written by {@code body} when the tree is written: the large arrays of an
   * answer (thousands of parts and blocks) cost a node per field and a hash map per object
   * otherwise, a third of a new p's time on the server (issue 28). The bytes are those the nodes
   * would give: same fields, same order, same numbers.
   */
  private static JsonSerializable streamedValue(Streamed body) {
    return new JsonSerializable.Base() {
      @Override
      public void serialize(JsonGenerator json, SerializerProvider provider) throws IOException {
        body.write(json);
      }

      @Override
      public void serializeWithType(JsonGenerator json, SerializerProvider provider, TypeSerializer type)
          throws IOException {
        serialize(json, provider);
      }
    };
  }

  // ---- the analysis result ------------------------------------------------------------------

  static ObjectNode result(AnalysisResult r) {
    return result(r, true);
  }

  /**
   * The result; {@code whole} false leaves out {@code parts}, {@code breakpoints} and
   * {@code curves} (the API's {@code answer=view}, decision 068), every other field as it is.
   */
  static ObjectNode result(AnalysisResult r, boolean whole) {
    Analysis a = r.analysis();
    Partition last = r.lastPartition();
    ObjectNode json = shown(a.trace(), a.built(), a.aggregation(), r.view(), a.producerDepth(), r.timeScale(),
        r.metricLabel(), r.p(), r.partition(), last, whole);
    json.put("defaultP", a.defaultP());
    if (whole) {
      json.putPOJO("breakpoints", streamedValue(out -> {
        out.writeStartArray();
        for (Breakpoint b : a.breakpoints()) {
          breakpoint(b, last, out);
        }
        out.writeEndArray();
      }));
      json.set("curves", curves(r.curves()));
    }
    json.set("overview", r.overview() == null ? NODES.nullNode() : overview(r.overview()));
    if (r.chosen() != null) {
      json.set("variableChoice", variableChoice(r));
    }
    return json;
  }

  /** Why a variable mean shows its variable (decision 050): every variable's score, the largest deviation's cell. */
  private static ObjectNode variableChoice(AnalysisResult r) {
    VariableChoice c = r.chosen();
    ObjectNode json = NODES.objectNode().put("type", c.type()).put("score", c.score());
    if (c.producer() != null) {
      json.put("producer", c.producer()).put("slice", c.slice()).put("when", r.chosenSlice());
    }
    ObjectNode scores = json.putObject("scores");
    c.scores().forEach(scores::put);
    return json;
  }

  /**
   * The first answer to a long spatiotemporal request: the partition at the request's p, or at the
   * default p, before the breakpoints are known — the same fields as {@link #result}, with
   * {@code provisional: true}, no breakpoints and no curves, and the default p only when it is the
   * p shown.
   */
  static ObjectNode provisional(ProvisionalResult r, boolean whole) {
    ObjectNode json = shown(r.trace(), r.built(), r.aggregation(), r.view(), r.producerDepth(), r.timeScale(),
        r.metricLabel(), r.p(), r.partition(), r.whole(), whole);
    json.put("provisional", true);
    if (!Double.isNaN(r.defaultP())) {
      json.put("defaultP", r.defaultP());
    }
    if (whole) {
      json.putArray("breakpoints");
      json.set("curves", NODES.nullNode());
    }
    json.set("overview", r.overview() == null ? NODES.nullNode() : overview(r.overview()));
    return json;
  }

  /** What every answer says of the model and of the partition shown. */
  /** How the answer's times read (docs/api.md): since the trace's start, in a unit that suits the window. */
  static void timeScale(ObjectNode json, TimeScale scale) {
    json.putObject("timeScale").put("origin", scale.origin()).put("factor", scale.factor()).put("unit", scale.unit());
  }

  private static ObjectNode shown(TraceSummary trace, BuiltModel built, Aggregation aggregation, ViewKind view,
      int producerDepth, TimeScale scale, String metricLabel, double p, Partition partition, Partition last,
      boolean withParts) {
    MicroscopicModel model = built.model();
    ObjectNode json = object();
    json.set("trace", trace == null ? NODES.nullNode() : trace(trace));
    json.put("metric", built.metric() == null ? null : built.metric().cliName());
    if (built.time() != null) { // a state metric's: exclusive or inclusive time
      json.put("time", built.time());
    }
    json.put("metricLabel", metricLabel);
    json.put("valueUnit", built.unit());
    json.put("timeUnit", built.timeUnit());
    timeScale(json, scale);
    json.put("aggregation", name(aggregation));
    json.put("view", view == null ? null : view.view());
    json.put("start", built.grid().start());
    json.put("end", built.grid().end());
    json.put("slices", model.slices());
    json.put("leaves", model.leaves());
    json.put("producerDepth", producerDepth);
    ArrayNode types = json.putArray("types");
    model.types().forEach(types::add);
    json.put("exact", built.exact());
    json.put("p", p);
    json.putNull("defaultP"); // its place; a full answer sets it
    json.put("partCount", partition.size());
    json.put("gain", partition.gain());
    json.put("loss", partition.loss());
    json.put("gainFraction", Breakpoint.fraction(partition.gain(), last.gain()));
    json.put("lossFraction", Breakpoint.fraction(partition.loss(), last.loss()));
    if (withParts) {
      json.putPOJO("parts", streamedValue(out -> {
        out.writeStartArray();
        for (Part part : partition.parts()) {
          part(built, aggregation, part, out);
        }
        out.writeEndArray();
      }));
    }
    return json;
  }

  public static ObjectNode trace(TraceSummary t) {
    ObjectNode json = object();
    json.put("id", t.id());
    json.put("name", t.name());
    json.put("path", t.path());
    json.put("format", t.format());
    json.put("start", t.start());
    json.put("origin", t.origin());
    json.put("end", t.end());
    json.put("unit", t.unit());
    return json;
  }

  /** A breakpoint row: p, the partition's size, gain and loss, and both as fractions at p = 1. */
  static ObjectNode breakpoint(Breakpoint b, Partition last) {
    Partition partition = b.partition();
    ObjectNode row = object();
    row.put("p", b.p());
    row.put("partCount", partition.size());
    row.put("gain", partition.gain());
    row.put("loss", partition.loss());
    row.put("gainFraction", Breakpoint.fraction(partition.gain(), last.gain()));
    row.put("lossFraction", Breakpoint.fraction(partition.loss(), last.loss()));
    return row;
  }

  /** {@link #breakpoint(Breakpoint, Partition)} written to a generator. */
  private static void breakpoint(Breakpoint b, Partition last, JsonGenerator row) throws IOException {
    Partition partition = b.partition();
    row.writeStartObject();
    row.writeNumberField("p", b.p());
    row.writeNumberField("partCount", partition.size());
    row.writeNumberField("gain", partition.gain());
    row.writeNumberField("loss", partition.loss());
    row.writeNumberField("gainFraction", Breakpoint.fraction(partition.gain(), last.gain()));
    row.writeNumberField("lossFraction", Breakpoint.fraction(partition.loss(), last.loss()));
    row.writeEndObject();
  }

  /** The breakpoint table alone: {@code {"breakpoints": [row, …]}}. */
  public static ObjectNode breakpoints(Analysis a) {
    List<Breakpoint> all = a.breakpoints();
    Partition last = all.get(all.size() - 1).partition();
    ObjectNode json = object();
    ArrayNode rows = json.putArray("breakpoints");
    for (Breakpoint b : all) {
      rows.add(breakpoint(b, last));
    }
    return json;
  }

  /** One part: its window in time and slices, its producer node (not in temporal aggregation), mode and shares. */
  private static void part(BuiltModel built, Aggregation aggregation, Part part, JsonGenerator json)
      throws IOException {
    MicroscopicModel model = built.model();
    ProducerTree tree = model.tree();
    int leaves = tree.leafCount(part.node());
    double[] sums = PartSums.of(model, part);
    double total = 0;
    int mode = -1;
    for (int u = 0; u < sums.length; u++) {
      total += sums[u];
      if (sums[u] > 0 && (mode < 0 || sums[u] > sums[mode])) {
        mode = u;
      }
    }
    json.writeStartObject();
    json.writeNumberField("start", built.grid().boundary(part.first()));
    json.writeNumberField("end", built.grid().boundary(part.last() + 1));
    json.writeNumberField("firstSlice", part.first());
    json.writeNumberField("lastSlice", part.last());
    if (aggregation != Aggregation.TEMPORAL) {
      json.writeStringField("producer", tree.name(part.node()));
      json.writeNumberField("leaves", leaves);
    }
    json.writeStringField("mode", mode < 0 ? null : model.types().get(mode));
    json.writeObjectFieldStart("proportions");
    for (int u = 0; u < sums.length; u++) {
      if (sums[u] > 0) {
        json.writeNumberField(model.types().get(u), sums[u] / total);
      }
    }
    json.writeEndObject();
    json.writeEndObject();
  }

  static ObjectNode curves(QualityCurves c) {
    ObjectNode json = object();
    json.put("p", c.p());
    json.put("chosen", c.chosen());
    json.put("gainAtOne", c.gainAtOne());
    json.put("lossAtOne", c.lossAtOne());
    ArrayNode ps = json.putArray("breakpoints");
    c.breakpoints().forEach(ps::add);
    json.set("gain", steps(c.gain()));
    json.set("loss", steps(c.loss()));
    return json;
  }

  private static ArrayNode steps(List<QualityCurves.Step> steps) {
    ArrayNode array = NODES.arrayNode();
    for (QualityCurves.Step s : steps) {
      array.addObject().put("from", s.from()).put("to", s.to()).put("value", s.value());
    }
    return array;
  }

  /** The geometry of a view (docs/views.md): window, legend, producer axis, blocks in [0, 1]². */
  static ObjectNode overview(Overview o) {
    ObjectNode json = object();
    json.put("view", o.view().name());
    json.put("aggregation", o.view().aggregation());
    json.put("start", o.window().start());
    json.put("end", o.window().end());
    json.put("unit", o.window().unit());
    json.put("leaves", o.leaves());
    json.put("slices", o.slices());
    json.put("valueMax", o.valueMax());
    ArrayNode legend = json.putArray("legend");
    for (LegendEntry e : o.legend()) {
      legend.addObject().put("type", e.type()).put("name", e.name()).put("colour", e.colour());
    }
    ArrayNode producers = json.putArray("producers");
    for (AxisNode a : o.producers()) {
      producers.addObject().put("node", a.node()).put("name", a.name()).put("depth", a.depth())
          .put("y0", a.y0()).put("y1", a.y1()).put("leaves", a.leaves()).put("row", a.row())
          .put("collapsed", a.collapsed()).put("mark", a.mark().name());
    }
    json.putPOJO("blocks", streamedValue(out -> {
      out.writeStartArray();
      for (Block b : o.blocks()) {
        block(b, out);
      }
      out.writeEndArray();
    }));
    return json;
  }

  private static void block(Block b, JsonGenerator json) throws IOException {
    json.writeStartObject();
    json.writeNumberField("x0", b.x0());
    json.writeNumberField("y0", b.y0());
    json.writeNumberField("x1", b.x1());
    json.writeNumberField("y1", b.y1());
    json.writeStringField("colour", b.colour());
    json.writeNumberField("opacity", b.opacity());
    json.writeStringField("mark", b.mark().name());
    json.writeNumberField("node", b.node());
    json.writeNumberField("first", b.first());
    json.writeNumberField("last", b.last());
    json.writeNumberField("part", b.part());
    json.writeNumberField("type", b.type());
    Tooltip t = b.tooltip();
    json.writeObjectFieldStart("tooltip");
    json.writeNumberField("start", t.start());
    json.writeNumberField("end", t.end());
    json.writeStringField("unit", t.unit());
    json.writeStringField("producer", t.producer());
    json.writeNumberField("leaves", t.leaves());
    json.writeNumberField("slices", t.slices());
    json.writeNumberField("hiddenParts", t.hiddenParts());
    json.writeArrayFieldStart("types");
    for (TypeShare s : t.types()) {
      json.writeStartObject();
      json.writeStringField("type", s.type());
      json.writeNumberField("value", s.value());
      json.writeNumberField("share", s.share());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("merged");
    for (String name : t.merged()) {
      json.writeString(name);
    }
    json.writeEndArray();
    json.writeEndObject();
    json.writeEndObject();
  }

  // ---- what the aggregates hide -------------------------------------------------------------

  /**
   * The model and partition in a few fields, {@code count} (how many deviating cells the parts
   * hide), {@code hidden} (how many of them are worth telling apart at p) and {@code outliers}: the
   * first {@code limit} of {@code kind} {@code who} (a subtree below its part's producers), then the
   * first {@code limit} of {@code kind} {@code when} (a stretch of its part's producers), each
   * highest score first (decision 061), each with its place in [0, 1]² of the overview (x across
   * the window, y down the leaves). Led, where the links name who the states cannot, by the
   * producers behind that link ({@code link}, its {@code use}, the {@code othersUse} of the other
   * links, its own {@code useElsewhere} in the window; score and worthUpTo in the links' model; no
   * type or shares).
   */
  static ObjectNode outliers(OutliersResult r) {
    OutliersResult.Shown shown = r.shown();
    BuiltModel built = shown.built();
    MicroscopicModel model = built.model();
    ProducerTree tree = model.tree();
    ObjectNode json = object();
    json.set("trace", shown.trace() == null ? NODES.nullNode() : trace(shown.trace()));
    json.put("metric", built.metric() == null ? null : built.metric().cliName());
    if (built.time() != null) { // a state metric's: exclusive or inclusive time
      json.put("time", built.time());
    }
    json.put("aggregation", name(shown.aggregation()));
    TimeScale scale = shown.timeScale();
    timeScale(json, scale);
    json.put("start", built.grid().start());
    json.put("end", built.grid().end());
    json.put("slices", model.slices());
    json.put("leaves", model.leaves());
    json.put("p", shown.p());
    if (Double.isNaN(shown.defaultP())) {
      json.putNull("defaultP");
    } else {
      json.put("defaultP", shown.defaultP());
    }
    json.put("partCount", shown.partition().size());
    json.put("count", r.outliers().size());
    json.put("hidden", r.hidden());
    ArrayNode list = json.putArray("outliers");
    OutliersResult.ByLink byLink = r.byLink();
    if (byLink != null) {
      org.ocelotl.aggregation.Outlier o = byLink.cell();
      int firstLeaf = tree.firstLeaf(byLink.site());
      list.addObject().put("producer", tree.path(byLink.site())).put("node", byLink.site()).put("kind", "who")
          .put("leaves", tree.leafCount(byLink.site())).put("start", built.grid().boundary(o.first()))
          .put("end", built.grid().boundary(o.last() + 1)).put("firstSlice", o.first()).put("lastSlice", o.last())
          .put("link", byLink.link()).put("score", o.score()).put("worthUpTo", o.worthUpTo())
          .put("use", byLink.use()).put("othersUse", byLink.othersUse())
          .put("useElsewhere", byLink.useElsewhere())
          .put("x0", (double) o.first() / model.slices()).put("x1", (double) (o.last() + 1) / model.slices())
          .put("y0", (double) firstLeaf / model.leaves())
          .put("y1", (double) (firstLeaf + tree.leafCount(byLink.site())) / model.leaves());
    }
    for (org.ocelotl.aggregation.Outlier o : r.listed()) {
      int firstLeaf = tree.firstLeaf(o.node());
      list.addObject().put("producer", tree.path(o.node())).put("node", o.node())
          .put("kind", OutliersResult.kind(o, shown.partition())).put("leaves", tree.leafCount(o.node()))
          .put("start", built.grid().boundary(o.first()))
          .put("end", built.grid().boundary(o.last() + 1)).put("firstSlice", o.first()).put("lastSlice", o.last())
          .put("part", o.part()).put("score", o.score()).put("worthUpTo", o.worthUpTo())
          .put("type", model.types().get(o.type())).put("cellShare", o.cellShare()).put("partShare", o.partShare())
          .put("x0", (double) o.first() / model.slices()).put("x1", (double) (o.last() + 1) / model.slices())
          .put("y0", (double) firstLeaf / model.leaves())
          .put("y1", (double) (firstLeaf + tree.leafCount(o.node())) / model.leaves());
    }
    return json;
  }

  // ---- two runs compared ---------------------------------------------------------------------

  /**
   * The difference overview's analysis result, with {@code compare} (both traces, the align, the
   * windows compared in each run's time, the durations, the producers of one run only, the overall
   * departure) and {@code differences}: the first {@code limit}, highest score first, times in
   * OTHER's time.
   */
  static ObjectNode compare(CompareResult r) {
    ObjectNode json = result(r.overview());
    ObjectNode compare = json.putObject("compare");
    compare.set("base", trace(r.base()));
    compare.set("other", trace(r.other()));
    compare.put("align", r.request().align().word());
    compare.putArray("baseWindow").add(r.baseWindow()[0]).add(r.baseWindow()[1]);
    compare.putArray("otherWindow").add(r.otherWindow()[0]).add(r.otherWindow()[1]);
    compare.put("baseDuration", r.baseDuration());
    compare.put("otherDuration", r.otherDuration());
    ArrayNode onlyInBase = compare.putArray("onlyInBase");
    r.difference().onlyInBase().forEach(onlyInBase::add);
    ArrayNode onlyInOther = compare.putArray("onlyInOther");
    r.difference().onlyInOther().forEach(onlyInOther::add);
    compare.put("departure", r.departure());
    compare.put("count", r.count());
    ArrayNode differences = json.putArray("differences");
    if (r.site() != null) {
      site(r, differences.addObject());
    }
    differences(r, differences);
    if (r.links() != null) {
      ObjectNode links = json.putObject("links");
      links.put("metric", r.links().overview().analysis().built().metric().cliName());
      ArrayNode types = links.putArray("types");
      AnalysisService.LINKS.forEach(types::add);
      links.put("p", r.links().overview().p());
      links.put("count", r.links().changes().size());
      differences(r.links(), links.putArray("differences"));
    }
    return json;
  }

  /**
   * The site behind the link that departs first (decision 060): the site's producer and extent in
   * the states' tree, the link difference's window, score and type shares, and what found it
   * ({@code by}: the link; {@code metric}: the links' comparison's).
   */
  private static void site(CompareResult r, ObjectNode entry) {
    ProducerTree tree = r.difference().model().tree();
    CompareResult.LinkSite site = r.site();
    org.ocelotl.compare.Differences.Change c = site.change();
    BuiltModel links = r.links().overview().analysis().built();
    int slices = links.model().slices();
    int firstLeaf = tree.firstLeaf(site.node());
    int leaves = tree.leafCount();
    entry.put("kind", "link").put("producer", tree.path(site.node())).put("node", site.node())
        .put("leaves", tree.leafCount(site.node())).put("by", site.link()).put("metric", links.metric().cliName())
        .put("start", links.grid().boundary(c.first())).put("end", links.grid().boundary(c.last() + 1))
        .put("firstSlice", c.first()).put("lastSlice", c.last()).put("score", c.score())
        .put("departure", c.departure()).put("type", r.links().difference().types().get(c.type()))
        .put("baseShare", c.baseShare()).put("otherShare", c.otherShare())
        .put("x0", (double) c.first() / slices).put("x1", (double) (c.last() + 1) / slices)
        .put("y0", (double) firstLeaf / leaves).put("y1", (double) (firstLeaf + tree.leafCount(site.node())) / leaves);
  }

  /** The listed differences of a comparison, each with its producer, window, score and type shares. */
  private static void differences(CompareResult r, ArrayNode list) {
    BuiltModel built = r.overview().analysis().built();
    MicroscopicModel model = built.model();
    ProducerTree tree = model.tree();
    for (org.ocelotl.compare.Differences.Change c : r.listed()) {
      int firstLeaf = tree.firstLeaf(c.node());
      list.addObject().put("kind", c.kind().name().toLowerCase(java.util.Locale.ROOT))
          .put("producer", tree.path(c.node())).put("node", c.node()).put("leaves", tree.leafCount(c.node()))
          .put("start", built.grid().boundary(c.first())).put("end", built.grid().boundary(c.last() + 1))
          .put("firstSlice", c.first()).put("lastSlice", c.last()).put("score", c.score())
          .put("departure", c.departure()).put("type", r.difference().types().get(c.type()))
          .put("baseShare", c.baseShare()).put("otherShare", c.otherShare())
          .put("x0", (double) c.first() / model.slices()).put("x1", (double) (c.last() + 1) / model.slices())
          .put("y0", (double) firstLeaf / model.leaves())
          .put("y1", (double) (firstLeaf + tree.leafCount(c.node())) / model.leaves());
    }
  }

  // ---- spatial views ---------------------------------------------------------------------

  /** The analysis result (spatial, no overview) with the treemap: cells in [0, 1]², cut, legend, note. */
  static ObjectNode treemapResult(TreemapResult r) {
    ObjectNode json = result(r.result());
    Treemap t = r.treemap();
    ObjectNode treemap = json.putObject("treemap");
    treemap.put("start", t.window().start());
    treemap.put("end", t.window().end());
    treemap.put("unit", t.window().unit());
    treemap.put("slices", t.slices());
    treemap.put("firstSlice", t.firstSlice());
    treemap.put("lastSlice", t.lastSlice());
    treemap.put("stepStart", t.window().sliceStart(t.firstSlice(), t.slices()));
    treemap.put("stepEnd", t.window().sliceStart(t.lastSlice() + 1, t.slices()));
    treemap.put("depth", r.request().depth());
    treemap.put("width", r.request().width());
    treemap.put("height", r.request().height());
    treemap.put("total", t.total());
    treemap.put("note", t.note());
    ArrayNode cut = treemap.putArray("cut");
    t.cut().forEach(cut::add);
    ArrayNode legend = treemap.putArray("legend");
    for (LegendEntry e : t.legend()) {
      legend.addObject().put("type", e.type()).put("name", e.name()).put("colour", e.colour());
    }
    hidden(treemap, r.hidden(), r.result());
    ArrayNode cells = treemap.putArray("cells");
    for (TreemapCell c : t.cells()) {
      ObjectNode cell = cells.addObject();
      cell.put("node", c.node()).put("name", c.name()).put("path", c.path()).put("depth", c.depth())
          .put("kind", c.kind().name()).put("x0", c.x0()).put("y0", c.y0()).put("x1", c.x1()).put("y1", c.y1())
          .put("value", c.value()).put("leaves", c.leaves()).put("hidden", c.hidden()).put("mode", c.mode())
          .put("colour", c.colour()).put("opacity", c.opacity());
      ArrayNode types = cell.putArray("types");
      for (TypeShare s : c.types()) {
        types.addObject().put("type", s.type()).put("value", s.value()).put("share", s.share());
      }
    }
    return json;
  }

  /** The analysis result (spatial, no overview) with the graph: nodes at [0, 1]² positions, edges, note. */
  static ObjectNode topologyResult(TopologyResult r) {
    ObjectNode json = result(r.result());
    Topology t = r.topology();
    ObjectNode topology = json.putObject("topology");
    topology.put("start", r.start());
    topology.put("end", r.end());
    topology.put("depth", r.request().depth());
    ArrayNode toggles = topology.putArray("toggles");
    r.request().toggles().forEach(toggles::add);
    topology.put("capacities", t.capacities());
    topology.put("labelHeight", t.labelHeight());
    topology.put("note", t.note());
    ArrayNode nodes = topology.putArray("nodes");
    for (Topology.Node n : t.nodes()) {
      nodes.addObject().put("node", n.node()).put("name", n.name()).put("path", n.path()).put("kind", n.kind())
          .put("shape", n.shape().name()).put("aggregate", n.aggregate()).put("members", n.members())
          .put("x", n.x()).put("y", n.y()).put("size", n.size()).put("capacityVariable", n.capacityVariable())
          .put("useVariable", n.useVariable()).put("capacity", n.capacity()).put("use", n.use()).put("fill", n.fill())
          .put("overCapacity", n.overCapacity()).put("labelled", n.labelled()).put("labelX", n.labelX())
          .put("labelY", n.labelY());
    }
    hidden(topology, r.hidden(), r.result());
    ArrayNode edges = topology.putArray("edges");
    for (Topology.Edge e : t.edges()) {
      edges.addObject().put("a", e.a()).put("b", e.b()).put("topology", e.topology()).put("messages", e.messages())
          .put("volume", e.volume());
    }
    return json;
  }

  /**
   * What a spatial view's shown nodes hide, as {@code hiddenNodes}: {@code count} (how many
   * departing nodes), {@code hidden} (how many are worth telling apart at p) and {@code outliers},
   * the first {@link HiddenNodes#LISTED}, highest score first, each with its {@code producer} and
   * the shown node it is merged into ({@code aggregate}) — the names of {@code ocelotl outliers}.
   */
  private static void hidden(ObjectNode view, HiddenNodes h, AnalysisResult result) {
    BuiltModel built = result.analysis().built();
    MicroscopicModel model = built.model();
    ProducerTree tree = model.tree();
    ObjectNode json = view.putObject("hiddenNodes");
    json.put("count", h.outliers().size());
    json.put("hidden", OutliersResult.hiddenAt(h.outliers(), result.p()));
    ArrayNode list = json.putArray("outliers");
    for (org.ocelotl.aggregation.Outlier o : h.listed()) {
      int aggregate = h.shown().get(o.part()).node();
      list.addObject().put("producer", tree.path(o.node())).put("node", o.node()).put("leaves", tree.leafCount(o.node()))
          .put("aggregate", tree.path(aggregate)).put("aggregateNode", aggregate)
          .put("start", built.grid().boundary(o.first())).put("end", built.grid().boundary(o.last() + 1))
          .put("score", o.score()).put("worthUpTo", o.worthUpTo()).put("type", model.types().get(o.type()))
          .put("cellShare", o.cellShare()).put("partShare", o.partShare());
    }
  }

  private static String name(Aggregation aggregation) {
    return aggregation.name().toLowerCase(Locale.ROOT);
  }
}
