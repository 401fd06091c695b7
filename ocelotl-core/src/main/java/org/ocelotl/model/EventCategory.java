package org.ocelotl.model;

/** What an event type describes; each category is stored and scanned on its own. */
public enum EventCategory {
  /** An interval on one producer; states of a producer may nest as a stack. */
  STATE,
  /** A punctual event at one instant. */
  EVENT,
  /** A step function: the value holds from a change until the next one. */
  VARIABLE,
  /** From one producer at a start time to another at an end time (a message). */
  LINK
}
