package org.ocelotl.view;

/** One event type's total value in an aggregate and its share of the aggregate's total. */
public record TypeShare(String type, double value, double share) {}
