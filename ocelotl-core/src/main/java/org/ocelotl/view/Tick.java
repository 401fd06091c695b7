package org.ocelotl.view;

/** An axis tick at a fraction {@code at} ∈ [0, 1] of the axis, with its value and label. */
public record Tick(double at, double value, String label) {}
