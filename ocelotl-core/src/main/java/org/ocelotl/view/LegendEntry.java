package org.ocelotl.view;

/** An event type and its colour "#rrggbb". */
public record LegendEntry(int type, String name, String colour) {}
