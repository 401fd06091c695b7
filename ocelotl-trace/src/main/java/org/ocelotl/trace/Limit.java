package org.ocelotl.trace;

/**
 * What a trace may make the importer hold, bounded so that a broken or hostile file is refused
 * with a message instead of exhausting memory or the stack (docs/reliability.md lists them). Each
 * is raised with a Java system property, {@code OCELOTL_JAVA_OPTS=-Dname=N}, read when an import
 * starts.
 */
public enum Limit {
  /** A line of a text trace (Pajé, pj_dump CSV). */
  LINE_BYTES("ocelotl.maxLineBytes", 64L << 20, "bytes in a line"),
  /** How much larger than its file a gzip'd trace may expand (Pajé text compresses 10 to 50×). */
  GZIP_RATIO("ocelotl.gzip.maxRatio", 1000, "times its file's size once decompressed"),
  /** Nesting of JSON arrays and objects (Chrome's Trace Event args hold a few levels). */
  JSON_NESTING("ocelotl.maxJsonNesting", 200, "levels of JSON nesting"),
  /** A JSON string: a name, category or argument. */
  JSON_STRING_BYTES("ocelotl.maxJsonStringBytes", 1 << 20, "characters in a JSON string"),
  /** Producers (containers, processes, threads, locations) of one trace. */
  PRODUCERS("ocelotl.maxProducers", 1_000_000, "producers"),
  /** Event types of one trace (state values, event, variable and link types). */
  TYPES("ocelotl.maxTypes", 100_000, "event types"),
  /** Nesting of types in a CTF trace's metadata (structs in structs, arrays of arrays). */
  TYPE_NESTING("ocelotl.maxTypeNesting", 100, "levels of nested types"),
  /**
   * A packet of a CTF stream file or of a Perfetto trace, held whole while its events are decoded
   * (LTTng writes 4 KiB to a few MiB; Perfetto's packets are mostly under 1 MiB).
   */
  PACKET_BYTES("ocelotl.maxPacketBytes", 256L << 20, "bytes in a packet"),
  /**
   * How much larger than its file a Perfetto trace's compressed packets may inflate, all of them
   * together (Perfetto's zlib'd packets compress 5 to 20×); never less than 64 MiB.
   */
  INFLATION_RATIO("ocelotl.perfetto.maxRatio", 100, "times the file's size once its compressed packets are inflated"),
  /** Depth of the producer tree (the root at depth 0). */
  TREE_DEPTH("ocelotl.maxTreeDepth", 1_000, "levels of producer tree");

  private final String property;
  private final long fallback;
  private final String unit;

  Limit(String property, long fallback, String unit) {
    this.property = property;
    this.fallback = fallback;
    this.unit = unit;
  }

  /** The limit now: the property's value when set to a positive number, else the default. */
  public long value() {
    long set = Long.getLong(property, fallback);
    return set > 0 ? set : fallback;
  }

  public String property() {
    return property;
  }

  public long defaultValue() {
    return fallback;
  }

  /** "more than 1,000,000 producers (limit ocelotl.maxProducers; raise it with …)". */
  public String exceeded() {
    return exceeded(value());
  }

  /** {@link #exceeded()} for the limit as an import read it when it started. */
  public String exceeded(long limit) {
    return String.format("more than %,d %s: not a trace this tool expects; if it is one, raise the limit with "
        + "OCELOTL_JAVA_OPTS=-D%s=N", limit, unit, property);
  }
}
