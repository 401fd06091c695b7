package org.ocelotl.export;

import java.io.IOException;
import java.io.Writer;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;

/**
 * Writes a {@link SubTrace} in pj_dump's CSV layout (the rows {@code pj_dump} prints for the
 * Pajé trace {@link PajeTraceWriter} writes, and that Ocelotl's pj_dump reader imports):
 * <pre>
 * Container, PARENT, TYPE, START, END, DURATION, NAME
 * State, CONTAINER, TYPE, START, END, DURATION, IMBRICATION, VALUE
 * Event, CONTAINER, TYPE, TIME, VALUE
 * Variable, CONTAINER, TYPE, START, END, DURATION, VALUE
 * Link, CONTAINER, TYPE, START, END, DURATION, VALUE, START_CONTAINER, END_CONTAINER, KEY
 * </pre>
 * Containers first (parents first), then the records in the store's order. Numbers are written
 * with every digit (pj_dump's {@code %f} would keep six decimals).
 */
public final class PjDumpCsvWriter {
  private PjDumpCsvWriter() {}

  public static void write(SubTrace sub, Writer out) throws IOException {
    StoreMetadata m = sub.store().metadata();
    out.write(row("Container", "0", "0", num(sub.from()), num(sub.to()), num(sub.to() - sub.from()), "0"));
    for (SubTrace.Container c : sub.containers()) {
      StoreMetadata.Producer p = m.producers().get(c.producer());
      out.write(row("Container", name(sub, c.parent()), p.kind(), num(c.start()), num(c.end()),
          num(c.end() - c.start()), p.name()));
    }
    long key = 0;
    for (RecordQuery.Record r : sub.records()) {
      StoreMetadata.EventType t = m.types().get(r.type());
      String container = name(sub, r.producer());
      String duration = num(r.end() - r.start());
      out.write(switch (r.kind()) {
        case STATE -> row("State", container, group(t, "STATE"), num(r.start()), num(r.end()), duration,
            num(r.depth()), t.name());
        case EVENT -> row("Event", container, group(t, "EVENT"), num(r.start()), t.name());
        case VARIABLE -> row("Variable", container, t.name(), num(r.start()), num(r.end()), duration, num(r.value()));
        case LINK -> row("Link", "0", t.name(), num(r.start()), num(r.end()), duration, t.name(), container,
            name(sub, r.to()), "k" + ++key);
      });
    }
    out.flush();
  }

  private static String group(StoreMetadata.EventType t, String fallback) {
    return t.group() != null ? t.group() : fallback;
  }

  private static String name(SubTrace sub, int producer) {
    return producer == sub.root() ? "0" : sub.store().metadata().producers().get(producer).name();
  }

  private static String num(double x) {
    return PajeTraceWriter.plain(x);
  }

  private static String row(String... fields) {
    return String.join(", ", fields) + "\n";
  }
}
