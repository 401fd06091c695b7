package org.ocelotl.aggregation;

/**
 * One distinct optimal partition and the lowest p at which it is optimal; it stays optimal up
 * to the next breakpoint's p (or 1 for the last).
 */
public record Breakpoint(double p, Partition partition) {}
