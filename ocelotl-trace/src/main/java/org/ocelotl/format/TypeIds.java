package org.ocelotl.format;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.EventCategory;
import org.ocelotl.trace.TraceSink;

/**
 * The event type ids of one import, shared by every reader: dense from 0, each declared to the
 * sink the first time it is asked for. A type is known by its category and name, and, for
 * formats whose types are scoped by a group (pj_dump: a value of a Pajé state type), by its group
 * too.
 */
public final class TypeIds {
  private final TraceSink sink;
  private final boolean scopedByGroup;
  private final List<Map<String, Integer>> byCategory = new ArrayList<>();
  private int count;

  public TypeIds(TraceSink sink, boolean scopedByGroup) {
    this.sink = sink;
    this.scopedByGroup = scopedByGroup;
    for (int c = 0; c < EventCategory.values().length; c++) {
      byCategory.add(new HashMap<>());
    }
  }

  /** The id of the type, declared now with its group and colour if new. */
  public int id(String name, EventCategory category, String group, String color) {
    String key = scopedByGroup ? (group == null ? "" : group) + '\u0000' + name : name;
    Map<String, Integer> known = byCategory.get(category.ordinal());
    Integer id = known.get(key);
    if (id == null) {
      id = count++;
      known.put(key, id);
      sink.eventType(id, name, category, group, color);
    }
    return id;
  }

  public int id(String name, EventCategory category, String group) {
    return id(name, category, group, null);
  }

  /** How many types were declared. */
  public int count() {
    return count;
  }
}
