package org.ocelotl.parquet;

import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.ocelotl.model.EventCategory;

/**
 * The tables of a trace's Parquet dataset, one directory each, and their columns: owned here and
 * nowhere else (docs/scale-out.md describes them for people). Record tables keep the store's
 * values as they are — times are the store's doubles in the trace's unit (said in every file's
 * key-value metadata and in dataset.json), ids the store's ids — so a model built from the
 * dataset is the model built from the store.
 *
 * <p>Column names avoid SQL keywords ({@code end}, {@code from}, {@code to}, {@code group}) so
 * that DuckDB, Spark SQL and pandas users need no quoting.
 */
public enum ParquetTable {
  STATES("states", Types.buildMessage()
      .required(PrimitiveTypeName.DOUBLE).named(Columns.START)
      .required(PrimitiveTypeName.DOUBLE).named(Columns.END)
      .required(PrimitiveTypeName.INT32).named(Columns.PRODUCER)
      .required(PrimitiveTypeName.INT32).named(Columns.TYPE)
      .required(PrimitiveTypeName.INT32).named(Columns.DEPTH)
      .required(PrimitiveTypeName.INT32).named(Columns.OUTER)
      .named("state")),
  EVENTS("events", Types.buildMessage()
      .required(PrimitiveTypeName.DOUBLE).named(Columns.TIME)
      .required(PrimitiveTypeName.INT32).named(Columns.PRODUCER)
      .required(PrimitiveTypeName.INT32).named(Columns.TYPE)
      .named("event")),
  VARIABLES("variables", Types.buildMessage()
      .required(PrimitiveTypeName.DOUBLE).named(Columns.START)
      .required(PrimitiveTypeName.DOUBLE).named(Columns.END)
      .required(PrimitiveTypeName.DOUBLE).named(Columns.VALUE)
      .required(PrimitiveTypeName.INT32).named(Columns.PRODUCER)
      .required(PrimitiveTypeName.INT32).named(Columns.TYPE)
      .named("variable")),
  LINKS("links", Types.buildMessage()
      .required(PrimitiveTypeName.DOUBLE).named(Columns.START)
      .required(PrimitiveTypeName.DOUBLE).named(Columns.END)
      .optional(PrimitiveTypeName.DOUBLE).named(Columns.VOLUME)
      .required(PrimitiveTypeName.INT32).named(Columns.TYPE)
      .required(PrimitiveTypeName.INT32).named(Columns.FROM)
      .required(PrimitiveTypeName.INT32).named(Columns.TO)
      .named("link")),
  PRODUCERS("producers", Types.buildMessage()
      .required(PrimitiveTypeName.INT32).named(Columns.ID)
      .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.NAME)
      .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.PATH)
      .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.KIND)
      .optional(PrimitiveTypeName.INT32).named(Columns.PARENT)
      .optional(PrimitiveTypeName.DOUBLE).named(Columns.CREATED)
      .optional(PrimitiveTypeName.DOUBLE).named(Columns.DESTROYED)
      .named("producer")),
  TYPES("types", Types.buildMessage()
      .required(PrimitiveTypeName.INT32).named(Columns.ID)
      .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.NAME)
      .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.CATEGORY)
      .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.GROUP)
      .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(Columns.COLOR)
      .required(PrimitiveTypeName.INT64).named(Columns.COUNT)
      .named("type"));

  /**
   * The store's metadata file, copied as it is: what Ocelotl's own tools read back (ocelotl-spark
   * plans a model on it exactly as on the store). Its producers and types are positional arrays:
   * people and other tools read {@link #DATASET_FILE}.
   */
  public static final String METADATA_FILE = "metadata.json";

  /** The dataset described by named fields for people and other tools ({@link DatasetDescription}). */
  public static final String DATASET_FILE = "dataset.json";

  /**
   * The version of the dataset's layout (tables, columns, {@link #DATASET_FILE}): 1 since the time
   * unit, the singular category names and dataset.json (docs/scale-out.md); 2 since the states'
   * outer type (exclusive time, decision 037).
   */
  public static final int VERSION = 2;

  /** Key-value metadata of every Parquet file: the layout's version, and the unit of its times. */
  public static final String VERSION_KEY = "ocelotl.dataset.version";
  public static final String TIME_UNIT_KEY = "ocelotl.time_unit";
  public static final String SECONDS_PER_UNIT_KEY = "ocelotl.seconds_per_unit";

  /** Column names. */
  public static final class Columns {
    public static final String START = "start_time";
    public static final String END = "end_time";
    public static final String TIME = "time";
    public static final String VALUE = "value";
    public static final String VOLUME = "volume";
    public static final String PRODUCER = "producer";
    public static final String TYPE = "type";
    public static final String DEPTH = "depth";
    /** The type of the state a state lies in, -1 for none (the store's outer type, decision 037). */
    public static final String OUTER = "outer_type";
    public static final String FROM = "from_producer";
    public static final String TO = "to_producer";
    public static final String ID = "id";
    public static final String NAME = "name";
    public static final String PATH = "path";
    public static final String KIND = "kind";
    public static final String PARENT = "parent";
    public static final String CREATED = "created";
    public static final String DESTROYED = "destroyed";
    public static final String CATEGORY = "category";
    public static final String GROUP = "type_group";
    public static final String COLOR = "color";
    public static final String COUNT = "count";

    private Columns() {}
  }

  private final String directory;
  private final MessageType schema;

  ParquetTable(String directory, MessageType schema) {
    this.directory = directory;
    this.schema = schema;
  }

  /** The table's directory under the dataset's root. */
  public String directory() {
    return directory;
  }

  public MessageType schema() {
    return schema;
  }

  /** The column names, in schema order. */
  public List<String> columns() {
    return schema.getFields().stream().map(f -> f.getName()).toList();
  }

  /** A category as the types table, dataset.json and {@code --kind} spell it: state, event, variable, link. */
  public static String kind(EventCategory category) {
    return category.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The table of a category's records. */
  public static ParquetTable of(EventCategory category) {
    return switch (category) {
      case STATE -> STATES;
      case EVENT -> EVENTS;
      case VARIABLE -> VARIABLES;
      case LINK -> LINKS;
    };
  }
}
