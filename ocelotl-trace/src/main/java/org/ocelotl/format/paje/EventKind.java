package org.ocelotl.format.paje;

import static org.ocelotl.format.paje.Field.CONTAINER;
import static org.ocelotl.format.paje.Field.END_CONTAINER;
import static org.ocelotl.format.paje.Field.END_CONTAINER_TYPE;
import static org.ocelotl.format.paje.Field.FILENAME;
import static org.ocelotl.format.paje.Field.KEY;
import static org.ocelotl.format.paje.Field.NAME;
import static org.ocelotl.format.paje.Field.START_CONTAINER;
import static org.ocelotl.format.paje.Field.START_CONTAINER_TYPE;
import static org.ocelotl.format.paje.Field.TIME;
import static org.ocelotl.format.paje.Field.TYPE;
import static org.ocelotl.format.paje.Field.VALUE;

import java.util.EnumSet;
import java.util.Set;

/** The Pajé events, each with the fields it cannot do without. */
enum EventKind {
  DEFINE_CONTAINER_TYPE("PajeDefineContainerType", NAME, TYPE),
  DEFINE_STATE_TYPE("PajeDefineStateType", NAME, TYPE),
  DEFINE_EVENT_TYPE("PajeDefineEventType", NAME, TYPE),
  DEFINE_VARIABLE_TYPE("PajeDefineVariableType", NAME, TYPE),
  DEFINE_LINK_TYPE("PajeDefineLinkType", NAME, TYPE, START_CONTAINER_TYPE, END_CONTAINER_TYPE),
  DEFINE_ENTITY_VALUE("PajeDefineEntityValue", NAME, TYPE),
  CREATE_CONTAINER("PajeCreateContainer", TIME, NAME, TYPE, CONTAINER),
  DESTROY_CONTAINER("PajeDestroyContainer", TIME, NAME, TYPE),
  NEW_EVENT("PajeNewEvent", TIME, TYPE, CONTAINER, VALUE),
  SET_STATE("PajeSetState", TIME, TYPE, CONTAINER, VALUE),
  PUSH_STATE("PajePushState", TIME, TYPE, CONTAINER, VALUE),
  POP_STATE("PajePopState", TIME, TYPE, CONTAINER),
  RESET_STATE("PajeResetState", TIME, TYPE, CONTAINER),
  SET_VARIABLE("PajeSetVariable", TIME, TYPE, CONTAINER, VALUE),
  ADD_VARIABLE("PajeAddVariable", TIME, TYPE, CONTAINER, VALUE),
  SUB_VARIABLE("PajeSubVariable", TIME, TYPE, CONTAINER, VALUE),
  START_LINK("PajeStartLink", TIME, TYPE, CONTAINER, START_CONTAINER, KEY),
  END_LINK("PajeEndLink", TIME, TYPE, CONTAINER, END_CONTAINER, KEY),
  TRACE_FILE("PajeTraceFile", CONTAINER, FILENAME);

  final String pajeName;
  final Set<Field> required;

  EventKind(String pajeName, Field first, Field... rest) {
    this.pajeName = pajeName;
    this.required = EnumSet.of(first, rest);
  }

  static EventKind named(String name) {
    for (EventKind kind : values()) {
      if (kind.pajeName.equals(name)) {
        return kind;
      }
    }
    return null;
  }
}
