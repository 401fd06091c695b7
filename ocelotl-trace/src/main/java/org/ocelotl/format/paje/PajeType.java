package org.ocelotl.format.paje;

import org.ocelotl.model.EventCategory;

/**
 * One Pajé type, as its definition line declares it: cold data, read when a record names it.
 *
 * @param label     "'MPI' (alias 12)": SimGrid's names repeat, so messages need the alias too
 * @param category  the records of its values; null for a container type
 * @param parent    the container type it lives in; -1 for the root type "0"
 * @param startType a link type's start container type, else -1
 * @param endType   a link type's end container type, else -1
 * @param sinkType  the sink event type of a variable or link type, else -1 (a state or event
 *                  type's values are the sink's types)
 */
record PajeType(String name, String label, EventCategory category, int parent, int startType, int endType,
    int sinkType) {
  boolean isContainer() {
    return category == null;
  }
}
