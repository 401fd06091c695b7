package org.ocelotl.format.paje;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One {@code %EventDef} block: which event an id stands for and where each field sits in its
 * lines (the header decides the order; fields the reader does not know are extras).
 */
final class EventDefinition {
  final EventKind kind;
  final String id;
  private final int[] position = new int[Field.values().length];
  private final List<String> fieldNames = new ArrayList<>();

  EventDefinition(EventKind kind, String id) {
    this.kind = kind;
    this.id = id;
    Arrays.fill(position, -1);
  }

  /** Adds the next field; returns false if the same field was already given. */
  boolean add(String name) {
    Field field = Field.named(name);
    if (field != null) {
      if (position[field.ordinal()] >= 0) {
        return false;
      }
      position[field.ordinal()] = fieldNames.size();
    }
    fieldNames.add(name);
    return true;
  }

  /** The required fields that the definition lacks, by name; empty when complete. */
  List<String> missing() {
    List<String> missing = new ArrayList<>();
    for (Field field : kind.required) {
      if (position[field.ordinal()] < 0) {
        missing.add(field.names[0]);
      }
    }
    return missing;
  }

  /** Index of the field among the line's values (after the id), or -1 if absent. */
  int position(Field field) {
    return position[field.ordinal()];
  }

  int fieldCount() {
    return fieldNames.size();
  }

  /** "Time Type Container Value": what a line of this event must hold after its id. */
  String layout() {
    return String.join(" ", fieldNames);
  }
}
