package org.ocelotl.parquet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ocelotl.model.EventCategory;
import org.ocelotl.store.StoreMetadata;
import org.ocelotl.view.TimeScale;

/**
 * {@value ParquetTable#DATASET_FILE}: a Parquet dataset described by named fields, for people and
 * for tools that are not Ocelotl (pandas, DuckDB, Spark SQL). Every field is documented in
 * docs/scale-out.md; the layout has a format name and a version ({@link ParquetTable#VERSION}).
 * Categories are spelled as {@code --kind} spells them (state, event, variable, link).
 */
public final class DatasetDescription {
  /** The value of the "format" field. */
  public static final String FORMAT = "ocelotl-parquet-dataset";

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private DatasetDescription() {}

  /** The file's text for a trace of this metadata. */
  public static String json(StoreMetadata m) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("version", ParquetTable.VERSION);
    root.put("trace", m.name());
    root.put("source_format", m.source().format());
    root.put("time_unit", m.timeUnit());
    double seconds = TimeScale.secondsPerUnit(m.timeUnit());
    if (Double.isNaN(seconds)) {
      root.putNull("seconds_per_unit");
    } else {
      root.put("seconds_per_unit", seconds);
    }
    root.put("start", m.start());
    root.put("end", m.end());
    root.set("counts", counts(m.counts()));
    root.put("link_volumes", m.linkVolumes());
    ObjectNode tables = root.putObject("tables");
    for (ParquetTable table : ParquetTable.values()) {
      ArrayNode columns = tables.putArray(table.directory());
      table.columns().forEach(columns::add);
    }
    ArrayNode producers = root.putArray("producers");
    for (StoreMetadata.Producer p : m.producers()) {
      ObjectNode producer = producers.addObject();
      producer.put("id", p.id());
      producer.put("name", p.name());
      producer.put("path", m.path(p.id()));
      producer.put("kind", p.kind());
      if (p.parent() >= 0) {
        producer.put("parent", p.parent());
      } else {
        producer.putNull("parent");
      }
      number(producer, "created", p.created());
      number(producer, "destroyed", p.destroyed());
      producer.set("counts", counts(p.counts()));
    }
    ArrayNode types = root.putArray("types");
    for (StoreMetadata.EventType t : m.types()) {
      ObjectNode type = types.addObject();
      type.put("id", t.id());
      type.put("name", t.name());
      type.put("category", ParquetTable.kind(t.category()));
      type.put("group", t.group());
      type.put("color", t.color());
      type.put("count", t.count());
    }
    ArrayNode warnings = root.putArray("warnings");
    m.warnings().forEach(warnings::add);
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain values always serialises", e);
    }
  }

  private static ObjectNode counts(long[] counts) {
    ObjectNode node = JSON.createObjectNode();
    for (EventCategory category : EventCategory.values()) {
      node.put(ParquetTable.kind(category), counts[category.ordinal()]);
    }
    return node;
  }

  /** NaN (the trace does not say) as null. */
  private static void number(ObjectNode node, String field, double value) {
    if (Double.isNaN(value)) {
      node.putNull(field);
    } else {
      node.put(field, value);
    }
  }
}
