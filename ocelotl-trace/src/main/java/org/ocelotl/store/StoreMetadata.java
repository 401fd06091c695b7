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
 * @param end       trace end, in {@code timeUnit}
 * @param counts    records per category, indexed by {@link EventCategory#ordinal()}
 * @param producers indexed by producer id
 * @param types     indexed by event type id
 * @param warnings  what the reader accepted that a strict reader would refuse
 * @param chunkCapacity records per full chunk
 */
public record StoreMetadata(Source source, double start, double end, String timeUnit,
    long[] counts, List<Producer> producers, List<EventType> types, List<String> warnings,
    int chunkCapacity) {

  /**
   * The file the store was imported from, as it was then.
   *
   * @param modified    last-modified time in milliseconds since the epoch
   * @param fingerprint hash of the first and last bytes of the file (see {@link SourceFile})
   * @param format      name of the format it was read as
   */
  public record Source(String path, long size, long modified, String fingerprint, String format) {}

  /**
   * @param parent    producer id of the parent, -1 for the root
   * @param destroyed NaN when the trace never destroys it
   * @param emits     whether records of this producer exist (a non-leaf producer that emits
   *                  gets a synthetic leaf in {@link TraceStore#tree()})
   */
  public record Producer(int id, String name, String kind, int parent, double created,
      double destroyed, boolean emits) {}

  /** @param count records of this type */
  public record EventType(int id, String name, EventCategory category, String group, String color,
      long count) {}

  public long count(EventCategory category) {
    return counts[category.ordinal()];
  }

  /** The name people know the trace by: its file name. */
  public String name() {
    return Path.of(source.path()).getFileName().toString();
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
    json.put("end", end);
    json.put("unit", timeUnit);
    Map<String, Object> countMap = new LinkedHashMap<>();
    for (EventCategory category : EventCategory.values()) {
      countMap.put(categoryName(category), counts[category.ordinal()]);
    }
    json.put("counts", countMap);
    json.put("chunkCapacity", (long) chunkCapacity);
    List<Object> producerRows = new ArrayList<>();
    for (Producer p : producers) {
      producerRows.add(Arrays.asList(p.id(), p.name(), p.kind(), p.parent(), nullable(p.created()),
          nullable(p.destroyed()), p.emits()));
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

  /** The plural name people and the JSON use for a category: states, events, variables, links. */
  public static String categoryName(EventCategory category) {
    return switch (category) {
      case STATE -> "states";
      case EVENT -> "events";
      case VARIABLE -> "variables";
      case LINK -> "links";
    };
  }

  static EventCategory category(String name) {
    for (EventCategory category : EventCategory.values()) {
      if (categoryName(category).equals(name)) {
        return category;
      }
    }
    throw new IllegalArgumentException("unknown category " + name);
  }

  /** Reads what {@link #toJson} wrote; any surprise is a {@link StoreFormatException}. */
  static StoreMetadata fromJson(Path file, Object parsed) throws StoreFormatException {
    try {
      Map<?, ?> json = (Map<?, ?>) parsed;
      if (!StoreLayout.METADATA_FORMAT.equals(json.get("format"))) {
        throw new StoreFormatException(file, "format", StoreLayout.METADATA_FORMAT, String.valueOf(json.get("format")));
      }
      long version = ((Number) json.get("version")).longValue();
      if (version != StoreLayout.VERSION) {
        throw new StoreFormatException(file, "format version", String.valueOf(StoreLayout.VERSION), String.valueOf(version));
      }
      Map<?, ?> src = (Map<?, ?>) json.get("source");
      Source source = new Source((String) src.get("path"), number(src.get("size")).longValue(),
          number(src.get("modified")).longValue(), (String) src.get("fingerprint"), (String) src.get("format"));
      Map<?, ?> countMap = (Map<?, ?>) json.get("counts");
      long[] counts = new long[EventCategory.values().length];
      for (EventCategory category : EventCategory.values()) {
        counts[category.ordinal()] = number(countMap.get(categoryName(category))).longValue();
      }
      List<Producer> producers = new ArrayList<>();
      for (Object item : (List<?>) json.get("producers")) {
        List<?> row = (List<?>) item;
        producers.add(new Producer(number(row.get(0)).intValue(), (String) row.get(1), (String) row.get(2),
            number(row.get(3)).intValue(), orNaN(row.get(4)), orNaN(row.get(5)), (Boolean) row.get(6)));
      }
      List<EventType> types = new ArrayList<>();
      for (Object item : (List<?>) json.get("types")) {
        List<?> row = (List<?>) item;
        types.add(new EventType(number(row.get(0)).intValue(), (String) row.get(1), category((String) row.get(2)),
            (String) row.get(3), (String) row.get(4), number(row.get(5)).longValue()));
      }
      List<String> warnings = new ArrayList<>();
      for (Object item : (List<?>) json.get("warnings")) {
        warnings.add((String) item);
      }
      return new StoreMetadata(source, orNaN(json.get("start")), orNaN(json.get("end")), (String) json.get("unit"),
          counts, List.copyOf(producers), List.copyOf(types), List.copyOf(warnings),
          number(json.get("chunkCapacity")).intValue());
    } catch (ClassCastException | NullPointerException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new StoreFormatException(file, "metadata", "the fields version " + StoreLayout.VERSION + " writes",
          "a missing or mistyped field (" + e.getMessage() + ")");
    }
  }

  private static Number number(Object value) {
    return (Number) value;
  }

  private static double orNaN(Object value) {
    return value == null ? Double.NaN : ((Number) value).doubleValue();
  }
}
