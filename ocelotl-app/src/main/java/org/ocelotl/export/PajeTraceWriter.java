package org.ocelotl.export;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.EventCategory;
import org.ocelotl.query.RecordQuery;
import org.ocelotl.store.StoreMetadata;

/**
 * Writes a {@link SubTrace} as a Pajé trace (docs/format-paje.md) that pj_dump and Ocelotl read
 * back: a header of event definitions, the container types (one per path of kinds from the root,
 * since Pajé gives a container type one parent type), the entity types and values, then the
 * containers and records in time order — states as PushState/PopState, so pj_dump rebuilds
 * their nesting depths; variables as SetVariable; links as StartLink/EndLink in the root
 * container with numbered keys; containers destroyed at the end of their (clipped) lifetime.
 *
 * <p>What the store does not keep is not invented: a link's value is its type's name, its key a
 * number.
 */
public final class PajeTraceWriter {
  // Event definition ids of the header.
  private static final int DEFINE_CONTAINER_TYPE = 0;
  private static final int DEFINE_STATE_TYPE = 1;
  private static final int DEFINE_EVENT_TYPE = 2;
  private static final int DEFINE_VARIABLE_TYPE = 3;
  private static final int DEFINE_LINK_TYPE = 4;
  private static final int DEFINE_VALUE = 5;
  private static final int DEFINE_VALUE_COLOURED = 6;
  private static final int CREATE_CONTAINER = 7;
  private static final int DESTROY_CONTAINER = 8;
  private static final int PUSH_STATE = 9;
  private static final int POP_STATE = 10;
  private static final int NEW_EVENT = 11;
  private static final int SET_VARIABLE = 12;
  private static final int START_LINK = 13;
  private static final int END_LINK = 14;
  private static final int DEFINE_VARIABLE_TYPE_COLOURED = 15;

  private static final String HEADER = """
      %EventDef PajeDefineContainerType 0
      %       Alias string
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineStateType 1
      %       Alias string
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineEventType 2
      %       Alias string
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineVariableType 3
      %       Alias string
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineLinkType 4
      %       Alias string
      %       Type string
      %       StartContainerType string
      %       EndContainerType string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineEntityValue 5
      %       Alias string
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajeDefineEntityValue 6
      %       Alias string
      %       Type string
      %       Name string
      %       Color color
      %EndEventDef
      %EventDef PajeCreateContainer 7
      %       Time date
      %       Alias string
      %       Type string
      %       Container string
      %       Name string
      %EndEventDef
      %EventDef PajeDestroyContainer 8
      %       Time date
      %       Type string
      %       Name string
      %EndEventDef
      %EventDef PajePushState 9
      %       Time date
      %       Type string
      %       Container string
      %       Value string
      %EndEventDef
      %EventDef PajePopState 10
      %       Time date
      %       Type string
      %       Container string
      %EndEventDef
      %EventDef PajeNewEvent 11
      %       Time date
      %       Type string
      %       Container string
      %       Value string
      %EndEventDef
      %EventDef PajeSetVariable 12
      %       Time date
      %       Type string
      %       Container string
      %       Value double
      %EndEventDef
      %EventDef PajeStartLink 13
      %       Time date
      %       Type string
      %       Container string
      %       Value string
      %       StartContainer string
      %       Key string
      %EndEventDef
      %EventDef PajeEndLink 14
      %       Time date
      %       Type string
      %       Container string
      %       Value string
      %       EndContainer string
      %       Key string
      %EndEventDef
      %EventDef PajeDefineVariableType 15
      %       Alias string
      %       Type string
      %       Name string
      %       Color color
      %EndEventDef
      """;

  /**
   * The order of lines at one date: containers are created first (parents first); then states
   * end (deepest first) and begin (outermost first), a zero-length state where its depth falls
   * in that sequence; then events, variables and links, in the store's order; containers are
   * destroyed last (children first).
   */
  private static final int CREATE = 0;
  private static final int POPS = 1;
  private static final int PUSHES = 2;
  private static final int OTHERS = 3;
  private static final int DESTROY = 4;

  private final SubTrace sub;
  private final StoreMetadata m;
  private final Writer out;
  private final String[] containerType;
  private final Map<String, String> entityTypes = new HashMap<>();
  private final Map<String, String> values = new HashMap<>();

  private record Line(double time, int phase, int key, int order, String text) {}

  private PajeTraceWriter(SubTrace sub, Writer out) {
    this.sub = sub;
    this.m = sub.store().metadata();
    this.out = out;
    this.containerType = new String[m.producers().size()];
  }

  public static void write(SubTrace sub, Writer out) throws IOException {
    new PajeTraceWriter(sub, out).write();
  }

  private void write() throws IOException {
    out.write("# a part of " + m.name() + " written by Ocelotl: [" + plain(sub.from()) + ", " + plain(sub.to())
        + ") " + m.timeUnit() + "\n");
    // Where times since the start count from: the original's, so that the part, imported, reads as
    // the original did (decision 053); pj_dump and other readers skip the comment.
    out.write("# ocelotl origin " + plain(m.origin()) + "\n");
    out.write(HEADER);
    defineContainerTypes();
    List<Line> lines = new ArrayList<>();
    containerLines(lines);
    stateLines(lines);
    otherLines(lines);
    // A stable sort: lines of one date and phase keep the store's order (a variable's changes).
    lines.sort(Comparator.comparingDouble(Line::time).thenComparingInt(Line::phase).thenComparingInt(Line::key)
        .thenComparingInt(Line::order));
    for (Line line : lines) {
      out.write(line.text());
      out.write('\n');
    }
    out.flush();
  }

  private void defineContainerTypes() throws IOException {
    Map<String, String> byPath = new LinkedHashMap<>();
    containerType[sub.root()] = "0";
    for (SubTrace.Container c : sub.containers()) {
      String kind = m.producers().get(c.producer()).kind();
      String parentType = containerType[c.parent()];
      String path = parentType + "/" + kind;
      String alias = byPath.get(path);
      if (alias == null) {
        alias = "ct" + (byPath.size() + 1);
        byPath.put(path, alias);
        line(DEFINE_CONTAINER_TYPE, alias, parentType, quote(kind));
      }
      containerType[c.producer()] = alias;
    }
  }

  private void containerLines(List<Line> lines) {
    for (SubTrace.Container c : sub.containers()) {
      StoreMetadata.Producer p = m.producers().get(c.producer());
      lines.add(new Line(c.start(), CREATE, c.depth(), 0, text(CREATE_CONTAINER, plain(c.start()), container(c.producer()),
          containerType[c.producer()], container(c.parent()), quote(p.name()))));
      lines.add(new Line(c.end(), DESTROY, -c.depth(), 0, text(DESTROY_CONTAINER, plain(c.end()),
          containerType[c.producer()], container(c.producer()))));
    }
  }

  /**
   * Push and pop lines whose order at one date rebuilds each state's depth: at a date, the states
   * ending there pop from the top of the stack, then those beginning there push from the
   * bottom; a zero-length state of depth z goes where the stack holds z states — among the pops
   * when the pops go down to z, else among the pushes.
   */
  private void stateLines(List<Line> lines) throws IOException {
    Map<String, Integer> lowestPop = new HashMap<>();
    for (RecordQuery.Record r : sub.records()) {
      if (r.kind() == EventCategory.STATE && r.end() > r.start()) {
        lowestPop.merge(slot(r, r.end()), r.depth(), Math::min);
      }
    }
    int order = 0;
    for (RecordQuery.Record r : sub.records()) {
      if (r.kind() != EventCategory.STATE) {
        continue;
      }
      String type = entityType(r, DEFINE_STATE_TYPE);
      String push = text(PUSH_STATE, plain(r.start()), type, container(r.producer()), value(r, type));
      String pop = text(POP_STATE, plain(r.end()), type, container(r.producer()));
      int d = r.depth();
      if (r.end() > r.start()) {
        lines.add(new Line(r.start(), PUSHES, 2 * d + 1, order++, push));
        lines.add(new Line(r.end(), POPS, -2 * d, order++, pop));
      } else {
        Integer lowest = lowestPop.get(slot(r, r.start()));
        boolean amongPops = lowest != null && d >= lowest;
        // Among the pops: after the pop of depth d (key -2d), before that of d-1 (-2d+2).
        // Among the pushes: after the push of depth d-1 (2d-1), before that of d (2d+1).
        Line line = new Line(r.start(), amongPops ? POPS : PUSHES, amongPops ? -2 * d + 1 : 2 * d, order++,
            push + "\n" + pop);
        lines.add(line);
      }
    }
  }

  private void otherLines(List<Line> lines) throws IOException {
    int order = 0;
    long key = 0;
    for (RecordQuery.Record r : sub.records()) {
      switch (r.kind()) {
        case EVENT -> {
          String type = entityType(r, DEFINE_EVENT_TYPE);
          lines.add(new Line(r.start(), OTHERS, 0, order++, text(NEW_EVENT, plain(r.start()), type,
              container(r.producer()), value(r, type))));
        }
        case VARIABLE -> lines.add(new Line(r.start(), OTHERS, 0, order++, text(SET_VARIABLE, plain(r.start()),
            entityType(r, DEFINE_VARIABLE_TYPE), container(r.producer()), plain(r.value()))));
        case LINK -> {
          String type = entityType(r, DEFINE_LINK_TYPE);
          String name = quote(m.types().get(r.type()).name());
          String k = "k" + ++key;
          lines.add(new Line(r.start(), OTHERS, 0, order++, text(START_LINK, plain(r.start()), type, "0", name,
              container(r.producer()), k)));
          lines.add(new Line(r.end(), OTHERS, 0, order++, text(END_LINK, plain(r.end()), type, "0", name,
              container(r.to()), k)));
        }
        default -> { }
      }
    }
  }

  /**
   * The alias of the Pajé type of a record, defined on first use: one per (type, container
   * type) — and per pair of end container types for a link — since Pajé ties a type to one
   * container type.
   */
  private String entityType(RecordQuery.Record r, int definition) throws IOException {
    StoreMetadata.EventType t = m.types().get(r.type());
    boolean valued = t.category() == EventCategory.STATE || t.category() == EventCategory.EVENT;
    // States and events are typed by their value, grouped by their Pajé type; a format without
    // groups gets one Pajé type per category.
    String name = !valued ? t.name() : t.group() != null ? t.group() : t.category() == EventCategory.STATE ? "STATE" : "EVENT";
    String owner = t.category() == EventCategory.LINK ? "0" : containerType[r.producer()];
    String ends = t.category() == EventCategory.LINK ? containerType[r.producer()] + " " + containerType[r.to()] : "";
    String key = t.category() + "\u0000" + name + "\u0000" + owner + "\u0000" + ends;
    String alias = entityTypes.get(key);
    if (alias == null) {
      alias = "et" + (entityTypes.size() + 1);
      entityTypes.put(key, alias);
      if (t.category() == EventCategory.LINK) {
        line(DEFINE_LINK_TYPE, alias, owner, containerType[r.producer()], containerType[r.to()], quote(name));
      } else if (t.category() == EventCategory.VARIABLE && t.color() != null) {
        line(DEFINE_VARIABLE_TYPE_COLOURED, alias, owner, quote(name), quote(t.color()));
      } else {
        line(definition, alias, owner, quote(name));
      }
    }
    return alias;
  }

  /** The alias of a state's or event's value, defined on first use with its colour. */
  private String value(RecordQuery.Record r, String entityType) throws IOException {
    StoreMetadata.EventType t = m.types().get(r.type());
    String key = entityType + "\u0000" + t.name();
    String alias = values.get(key);
    if (alias == null) {
      alias = "v" + (values.size() + 1);
      values.put(key, alias);
      if (t.color() != null) {
        line(DEFINE_VALUE_COLOURED, alias, entityType, quote(t.name()), quote(t.color()));
      } else {
        line(DEFINE_VALUE, alias, entityType, quote(t.name()));
      }
    }
    return alias;
  }

  private String slot(RecordQuery.Record r, double time) throws IOException {
    return r.producer() + " " + entityType(r, DEFINE_STATE_TYPE) + " " + time;
  }

  private String container(int producer) {
    return producer == sub.root() ? "0" : "c" + producer;
  }

  private void line(int definition, String... fields) throws IOException {
    out.write(text(definition, fields));
    out.write('\n');
  }

  private static String text(int definition, String... fields) {
    return definition + " " + String.join(" ", fields);
  }

  /** Pajé strings in double quotes; the format has no escape, so a quote inside becomes an apostrophe. */
  static String quote(String s) {
    return "\"" + s.replace('"', '\'') + "\"";
  }

  /** A number as Java's shortest round-trip digits, without an exponent (Pajé readers expect decimals). */
  static String plain(double x) {
    String s = BigDecimal.valueOf(x).toPlainString();
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }
}
