package org.ocelotl.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.EventCategory;

/**
 * Everything about an imported trace except its records: kept as {@value StoreLayout#METADATA_FILE}.
 *
 * @param start     trace start, in {@code timeUnit}
 * @param origin    the time that times since the trace's start count from (the axes, a time with a
 *                  unit such as {@code 150ms}): the start, but for a part of a trace that {@code
 *                  ocelotl export} cut, the start of the trace it was cut from (decision 053), so
 *                  that its axes read as the original's did
 * @param end       trace end, in {@code timeUnit}
 * @param counts    records per category, indexed by {@link EventCategory#ordinal()}
 * @param producers indexed by producer id
 * @param types     indexed by event type id
 * @param warnings  what the reader accepted that a strict reader would refuse
 * @param chunkCapacity records per full chunk
 * @param linkVolumes   links whose trace says what they carry (Pajé Size, OTF2 message length):
 *                      the link-volume metric means something only when some do
 */
public record StoreMetadata(Source source, double start, double origin, double end, String timeUnit,
    long[] counts, List<Producer> producers, List<EventType> types, List<String> warnings,
    int chunkCapacity, long linkVolumes) {

  /**
   * The file the store was imported from, as it was then.
   *
   * @param modified    last-modified time in milliseconds since the epoch
   * @param fingerprint hash of the first and last bytes of the file (see {@link SourceFile})
   * @param format      name of the format it was read as
   */
  public record Source(String path, long size, long modified, String fingerprint, String format)
      implements java.io.Serializable {}

  /**
   * @param parent    producer id of the parent, -1 for the root
   * @param destroyed NaN when the trace never destroys it
   * @param emits     whether records of this producer exist, or links arrive at it (a non-leaf
   *                  producer that emits gets a synthetic leaf in {@link TraceStore#tree()})
   * @param counts    records of each category on this producer itself (links counted at their
   *                  start producer), indexed by {@link EventCategory#ordinal()}: a model of one
   *                  category gives an inner producer a synthetic leaf only when it has records
   *                  of that category
   */
  public record Producer(int id, String name, String kind, int parent, double created,
      double destroyed, boolean emits, long[] counts) {
    public long count(EventCategory category) {
      return counts[category.ordinal()];
    }
  }

  /** @param count records of this type */
  public record EventType(int id, String name, EventCategory category, String group, String color,
      long count) {}

  /**
   * The end of a window given no end: the trace's end, or, for a trace without duration (every
   * record at one time, said in a warning at import), one time unit after its start, so that such
   * a window is never empty.
   */
  public double windowEnd() {
    return windowEnd(start, end);
  }

  /**
   * Refuses a window that is empty or lies outside the trace: the one check of every request on a
   * window of a trace (a model, the statistics), with one message.
   */
  public void checkWindow(double from, double to) {
    String window = "[" + format(from) + ", " + format(to) + ") " + timeUnit;
    if (!(to > from)) {
      throw new IllegalArgumentException("the window " + window + " is empty: it needs from < to");
    }
    if (to <= start || from > end || (from == end && end > start)) {
      throw new IllegalArgumentException("the window " + window + " lies outside the trace, which spans ["
          + format(start) + ", " + format(end) + "] " + timeUnit);
    }
  }

  private static String format(double t) {
    return t == Math.rint(t) && Math.abs(t) < 1e15 ? String.valueOf((long) t) : String.valueOf(t);
  }

  static double windowEnd(double start, double end) {
    return end > start ? end : Math.max(start + 1, Math.nextUp(start));
  }

  public long count(EventCategory category) {
    return counts[category.ordinal()];
  }

  /** Whether a model of {@code metric} can show anything of this trace: records it reads exist. */
  public boolean offers(org.ocelotl.model.Metric metric) {
    if (metric == org.ocelotl.model.Metric.UTILIZATION) { // a capacity and its use, both with records
      return !org.ocelotl.model.Utilization.variables(recordedVariables(), List.of()).isEmpty();
    }
    return count(metric.category()) > 0 && (metric != org.ocelotl.model.Metric.LINK_VOLUME || linkVolumes > 0);
  }

  /** The names of the variables that have records (a type may be declared and never set). */
  public List<String> recordedVariables() {
    return types.stream().filter(t -> t.category() == EventCategory.VARIABLE && t.count() > 0).map(EventType::name)
        .toList();
  }

  /**
   * A producer's path as filters and tables spell it: the names from below the root joined by
   * '/' ("lyon/lyon-c1/lyon-c1-2/rank-34"); the root's is "".
   */
  public String path(int producer) {
    Producer p = producers.get(producer);
    if (p.parent() < 0) {
      return "";
    }
    String parent = path(p.parent());
    return parent.isEmpty() ? p.name() : parent + "/" + p.name();
  }

  /**
   * The name people know the trace by: its file name; for a CTF trace, whose file is always
   * called {@code metadata}, the name the trace gives itself (its root producer: the metadata's
   * {@code trace_name}, else its {@code hostname}, else its directory).
   */
  public String name() {
    if (source.format().equals("ctf") && !producers.isEmpty()) {
      return producers.get(0).name();
    }
    Path file = Path.of(source.path());
    if (source.format().equals("parquet") && file.getParent() != null) {
      return file.getParent().getFileName().toString(); // the dataset's directory, not its dataset.json
    }
    return file.getFileName().toString();
  }

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("format", StoreLayout.METADATA_FORMAT);
    json.put("version", (long) StoreLayout.VERSION);
    Map<String, Object> src = new LinkedHashMap<>();
    src.put("path", source.path());
    src.put("size", source.size());
    src.put("modified", source.modified());
    src.put("fingerprint", source.fingerprint());
    src.put("format", source.format());
    json.put("source", src);
    json.put("start", start);
    // Only where it differs from the start: every other store stays byte for byte what it was
    // (decision 053), and a reader that predates the field shows such a trace since its start.
    if (Double.compare(origin, start) != 0) {
      json.put("origin", origin);
    }
    json.put("end", end);
    json.put("unit", timeUnit);
    Map<String, Object> countMap = new LinkedHashMap<>();
    for (EventCategory category : EventCategory.values()) {
      countMap.put(categoryName(category), counts[category.ordinal()]);
    }
    json.put("counts", countMap);
    json.put("linkVolumes", linkVolumes);
    json.put("chunkCapacity", (long) chunkCapacity);
    List<Object> producerRows = new ArrayList<>();
    for (Producer p : producers) {
      producerRows.add(Arrays.asList(p.id(), p.name(), p.kind(), p.parent(), nullable(p.created()),
          nullable(p.destroyed()), p.emits(), Arrays.stream(p.counts()).boxed().toList()));
    }
    json.put("producers", producerRows);
    List<Object> typeRows = new ArrayList<>();
    for (EventType t : types) {
      List<Object> row = new ArrayList<>(List.of(t.id(), t.name(), categoryName(t.category())));
      row.add(t.group());
      row.add(t.color());
      row.add(t.count());
      typeRows.add(row);
    }
    json.put("types", typeRows);
    json.put("warnings", warnings);
    return json;
  }

  private static Object nullable(double value) {
    return Double.isNaN(value) ? null : value;
  }

  /**
   * The metadata of a store written in parts by writers that each got every producer, every event
   * type (same ids) and the trace's bounds, and some of the records (the Pajé and OTF2 imports on
   * Spark, a store per partition): record counts summed, a producer emits when it does in some part, the rest
   * from the first part; {@code warnings} (the parts', merged) kept as a writer keeps them.
   */
  public static StoreMetadata ofParts(List<StoreMetadata> parts, Source source, List<String> warnings) {
    StoreMetadata first = parts.get(0);
    long[] counts = new long[EventCategory.values().length];
    long[][] producerCounts = new long[first.producers().size()][counts.length];
    boolean[] emits = new boolean[first.producers().size()];
    long[] typeCounts = new long[first.types().size()];
    long linkVolumes = 0;
    for (StoreMetadata part : parts) {
      if (!part.producers().stream().map(p -> p.name() + '\u0000' + p.parent()).toList()
          .equals(first.producers().stream().map(p -> p.name() + '\u0000' + p.parent()).toList())
          || part.types().size() != first.types().size()) {
        throw new IllegalArgumentException("the parts of a store hold different producers or types");
      }
      for (int c = 0; c < counts.length; c++) {
        counts[c] += part.counts()[c];
      }
      for (Producer p : part.producers()) {
        emits[p.id()] |= p.emits();
        for (int c = 0; c < counts.length; c++) {
          producerCounts[p.id()][c] += p.counts()[c];
        }
      }
      for (EventType t : part.types()) {
        typeCounts[t.id()] += t.count();
      }
      linkVolumes += part.linkVolumes();
    }
    List<Producer> producers = new ArrayList<>();
    for (Producer p : first.producers()) {
      producers.add(new Producer(p.id(), p.name(), p.kind(), p.parent(), p.created(), p.destroyed(), emits[p.id()],
          producerCounts[p.id()]));
    }
    List<EventType> types = new ArrayList<>();
    for (EventType t : first.types()) {
      types.add(new EventType(t.id(), t.name(), t.category(), t.group(), t.color(), typeCounts[t.id()]));
    }
    List<String> kept = new ArrayList<>(warnings.subList(0, Math.min(warnings.size(), StoreWriter.MAX_WARNINGS)));
    if (warnings.size() > StoreWriter.MAX_WARNINGS) {
      kept.add(StoreWriter.notKept(warnings.size() - StoreWriter.MAX_WARNINGS));
    }
    return new StoreMetadata(source, first.start(), first.origin(), first.end(), first.timeUnit(), counts,
        List.copyOf(producers), List.copyOf(types), List.copyOf(kept), first.chunkCapacity(), linkVolumes);
  }

  /** The metadata file's text, as a store holds it ({@value StoreLayout#METADATA_FILE}). */
  public String json() {
    return StoreJson.pretty(toJson());
  }

  /** The plural name people and the JSON use for a category: states, events, variables, links. */
  public static String categoryName(EventCategory category) {
    return switch (category) {
      case STATE -> "states";
      case EVENT -> "events";
      case VARIABLE -> "variables";
      case LINK -> "links";
    };
  }

  /**
   * Reads a store's metadata file from its text; {@code file} names it in errors. Any surprise is a
   * {@link StoreFormatException}.
   */
  public static StoreMetadata parse(Path file, String text) throws StoreFormatException {
    Object json;
    try {
      json = StoreJson.parse(text);
    } catch (IllegalArgumentException e) {
      throw new StoreFormatException(file, "content", "JSON", e.getMessage());
    }
    return fromJson(file, json);
  }

  /**
   * Writes a small metadata to JSON and reads it back, for nothing but the classes this loads: a
   * process's first use of Jackson loads and initialises a few hundred of them, about 0.15 s of CPU
   * (docs/format-paje.md). The store writer's thread pays it while the reader fills the first
   * chunks, rather than the reader after its last record, when it would lengthen every import.
   */
  static void warmUp() throws StoreFormatException {
    long[] counts = new long[EventCategory.values().length];
    StoreMetadata sample = new StoreMetadata(new Source("/warm-up", 1, 2, "0123456789ab", "paje"), 0, 0, 1.5, "s",
        counts, List.of(new Producer(0, "0", "0", -1, 0, Double.NaN, true, counts)),
        List.of(new EventType(0, "state", EventCategory.STATE, null, "1 0 0", 0)), List.of("warning"), 1, 0);
    parse(Path.of(sample.source().path()), StoreJson.pretty(sample.toJson()));
  }

  /** Reads what {@link #toJson} wrote; any surprise is a {@link StoreFormatException}. */
  static StoreMetadata fromJson(Path file, Object parsed) throws StoreFormatException {
    Fields json = new Fields(file, "", parsed);
    String format = json.string("format", false);
    if (!StoreLayout.METADATA_FORMAT.equals(format)) {
      throw new StoreFormatException(file, "format", StoreLayout.METADATA_FORMAT, format);
    }
    long version = json.number("version").longValue();
    if (version != StoreLayout.VERSION) {
      throw new StoreFormatException(file, "format version", String.valueOf(StoreLayout.VERSION), String.valueOf(version));
    }
    Fields src = json.object("source");
    Source source = new Source(src.string("path", false), src.number("size").longValue(),
        src.number("modified").longValue(), src.string("fingerprint", false), src.string("format", false));
    Fields countFields = json.object("counts");
    long[] counts = new long[EventCategory.values().length];
    for (EventCategory category : EventCategory.values()) {
      counts[category.ordinal()] = countFields.number(categoryName(category)).longValue();
    }
    List<Producer> producers = new ArrayList<>();
    for (Fields row : json.rows("producers", 8)) {
      long[] own = new long[EventCategory.values().length];
      List<Fields> ownRows = row.rows(7, -1);
      if (ownRows.size() != own.length) {
        throw new StoreFormatException(file, "field " + row.path + "[7]", "a list of " + own.length
            + " record counts (states, events, variables, links)", ownRows.size() + " items");
      }
      for (int c = 0; c < own.length; c++) {
        own[c] = ownRows.get(c).number(-1).longValue();
      }
      producers.add(new Producer(row.number(0).intValue(), row.string(1, false), row.string(2, false),
          row.number(3).intValue(), row.numberOrNaN(4), row.numberOrNaN(5), row.bool(6), own));
    }
    List<EventType> types = new ArrayList<>();
    for (Fields row : json.rows("types", 6)) {
      String category = row.string(2, false);
      EventCategory parsedCategory = Arrays.stream(EventCategory.values())
          .filter(c -> categoryName(c).equals(category)).findFirst()
          .orElseThrow(() -> new StoreFormatException(file, "field " + row.path + "[2]",
              "states, events, variables or links", category));
      types.add(new EventType(row.number(0).intValue(), row.string(1, false), parsedCategory,
          row.string(3, true), row.string(4, true), row.number(5).longValue()));
    }
    List<String> warnings = new ArrayList<>();
    for (Fields row : json.rows("warnings", -1)) {
      warnings.add(row.string(-1, false));
    }
    double start = json.numberOrNaN("start");
    double origin = json.numberOrNaN("origin"); // absent: the start (decision 053)
    return new StoreMetadata(source, start, Double.isNaN(origin) ? start : origin, json.numberOrNaN("end"),
        json.string("unit", false), counts, List.copyOf(producers), List.copyOf(types), List.copyOf(warnings),
        json.number("chunkCapacity").intValue(), json.number("linkVolumes").longValue());
  }

  /** Typed access to parsed JSON whose errors name the field: "field producers[3][1]: expected …". */
  private static final class Fields {
    final Path file;
    final String path;
    final Object value;

    Fields(Path file, String path, Object value) {
      this.file = file;
      this.path = path;
      this.value = value;
    }

    private Object get(Object key) {
      if (key instanceof Integer i && i < 0) {
        return value;
      }
      if (key instanceof Integer i) {
        return value instanceof List<?> list && i < list.size() ? list.get(i) : null;
      }
      return value instanceof Map<?, ?> map ? map.get(key) : null;
    }

    private String name(Object key) {
      if (key instanceof Integer i) {
        return i < 0 ? path : path + "[" + i + "]";
      }
      return path.isEmpty() ? (String) key : path + "." + key;
    }

    private <T> T typed(Object key, Class<T> type, String expected, boolean nullable) throws StoreFormatException {
      Object found = get(key);
      if (found == null && nullable) {
        return null;
      }
      if (!type.isInstance(found)) {
        throw new StoreFormatException(file, "field " + name(key), expected,
            found == null ? "nothing" : StoreJson.compact(found));
      }
      return type.cast(found);
    }

    String string(Object key, boolean nullable) throws StoreFormatException {
      return typed(key, String.class, "a string", nullable);
    }

    Number number(Object key) throws StoreFormatException {
      return typed(key, Number.class, "a number", false);
    }

    double numberOrNaN(Object key) throws StoreFormatException {
      Number number = typed(key, Number.class, "a number or null", true);
      return number == null ? Double.NaN : number.doubleValue();
    }

    boolean bool(Object key) throws StoreFormatException {
      return typed(key, Boolean.class, "true or false", false);
    }

    Fields object(String key) throws StoreFormatException {
      return new Fields(file, name(key), typed(key, Map.class, "an object", false));
    }

    /** The items of a list; with {@code width} ≥ 0, each must be a list of that many items. */
    List<Fields> rows(Object key, int width) throws StoreFormatException {
      List<?> list = typed(key, List.class, "a list", false);
      List<Fields> rows = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        Fields row = new Fields(file, name(key) + "[" + i + "]", list.get(i));
        if (width >= 0 && !(list.get(i) instanceof List<?> items && items.size() == width)) {
          throw new StoreFormatException(file, "field " + row.path, "a list of " + width + " items",
              StoreJson.compact(list.get(i)));
        }
        rows.add(row);
      }
      return rows;
    }
  }
}
