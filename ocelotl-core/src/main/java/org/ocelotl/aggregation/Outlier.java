package org.ocelotl.aggregation;

/**
 * A cell that one part of a partition merges but which deviates from it (docs/aggregation.md,
 * "What each aggregate hides"): the node's leaves over the slices [first, last], inside the part
 * numbered {@code part} in the list the cells were ranked for. It is compared with an aggregate:
 * the part itself when the node is the part's (a stretch of its slices), else the part's node
 * over the same slices (a subtree departing from the other producers of the part).
 *
 * @param score     the information that aggregate loses on this cell, in the method's units: its
 *                  loss minus the losses of the cell and of its rest, each as one aggregate (≥ 0)
 * @param worthUpTo the p below which telling the cell apart from the rest of that aggregate raises
 *                  the pIC: score / (score + the gain that telling it apart gives up)
 * @param type      the event type whose share departs most (the largest term of the score)
 * @param cellShare that type's share of the cell's total value
 * @param partShare that type's share of that aggregate's total value
 */
public record Outlier(int part, int node, int first, int last, double score, double worthUpTo, int type,
    double cellShare, double partShare) {}
