package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.List;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * The parts of every breakpoint of one list, built one partition at a time (a dynamic programme
 * each, by whoever calls {@link #extend}: a server while it is idle) and kept as the difference
 * from the next breakpoint towards the one it started at, so that a p picked far away is drawn by
 * a look-up instead of a programme (decision 072).
 *
 * <p>Why differences: at 768 leaves × 100 slices the 485 breakpoints' partitions hold 20 million
 * parts (80 MB of references as lists), but two neighbours differ in tens of parts (docs/
 * benchmarks.md, "A far p looked up"). The chain covers breakpoints [low, high] around {@code
 * origin}, whose parts are held whole; breakpoint k's parts are the origin's with the differences
 * of every breakpoint from the origin to k applied in turn.
 *
 * <p>Why it is exact: parts do not overlap, so (first leaf, first slice) — the slot — names each
 * part of a partition, and a partition's list is ordered by slot ({@link Qualities#best}). A
 * difference removes the slots of the parts that left and puts the parts that came; reading the
 * slots in order gives back the list the programme gave, part for part. A list found not ordered
 * by slot stops the chain instead of being kept (the partitions of all three aggregations are).
 *
 * <p>Memory: the differences (4 bytes per part removed, 12 per part added) and the parts at both
 * ends of the chain (28 bytes per part at most: a reference and the part), bounded by {@link
 * #LIMIT_BYTES}; the chain stops growing there. A look-up allocates a slot array (4 bytes per cell
 * of the model) and the list.
 */
public final class PartsAhead {
  /** Bytes the differences and the chain's ends may hold; far above a 768-leaf trace's (see above). */
  static final long LIMIT_BYTES = 32L << 20;
  private static final int[] NONE = {};

  private final List<Breakpoint> breakpoints;
  private final ProducerTree tree;
  private final int slices;
  private final int cells;
  private final int origin;
  private final List<Part> originParts;
  /** Per breakpoint, the slots of its neighbour towards the origin whose parts it has not. */
  private final int[][] removed;
  /** Per breakpoint, (node, first, last) of each of its parts its neighbour towards the origin has not. */
  private final int[][] added;
  // Written by extend, one call at a time (a server's calls each run on a worker of its pool for the
  // chain, decision 078); read by look-ups only for breakpoints whose source was set after their
  // difference (Partition.sourcedBy's lock orders the two).
  private int low;
  private int high;
  private List<Part> lowParts;
  private List<Part> highParts;
  private long differenceBytes;
  private boolean stopped;
  private boolean upNext = true;

  /**
   * A chain of the breakpoints' parts starting at {@code origin}, whose parts are built when asked
   * here (the partition shown).
   */
  public PartsAhead(List<Breakpoint> breakpoints, MicroscopicModel model, int origin) {
    this.breakpoints = breakpoints;
    this.tree = model.tree();
    this.slices = model.slices();
    this.cells = model.leaves() * slices;
    this.origin = origin;
    this.originParts = breakpoints.get(origin).partition().parts();
    this.removed = new int[breakpoints.size()][];
    this.added = new int[breakpoints.size()][];
    low = origin;
    high = origin;
    lowParts = originParts;
    highParts = originParts;
    stopped = !ordered(originParts);
  }

  /** The breakpoints whose parts this chain keeps. */
  public List<Breakpoint> breakpoints() {
    return breakpoints;
  }

  /**
   * Adds the next breakpoint beyond the chain's ends, one side then the other: builds its parts
   * (a dynamic programme unless they are built already), keeps their difference from the chain's
   * end, and has its partition look them up from now on. Call it from one thread at a time.
   *
   * @return false when there is nothing more to add: every breakpoint is in the chain, or the next
   *     difference would exceed {@link #LIMIT_BYTES}, or a list is not ordered by slot
   */
  public synchronized boolean extend() {
    if (stopped || (low == 0 && high == breakpoints.size() - 1)) {
      return false;
    }
    boolean up = high + 1 < breakpoints.size() && (upNext || low == 0);
    int k = up ? high + 1 : low - 1;
    Partition partition = breakpoints.get(k).partition();
    List<Part> parts = partition.partsOnce();
    List<Part> from = up ? highParts : lowParts;
    if (!ordered(parts) || !difference(from, parts, k, up ? lowParts : highParts)) {
      stopped = true;
      return false;
    }
    if (up) {
      high = k;
      highParts = parts;
    } else {
      low = k;
      lowParts = parts;
    }
    upNext = !up;
    partition.sourcedBy(() -> lookUp(k));
    return true;
  }

  /** Bytes held: the differences and the chain's two ends (the origin's parts are its partition's). */
  public synchronized long bytes() {
    return differenceBytes + endBytes(lowParts) + endBytes(highParts);
  }

  /** How many breakpoints the chain covers, the origin included. */
  public synchronized int covered() {
    return high - low + 1;
  }

  private long endBytes(List<Part> parts) {
    return parts == originParts ? 0 : 28L * parts.size();
  }

  /**
   * Keeps {@code to}'s difference from {@code from}, both ordered by slot: a merge by slot. False,
   * keeping nothing, when it would take the chain, {@code to} and {@code otherEnd} its ends, beyond
   * its bound.
   */
  private boolean difference(List<Part> from, List<Part> to, int k, List<Part> otherEnd) {
    List<Integer> gone = new ArrayList<>();
    List<Part> came = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < from.size() || j < to.size()) {
      int a = i < from.size() ? slot(from.get(i)) : Integer.MAX_VALUE;
      int b = j < to.size() ? slot(to.get(j)) : Integer.MAX_VALUE;
      if (a == b && from.get(i).equals(to.get(j))) {
        i++;
        j++;
      } else if (a <= b) {
        gone.add(a);
        i++;
        if (a == b) {
          came.add(to.get(j++));
        }
      } else {
        came.add(to.get(j++));
      }
    }
    long bytes = 4L * gone.size() + 12L * came.size() + 32; // 32: the two arrays' headers
    if (differenceBytes + bytes + 28L * to.size() + endBytes(otherEnd) > LIMIT_BYTES) {
      return false;
    }
    int[] slots = gone.isEmpty() ? NONE : new int[gone.size()];
    for (int n = 0; n < slots.length; n++) {
      slots[n] = gone.get(n);
    }
    int[] triples = came.isEmpty() ? NONE : new int[3 * came.size()];
    for (int n = 0; n < came.size(); n++) {
      Part part = came.get(n);
      triples[3 * n] = part.node();
      triples[3 * n + 1] = part.first();
      triples[3 * n + 2] = part.last();
    }
    removed[k] = slots;
    added[k] = triples;
    differenceBytes += bytes;
    return true;
  }

  /** Breakpoint k's parts: the origin's, each difference from the origin to k applied in turn. */
  private List<Part> lookUp(int k) {
    Part[] bySlot = new Part[cells];
    for (Part part : originParts) {
      bySlot[slot(part)] = part;
    }
    int step = k > origin ? 1 : -1;
    for (int b = origin + step; b != k + step; b += step) {
      for (int slot : removed[b]) {
        bySlot[slot] = null;
      }
      int[] triples = added[b];
      for (int n = 0; n < triples.length; n += 3) {
        Part part = new Part(triples[n], triples[n + 1], triples[n + 2]);
        bySlot[slot(part)] = part;
      }
    }
    List<Part> parts = new ArrayList<>();
    for (Part part : bySlot) {
      if (part != null) {
        parts.add(part);
      }
    }
    return parts;
  }

  private int slot(Part part) {
    return tree.firstLeaf(part.node()) * slices + part.first();
  }

  /** Whether the slots of the parts strictly increase, so that reading the slots gives the list back. */
  private boolean ordered(List<Part> parts) {
    int previous = -1;
    for (Part part : parts) {
      int slot = slot(part);
      if (slot <= previous) {
        return false;
      }
      previous = slot;
    }
    return true;
  }
}
