package org.ocelotl.aggregation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * What each part of a partition hides (docs/aggregation.md, "What each aggregate hides"): the
 * cells a part merges that deviate most from it, ranked by the information the part loses on
 * them.
 *
 * <p>The split score. For an aggregate A of n cells and a cell C ⊂ A of m cells, with c_u and S_u
 * the values of event type u summed over C and over A, and r_u = S_u − c_u, the loss of A splits
 * exactly as loss(A) = loss(C) + loss(A \ C) + score(C | A), where
 * <pre>
 *   score(C | A) = Σ_u c_u·log2((c_u/S_u)/(m/n)) + r_u·log2((r_u/S_u)/((n−m)/n))
 * </pre>
 * is what A loses by not telling C from the rest: how each type's value splits between C and the
 * rest, measured against how their cell counts split (a Kullback-Leibler divergence weighted by
 * the value). It needs the sums c_u alone. Telling C apart also gives up gain(A) − gain(C) −
 * gain(A \ C) = D − score with D = Σ_u c_u·log2(n/m) + r_u·log2(n/(n−m)), so it raises the pIC
 * exactly when score &gt; p·D: C is worth telling apart for p below score / D.
 *
 * <p>The cells of a part P = (h, [i, j]), two kinds: a <em>stretch</em> (h, [a, b]) of P's slices,
 * scored against P; a <em>subtree</em> (g, [a, b]), g strictly below h, scored against the stretch
 * (h, [a, b]) it lies in — how g departs from the other producers of the part over the same slices.
 * By the chain rule, score(stretch | P) + score(subtree | stretch) is what P loses on the split of P
 * into the subtree, the rest of its stretch and the rest of P. In temporal aggregation (a phase,
 * over the root) and spatial aggregation the cells are the subtrees over the part's whole interval.
 * Sums come from prefix sums along the part's slices of each node's per-type sums (folded up the
 * subtree): |U| pairs of x·log2 x per candidate, nodes of all parts in parallel.
 *
 * <p>Listed, highest score first: the cells whose score no one-slice move of either end of their
 * interval raises (a deviation's copies shifted by a slice are not listed beside it), each kept
 * unless it repeats a kept cell of its kind in its part: it meets one without lying inside it (a
 * host's deviation is not listed again as its cabinet's), or lies inside one, K, but tells less
 * than half of its score anew — score(C | K), what K loses on C (a rank of a slowed host is not
 * listed under it; a host computing while the rest of its cabinet waits for it is listed under the
 * cabinet) — or it is the rest of one's aggregate (C and A \ C have the same score: one split,
 * listed once). Stretches of one part never nest: they are kept only apart.
 */
public final class Outliers {
  /** Scores below this × the part's scale (as {@link Qualities#scale()}) are rounding noise. */
  static final double RELATIVE_FLOOR = 1e-12;
  /**
   * Scores are compared in steps of this × the model's scale: equal scores (a cell and the rest of
   * its aggregate, always) computed in other orders differ by rounding, and must tie so that the
   * order below decides which is listed, the same way every time.
   */
  static final double RELATIVE_STEP = 1e-9;

  private Outliers() {}

  /**
   * The cells that the parts hide, highest score first (see the class comment); {@link
   * Outlier#worthUpTo()} says up to which p each is worth telling apart.
   *
   * @param aggregation which cells are candidates: stretches and subtrees over any stretch in
   *     spatiotemporal aggregation; subtrees over the part's whole interval otherwise
   */
  public static List<Outlier> of(MicroscopicModel model, List<Part> parts, Aggregation aggregation, Work work) {
    boolean stretches = aggregation == Aggregation.SPATIOTEMPORAL;
    double step = RELATIVE_STEP * scale(model);
    Band[] bands = IntStream.range(0, parts.size()).parallel()
        .mapToObj(k -> new Band(model, k, parts.get(k), stretches)).toArray(Band[]::new);
    int tasks = 0;
    for (Band band : bands) {
      tasks += band.nodes.length;
    }
    // Tasks by band, then node: their candidates, gathered in this order, come in the order's
    // last keys (band, node, first and last boundary), which its sort then keeps on ties.
    int[] taskBand = new int[tasks];
    int[] taskNode = new int[tasks];
    for (int b = 0, t = 0; b < bands.length; b++) {
      for (int g : bands[b].byNode) {
        taskBand[t] = b;
        taskNode[t++] = g;
      }
    }
    Found[] found = IntStream.range(0, tasks).parallel().mapToObj(t -> {
      work.check();
      return bands[taskBand[t]].candidates(taskNode[t]);
    }).toArray(Found[]::new);
    Candidates candidates = new Candidates(bands, taskBand, taskNode, found, step);
    return listed(bands, candidates, mostSpecificFirst(bands, candidates, step));
  }

  /**
   * The ranks of the candidates in the order they are listed: by score, except that a cell of a
   * descendant node of fewer leaves meeting a subtree cell with at least half its score explains it
   * — the deviation carried rather than made — and the one that explains (the most specific of a
   * chain) moves up to just before the first cell it explains; the greedy choice then keeps it there
   * and drops the cells it explains that meet it: a cabinet whose departure is one host's is listed
   * as the host, at the cabinet's rank.
   */
  private static int[] mostSpecificFirst(Band[] bands, Candidates cs, double step) {
    // "Scores higher in the order's steps, or as high and comes first" is a lower rank, since ranks
    // are sorted by those steps first. At 768 leaves there are hundreds of thousands of candidates:
    // everything here is arrays of ranks, linear or nearly.
    int n = cs.size;
    // Per band and local node, the ranks of its subtree candidates, ascending: node d's are
    // ranks[start[d]] to ranks[start[d + 1] − 1].
    int[][] start = new int[bands.length][];
    int[][] ranks = new int[bands.length][];
    for (Band band : bands) {
      start[band.index] = new int[band.nodes.length + 1];
    }
    for (int r = 0; r < n; r++) {
      if (cs.local[r] > 0) {
        start[cs.band[r]][cs.local[r] + 1]++;
      }
    }
    int[][] next = new int[bands.length][];
    for (Band band : bands) {
      int[] s = start[band.index];
      for (int g = 0; g < band.nodes.length; g++) {
        s[g + 1] += s[g];
      }
      ranks[band.index] = new int[s[band.nodes.length]];
      next[band.index] = s.clone();
    }
    for (int r = 0; r < n; r++) {
      if (cs.local[r] > 0) {
        ranks[cs.band[r]][next[cs.band[r]][cs.local[r]]++] = r;
      }
    }
    // Which cell explains each is independent of the others' (every core).
    int[] explains = IntStream.range(0, n).parallel().map(r -> cs.local[r] == 0 ? -1
        : explaining(bands[cs.band[r]], cs, start[cs.band[r]], ranks[cs.band[r]], r, step)).toArray();
    // Per candidate, the end of its chain (itself when nothing explains it): explaining cells are
    // of deeper nodes, so a chain is at most the tree's height long. A cell that explains others
    // moves up to the place of the first of them, just before it; the cells explained keep theirs
    // (those meeting it are then dropped, the others listed as before).
    int[] place = new int[n];
    java.util.Arrays.fill(place, -1);
    for (int r = 0; r < n; r++) {
      int anchor = r;
      while (explains[anchor] >= 0) {
        anchor = explains[anchor];
      }
      if (place[anchor] < 0) {
        place[anchor] = r;
      }
    }
    // Keys in halves, all distinct: a promoted cell at 2·place, a cell at its own rank at 2·rank + 1.
    int[] byKey = new int[2 * n + 2];
    java.util.Arrays.fill(byKey, -1);
    for (int r = 0; r < n; r++) {
      byKey[place[r] >= 0 && place[r] < r ? 2 * place[r] : 2 * r + 1] = r;
    }
    int[] order = new int[n];
    int k = 0;
    for (int r : byKey) {
      if (r >= 0) {
        order[k++] = r;
      }
    }
    return order;
  }

  /**
   * The rank of the candidate that explains the subtree cell of rank r — of a node below its own
   * with fewer leaves (a node of a one-child chain is the same cells as its child, not a cause
   * inside it), meeting it, scoring at least half as much, the first in rank of those — or −1.
   * Each node's candidates come in rank order, so a node is read up to its first that explains,
   * or to the rank found so far, or to the score steps below half.
   */
  private static int explaining(Band band, Candidates cs, int[] start, int[] ranks, int r, double step) {
    int g = cs.local[r];
    double half = cs.score[r] / 2;
    int leaves = band.leafCount[g];
    int first = cs.first[r];
    int last = cs.last[r];
    int explains = -1;
    // The nodes below g are those after it in the band's preorder, up to the end of its subtree;
    // each shares leaves with g, so meeting it is sharing slices.
    for (int d = g + 1; d < band.end[g]; d++) {
      if (band.leafCount[d] >= leaves) {
        continue;
      }
      for (int k = start[d]; k < start[d + 1]; k++) {
        int j = ranks[k];
        if (explains >= 0 && j >= explains || (cs.steps[j] + 1) * step < half) {
          break;
        }
        if (cs.score[j] >= half && cs.first[j] <= last && first <= cs.last[j]) {
          explains = j;
          break;
        }
      }
    }
    return explains;
  }

  /**
   * The parts of a spatial view's cut (the treemap's and the topology graph's, at p or at a depth,
   * for the window or one time step), to rank as {@link #of} ranks a spatial partition's: the shown
   * nodes with more than one leaf (a leaf hides nothing), in node order, each over [first, last].
   */
  public static List<Part> shownParts(ProducerTree tree, boolean[] shown, int first, int last) {
    List<Part> parts = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      if (shown[node] && tree.leafCount(node) > 1) {
        parts.add(new Part(node, first, last));
      }
    }
    return parts;
  }

  /**
   * The locally maximal cells of one band's node g, as {@link Band#candidates} finds them: g over
   * boundaries [a[i], b[i]), with its score and worthUpTo.
   */
  private record Found(int count, int[] a, int[] b, double[] score, double[] worthUpTo) {
    static final Found NONE = new Found(0, new int[0], new int[0], new double[0], new double[0]);
  }

  /**
   * Every part's candidates, by rank: highest score (in the order's steps) first; on a tie the
   * smaller cell (the deviation, not the rest), then by part, node, first and last boundary. A cell
   * of band[r] at its local node local[r] over boundaries [a[r], b[r]), slices [first[r], last[r]]
   * of the model. Arrays rather than an object per cell: at 768 leaves there are hundreds of
   * thousands, sorted once and then read many times (docs/benchmarks.md).
   */
  private static final class Candidates {
    final int size;
    final int[] band;
    final int[] local;
    final int[] a;
    final int[] b;
    final int[] first;
    final int[] last;
    final double[] score;
    final double[] worthUpTo;
    /** The score in steps of the order (equal scores differ by rounding). */
    final double[] steps;
    /** The count of cells (leaves × slices). */
    final double[] cells;

    Candidates(Band[] bands, int[] taskBand, int[] taskNode, Found[] found, double step) {
      int n = 0;
      for (Found f : found) {
        n += f.count;
      }
      size = n;
      // Gathered in task order, then sorted by the order's keys and laid out by rank.
      int[] fBand = new int[n];
      int[] fLocal = new int[n];
      int[] fA = new int[n];
      int[] fB = new int[n];
      double[] fScore = new double[n];
      double[] fWorth = new double[n];
      double[] fSteps = new double[n];
      double[] fCells = new double[n];
      int i = 0;
      for (int t = 0; t < found.length; t++) {
        Found f = found[t];
        Band bd = bands[taskBand[t]];
        int g = taskNode[t];
        for (int k = 0; k < f.count; k++, i++) {
          fBand[i] = bd.index;
          fLocal[i] = g;
          fA[i] = f.a[k];
          fB[i] = f.b[k];
          fScore[i] = f.score[k];
          fWorth[i] = f.worthUpTo[k];
          fSteps[i] = Math.rint(f.score[k] / step);
          fCells[i] = (double) bd.leafCount[g] * (bd.positions[f.b[k]] - bd.positions[f.a[k]]);
        }
      }
      int[] byRank = Ranking.sort(fSteps, fCells);
      band = new int[n];
      local = new int[n];
      a = new int[n];
      b = new int[n];
      first = new int[n];
      last = new int[n];
      score = new double[n];
      worthUpTo = new double[n];
      steps = new double[n];
      cells = new double[n];
      IntStream.range(0, n).parallel().forEach(r -> {
        int j = byRank[r];
        Band bd = bands[fBand[j]];
        band[r] = fBand[j];
        local[r] = fLocal[j];
        a[r] = fA[j];
        b[r] = fB[j];
        first[r] = bd.part.first() + bd.positions[fA[j]];
        last[r] = bd.part.first() + bd.positions[fB[j]] - 1;
        score[r] = fScore[j];
        worthUpTo[r] = fWorth[j];
        steps[r] = fSteps[j];
        cells[r] = fCells[j];
      });
    }

    boolean stretch(int r) {
      return local[r] == 0;
    }
  }

  /**
   * The order of the candidates: a stable merge sort of their indices, highest steps first, then
   * fewest cells; the indices are in the order's other keys (band, node, first and last boundary),
   * which a stable sort keeps on a tie, and ties are many (every score below half a step is 0
   * steps). The keys move with the indices, so that a merge reads them in sequence: a comparator
   * over objects made this sort a quarter of the list's time at 768 leaves. Halves of more than
   * {@link #APART} are sorted on every core.
   */
  private static final class Ranking {
    private static final int APART = 1 << 13;

    private Ranking() {}

    /** The indices 0 … n − 1 in that order. */
    static int[] sort(double[] steps, double[] cells) {
      int[] indices = IntStream.range(0, steps.length).toArray();
      double[] negated = new double[steps.length];
      for (int i = 0; i < steps.length; i++) {
        negated[i] = -steps[i];
      }
      sort(indices, negated, cells.clone(), indices.clone(), negated.clone(), cells.clone(), 0, indices.length);
      return indices;
    }

    /**
     * Sorts into[from, to) with its keys first and second; the copies hold the same on entry,
     * to merge from.
     */
    private static void sort(int[] into, double[] first, double[] second, int[] copy, double[] copyFirst,
        double[] copySecond, int from, int to) {
      if (to - from < 16) {
        for (int i = from + 1; i < to; i++) {
          int x = into[i];
          double f = first[i];
          double s = second[i];
          int j = i - 1;
          for (; j >= from && compare(first[j], second[j], f, s) > 0; j--) {
            into[j + 1] = into[j];
            first[j + 1] = first[j];
            second[j + 1] = second[j];
          }
          into[j + 1] = x;
          first[j + 1] = f;
          second[j + 1] = s;
        }
        return;
      }
      int middle = (from + to) >>> 1;
      if (to - from > 2 * APART) {
        java.util.concurrent.ForkJoinTask.invokeAll(
            java.util.concurrent.ForkJoinTask.adapt(() -> sort(copy, copyFirst, copySecond, into, first, second, from, middle)),
            java.util.concurrent.ForkJoinTask.adapt(() -> sort(copy, copyFirst, copySecond, into, first, second, middle, to)));
      } else {
        sort(copy, copyFirst, copySecond, into, first, second, from, middle);
        sort(copy, copyFirst, copySecond, into, first, second, middle, to);
      }
      for (int i = from, l = from, h = middle; i < to; i++) {
        int k = h >= to || l < middle && compare(copyFirst[l], copySecond[l], copyFirst[h], copySecond[h]) <= 0
            ? l++ : h++;
        into[i] = copy[k];
        first[i] = copyFirst[k];
        second[i] = copySecond[k];
      }
    }

    private static int compare(double firstI, double secondI, double firstJ, double secondJ) {
      int c = Double.compare(firstI, firstJ);
      return c != 0 ? c : Double.compare(secondI, secondJ);
    }
  }

  /**
   * Greedy: each candidate in order, kept unless it repeats a kept cell of its kind (see the class
   * comment). Parts are disjoint and a candidate is only ever compared with cells of its own part,
   * so each part makes its choice on its own (every core), on its candidates in the list's order;
   * the kept ones are listed in that order.
   */
  private static List<Outlier> listed(Band[] bands, Candidates cs, int[] order) {
    int n = cs.size;
    int[] count = new int[bands.length];
    for (int r = 0; r < n; r++) {
      count[cs.band[r]]++;
    }
    int[][] byBand = new int[bands.length][];
    for (int b = 0; b < bands.length; b++) {
      byBand[b] = new int[count[b]];
      count[b] = 0;
    }
    for (int r : order) {
      int b = cs.band[r];
      byBand[b][count[b]++] = r;
    }
    boolean[] keep = new boolean[n];
    IntStream.range(0, bands.length).parallel().forEach(b -> choose(bands[b], cs, byBand[b], keep));
    return IntStream.range(0, n).parallel().filter(k -> keep[order[k]])
        .mapToObj(k -> bands[cs.band[order[k]]].outlier(cs, order[k])).toList();
  }

  /**
   * One part's greedy choice among its candidates (ranks, in the list's order), into keep.
   * Subtrees: the kept ones by node ({@link Kept}), a set of (slices, leaves) whether its complement
   * in its stretch is kept. Stretches: the part's kept stretches, few, are looked at.
   */
  private static void choose(Band band, Candidates cs, int[] ranks, boolean[] keep) {
    Set<Block> keptBlocks = new HashSet<>();
    Kept kept = new Kept(band, cs);
    List<Integer> keptStretches = new ArrayList<>();
    for (int r : ranks) {
      boolean fresh;
      if (cs.stretch(r)) {
        fresh = true;
        for (int k : keptStretches) {
          if (cs.first[k] <= cs.last[r] && cs.first[r] <= cs.last[k] || cs.cells[k] + cs.cells[r] == band.cells) {
            fresh = false;
            break;
          }
        }
        if (fresh) {
          keptStretches.add(r);
        }
      } else {
        fresh = (!kept.anyMet(r) || kept.toldAnew(r)) && !keptBlocks.contains(complement(band, cs, r));
        if (fresh) {
          int g = cs.local[r];
          keptBlocks.add(new Block(cs.a[r], cs.b[r], band.firstLeaf[g], band.leafCount[g]));
          kept.add(r);
        }
      }
      keep[r] = fresh;
    }
  }

  /** Leaves [firstLeaf, firstLeaf + leaves) of a part over its boundaries [a, b). */
  private record Block(int a, int b, int firstLeaf, int leaves) {}

  /**
   * The rest of a subtree's stretch when that rest is one band of leaves (the subtree takes the
   * first or the last leaves of the part's node), or null.
   */
  private static Block complement(Band band, Candidates cs, int r) {
    int g = cs.local[r];
    int h0 = band.firstLeaf[0];
    int leaves = band.leafCount[g];
    int firstLeaf = band.firstLeaf[g];
    int lastLeaf = firstLeaf + leaves - 1;
    if (firstLeaf != h0 && lastLeaf != h0 + band.leaves - 1) {
      return null; // in the middle: its rest is two bands, no kept cell
    }
    return new Block(cs.a[r], cs.b[r], firstLeaf == h0 ? lastLeaf + 1 : h0, band.leaves - leaves);
  }

  private static boolean anyBit(long[] bits, int offset, int first, int last) {
    for (int w = first >>> 6; w <= last >>> 6; w++) {
      if ((bits[offset + w] & mask(w, first, last)) != 0) {
        return true;
      }
    }
    return false;
  }

  private static void setBits(long[] bits, int offset, int first, int last) {
    for (int w = first >>> 6; w <= last >>> 6; w++) {
      bits[offset + w] |= mask(w, first, last);
    }
  }

  /**
   * The subtree cells kept so far in one part, by node: only those of the candidate's node, its
   * ancestors and its descendants can meet it (other nodes' leaves are disjoint from its, and two
   * subtrees share leaves exactly when one is below the other), so a candidate is compared with
   * those alone — at 768 leaves the part of the default p keeps thousands of cells, and comparing
   * each candidate with all of them made the list cost more than the overview
   * (docs/benchmarks.md). Per node, the slices its kept cells take, as bits, say without a look at
   * them whether any meets the candidate.
   */
  private static final class Kept {
    private final Band band;
    private final Candidates cs;
    private final int words;
    /** Per local node, the ranks of the kept cells at it, and of those at its strict descendants. */
    private final int[][] at;
    private final int[] atCount;
    private final int[][] below;
    private final int[] belowCount;
    /** Per local node, words of bits by slice of the part: the slices its kept cells take, and its strict descendants'. */
    private final long[] atSlices;
    private final long[] belowSlices;

    Kept(Band band, Candidates cs) {
      this.band = band;
      this.cs = cs;
      words = (band.part.sliceCount() + 63) >>> 6;
      at = new int[band.nodes.length][];
      atCount = new int[band.nodes.length];
      below = new int[band.nodes.length][];
      belowCount = new int[band.nodes.length];
      atSlices = new long[band.nodes.length * words];
      belowSlices = new long[band.nodes.length * words];
    }

    void add(int r) {
      int g = cs.local[r];
      int first = cs.first[r] - band.part.first();
      int last = cs.last[r] - band.part.first();
      at[g] = append(at[g], atCount[g]++, r);
      setBits(atSlices, g * words, first, last);
      for (int h = band.parent[g]; h >= 0; h = band.parent[h]) {
        below[h] = append(below[h], belowCount[h]++, r);
        setBits(belowSlices, h * words, first, last);
      }
    }

    /** Whether the subtree cell of rank r meets a kept one: at its node, at an ancestor, or below. */
    boolean anyMet(int r) {
      int first = cs.first[r] - band.part.first();
      int last = cs.last[r] - band.part.first();
      int g = cs.local[r];
      if (anyBit(belowSlices, g * words, first, last)) {
        return true;
      }
      for (int h = g; h >= 0; h = band.parent[h]) {
        if (anyBit(atSlices, h * words, first, last)) {
          return true;
        }
      }
      return false;
    }

    private static int[] append(int[] list, int size, int r) {
      int[] into = list == null ? new int[4] : size < list.length ? list : java.util.Arrays.copyOf(list, 2 * size);
      into[size] = r;
      return into;
    }

    /**
     * Whether a subtree meeting kept subtrees of its part lies inside each and tells at least half
     * of its score anew inside each. The cheap test first: one it meets without lying inside it
     * is a repeat, whatever it tells anew.
     */
    boolean toldAnew(int r) {
      int g = cs.local[r];
      int first = cs.first[r] - band.part.first();
      int last = cs.last[r] - band.part.first();
      boolean anyBelow = anyBit(belowSlices, g * words, first, last);
      for (int h = g; h >= 0; h = band.parent[h]) {
        if (anyBit(atSlices, h * words, first, last) && !insideEachMet(r, at[h], atCount[h])) {
          return false;
        }
      }
      if (anyBelow && !insideEachMet(r, below[g], belowCount[g])) {
        return false;
      }
      double half = cs.score[r] / 2;
      for (int h = g; h >= 0; h = band.parent[h]) {
        if (anyBit(atSlices, h * words, first, last) && !halfAnewInEachMet(r, at[h], atCount[h], half)) {
          return false;
        }
      }
      return !anyBelow || halfAnewInEachMet(r, below[g], belowCount[g], half);
    }

    private boolean insideEachMet(int r, int[] kept, int count) {
      for (int i = 0; i < count; i++) {
        if (meets(r, kept[i]) && !inside(r, kept[i])) {
          return false;
        }
      }
      return true;
    }

    private boolean halfAnewInEachMet(int r, int[] kept, int count, double half) {
      for (int i = 0; i < count; i++) {
        if (meets(r, kept[i]) && band.within(cs, r, kept[i]) < half) {
          return false;
        }
      }
      return true;
    }

    /** Whether the two cells (of this part) share a leaf over a slice. */
    private boolean meets(int r, int k) {
      int g = cs.local[r];
      int h = cs.local[k];
      return cs.first[r] <= cs.last[k] && cs.first[k] <= cs.last[r]
          && band.firstLeaf[g] < band.firstLeaf[h] + band.leafCount[h]
          && band.firstLeaf[h] < band.firstLeaf[g] + band.leafCount[g];
    }

    /** Whether every cell of r is in k (a subtree's leaves are a range). */
    private boolean inside(int r, int k) {
      int g = cs.local[r];
      int h = cs.local[k];
      return cs.first[k] <= cs.first[r] && cs.last[r] <= cs.last[k] && band.firstLeaf[h] <= band.firstLeaf[g]
          && band.firstLeaf[g] + band.leafCount[g] <= band.firstLeaf[h] + band.leafCount[h];
    }
  }

  /** Total mass × (log2 of the cell count + |log2 of the mass| + 1), as {@link Qualities#scale()}; 1 when all zero. */
  private static double scale(MicroscopicModel model) {
    double mass = 0;
    for (double v : model.values()) {
      mass += v;
    }
    return mass == 0 ? 1 : mass * (Log2.log2((double) model.leaves() * model.slices()) + Math.abs(Log2.log2(mass)) + 1);
  }

  /** The bits of slices [first, last] that fall in word w. */
  private static long mask(int w, int first, int last) {
    int from = Math.max(first, w << 6) & 63;
    int to = Math.min(last, (w << 6) + 63) & 63;
    return (-1L << from) & (-1L >>> (63 - to));
  }

  /** Scores of one node's intervals, reused by the thread that evaluates the next node. */
  private static final ThreadLocal<double[]> SCRATCH = ThreadLocal.withInitial(() -> new double[0]);

  /**
   * One part's subtree with, per node, the per-type sums of its leaves at each boundary of the
   * candidate intervals: prefix sums along the part's slices (every boundary) for stretches, the
   * part's whole sum otherwise.
   */
  private static final class Band {
    final int index;
    final Part part;
    final ProducerTree tree;
    final int types;
    /** The part's subtree, parents before children: local 0 is the part's node. */
    final int[] nodes;
    /** Per local node, the local index of its parent; −1 for the part's node. */
    final int[] parent;
    /** Slice offsets from the part's first slice of the boundaries a candidate may start or end at. */
    final int[] positions;
    /** Per local node, per boundary, per type: the sum over its leaves from the part's first slice. */
    final double[][] prefix;
    /** Per interval of boundaries [a, b) of the part's node: its value and Σ_u S_u·log2 S_u. */
    final double[] stretchMass;
    final double[] stretchInfo;
    final int leaves;
    final double cells;
    final double floor;
    /** The local nodes in the order of their node ids. */
    final int[] byNode;
    /** Per local node: its count of leaves, its first leaf, and the local index after its subtree. */
    final int[] leafCount;
    final int[] firstLeaf;
    final int[] end;

    Band(MicroscopicModel model, int index, Part part, boolean stretches) {
      this.index = index;
      this.part = part;
      this.tree = model.tree();
      this.types = model.typeCount();
      int length = part.sliceCount();
      positions = stretches ? IntStream.rangeClosed(0, length).toArray() : new int[] {0, length};
      int[] parentOf = new int[tree.size()]; // local parent, filled as the walk meets each node
      nodes = subtree(tree, part.node(), parentOf);
      parent = java.util.Arrays.copyOf(parentOf, nodes.length);
      leafCount = new int[nodes.length];
      firstLeaf = new int[nodes.length];
      long[] idLocal = new long[nodes.length];
      for (int k = 0; k < nodes.length; k++) {
        idLocal[k] = (long) nodes[k] << 32 | k;
      }
      java.util.Arrays.sort(idLocal);
      byNode = new int[nodes.length];
      for (int k = 0; k < nodes.length; k++) {
        byNode[k] = (int) idLocal[k];
      }
      int[] size = new int[nodes.length]; // of each node's subtree, children (after it) first
      end = new int[nodes.length];
      for (int k = nodes.length - 1; k >= 0; k--) {
        leafCount[k] = tree.leafCount(nodes[k]);
        firstLeaf[k] = tree.firstLeaf(nodes[k]);
        size[k]++;
        end[k] = k + size[k];
        if (k > 0) {
          size[parent[k]] += size[k];
        }
      }
      prefix = new double[nodes.length][positions.length * types];
      double[] values = model.values();
      for (int k = 0; k < nodes.length; k++) {
        if (tree.isLeaf(nodes[k])) {
          fillLeaf(model, values, tree.firstLeaf(nodes[k]), prefix[k], stretches);
        }
      }
      for (int k = nodes.length - 1; k > 0; k--) {
        double[] into = prefix[parentOf[k]];
        double[] from = prefix[k];
        for (int i = 0; i < from.length; i++) {
          into[i] += from[i];
        }
      }
      int last = positions.length - 1;
      stretchMass = new double[pair(0, last + 1)];
      stretchInfo = new double[stretchMass.length];
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          double mass = 0;
          double info = 0;
          for (int u = 0; u < types; u++) {
            double s = sum(prefix[0], a, b, u);
            mass += s;
            info += Log2.xlog2x(s);
          }
          stretchMass[pair(a, b)] = mass;
          stretchInfo[pair(a, b)] = info;
        }
      }
      leaves = tree.leafCount(part.node());
      cells = (double) leaves * length;
      double mass = stretchMass[pair(0, last)];
      floor = mass == 0 ? 0 : RELATIVE_FLOOR * mass * (Log2.log2(cells) + Math.abs(Log2.log2(mass)) + 1);
    }

    /** The subtree of root in preorder; parentOf[k] = the local index of node k's parent. */
    private static int[] subtree(ProducerTree tree, int root, int[] parentOf) {
      int[] order = new int[tree.size()];
      int[] stack = new int[tree.size()];
      int[] stackParent = new int[tree.size()];
      int size = 0;
      int top = 0;
      stack[top] = root;
      stackParent[top++] = -1;
      while (top > 0) {
        int node = stack[--top];
        parentOf[size] = stackParent[top];
        int local = size++;
        order[local] = node;
        for (int c = tree.childCount(node) - 1; c >= 0; c--) {
          stack[top] = tree.child(node, c);
          stackParent[top++] = local;
        }
      }
      return java.util.Arrays.copyOf(order, size);
    }

    private void fillLeaf(MicroscopicModel model, double[] values, int leaf, double[] into, boolean stretches) {
      int from = model.index(leaf, part.first(), 0);
      double[] running = new double[types];
      for (int t = 0; t < part.sliceCount(); t++) {
        for (int u = 0; u < types; u++) {
          running[u] += values[from + t * types + u];
        }
        if (stretches) {
          System.arraycopy(running, 0, into, (t + 1) * types, types);
        }
      }
      if (!stretches) {
        System.arraycopy(running, 0, into, types, types);
      }
    }

    /** Index of boundaries [a, b), a &lt; b, in a triangular array. */
    private static int pair(int a, int b) {
      return (b - 1) * b / 2 + a;
    }

    /** Type u summed between boundaries a and b; a difference of running sums, clamped at 0 (rounding). */
    private double sum(double[] sums, int a, int b, int u) {
      return Math.max(0, sums[b * types + u] - sums[a * types + u]);
    }

    /**
     * The cells of local node g that deviate (above rounding) and that no one-slice move of an end
     * improves. Every interval is scored first, so that each can be compared with its neighbours.
     */
    Found candidates(int g) {
      int last = positions.length - 1;
      boolean stretch = g == 0;
      int leavesOfG = leafCount[g];
      if (stretchMass[pair(0, last)] == 0 || !stretch && leavesOfG == leaves || stretch && last == 1) {
        return Found.NONE; // nothing to tell apart: no value, the same leaves as the part's node, one interval
      }
      int count = pair(0, last + 1);
      double[] score = SCRATCH.get();
      if (score.length < count) {
        score = new double[count];
        SCRATCH.set(score);
      }
      double[] inside = new double[last + 1];
      double[] outside = new double[last + 1];
      logRatios(stretch, leavesOfG, inside, outside);
      for (int b = 1; b <= last; b++) {
        for (int a = 0; a < b; a++) {
          score[pair(a, b)] = score(g, a, b, inside, outside);
        }
      }
      int found = 0;
      int[] as = new int[16];
      int[] bs = new int[16];
      double[] scores = new double[16];
      double[] worth = new double[16];
      for (int a = 0; a < last; a++) { // in the order's last keys: a, then b
        for (int b = a + 1; b <= last; b++) {
          double s = score[pair(a, b)];
          if (s > floor && localMaximum(score, s, a, b, last)) {
            if (found == as.length) {
              as = java.util.Arrays.copyOf(as, 2 * found);
              bs = java.util.Arrays.copyOf(bs, 2 * found);
              scores = java.util.Arrays.copyOf(scores, 2 * found);
              worth = java.util.Arrays.copyOf(worth, 2 * found);
            }
            as[found] = a;
            bs[found] = b;
            scores[found] = s;
            worth[found++] = s / split(g, a, b, inside, outside);
          }
        }
      }
      return new Found(found, as, bs, scores, worth);
    }

    /**
     * log2(n/m) and log2(n/(n−m)) by the cell's width in boundaries: for a stretch against the part,
     * n/m = the part's slices over the stretch's; for a subtree against its stretch, the part's
     * node's leaves over g's, whatever the width.
     */
    private void logRatios(boolean stretch, int leavesOfG, double[] inside, double[] outside) {
      for (int w = 1; w < inside.length; w++) {
        inside[w] = inside(stretch, leavesOfG, w);
        outside[w] = outside(stretch, leavesOfG, w);
      }
    }

    private double inside(boolean stretch, int leavesOfG, int w) {
      return Log2.log2(n(stretch) / m(stretch, leavesOfG, w));
    }

    private double outside(boolean stretch, int leavesOfG, int w) {
      double n = n(stretch);
      double m = m(stretch, leavesOfG, w);
      return m < n ? Log2.log2(n / (n - m)) : 0;
    }

    /** The aggregate's size in the units of the cell's width: slices for a stretch, else leaves. */
    private double n(boolean stretch) {
      return stretch ? part.sliceCount() : leaves;
    }

    private double m(boolean stretch, int leavesOfG, int w) {
      return stretch ? positions[w] - positions[0] : leavesOfG;
    }

    /** The boundaries of the aggregate a cell is scored against: the part for a stretch, else its stretch. */
    private int referenceA(int g, int a) {
      return g == 0 ? 0 : a;
    }

    private int referenceB(int g, int b) {
      return g == 0 ? positions.length - 1 : b;
    }

    /** score(C | A): Σ_u xlog c + xlog r, − Σ_u xlog S, + C·log2(n/m) + R·log2(n/(n−m)). */
    private double score(int g, int a, int b, double[] inside, double[] outside) {
      double[] cs = prefix[g];
      double[] rs = prefix[0];
      int ra = referenceA(g, a);
      int rb = referenceB(g, b);
      double info = 0;
      double in = 0;
      for (int u = 0; u < types; u++) {
        double s = sum(rs, ra, rb, u);
        double c = Math.min(s, sum(cs, a, b, u));
        info += Log2.xlog2x(c) + Log2.xlog2x(s - c);
        in += c;
      }
      int k = pair(ra, rb);
      int w = b - a;
      return Math.max(0, info - stretchInfo[k] + in * inside[w] + Math.max(0, stretchMass[k] - in) * outside[w]);
    }

    /** D: the score plus the gain that telling the cell apart gives up. */
    private double split(int g, int a, int b, double[] inside, double[] outside) {
      double in = 0;
      for (int u = 0; u < types; u++) {
        in += sum(prefix[g], a, b, u);
      }
      int w = b - a;
      return in * inside[w] + Math.max(0, stretchMass[pair(referenceA(g, a), referenceB(g, b))] - in) * outside[w];
    }

    private static boolean localMaximum(double[] score, double s, int a, int b, int last) {
      return (a == 0 || score[pair(a - 1, b)] <= s) && (a + 1 == b || score[pair(a + 1, b)] <= s)
          && (b - 1 == a || score[pair(a, b - 1)] <= s) && (b == last || score[pair(a, b + 1)] <= s);
    }

    /** score(C | K) for C (rank r) inside K (rank k), both of this part: the split score with K as the aggregate. */
    double within(Candidates cs, int r, int k) {
      double n = cs.cells[k];
      double m = cs.cells[r];
      if (m >= n) {
        return 0;
      }
      double inside = Log2.log2(n / m);
      double outside = Log2.log2(n / (n - m));
      double s = 0;
      for (int u = 0; u < types; u++) {
        double total = sum(prefix[cs.local[k]], cs.a[k], cs.b[k], u);
        double cu = Math.min(total, sum(prefix[cs.local[r]], cs.a[r], cs.b[r], u));
        s += Log2.xlog2x(cu) + Log2.xlog2x(total - cu) - Log2.xlog2x(total) + cu * inside + (total - cu) * outside;
      }
      return Math.max(0, s);
    }

    /** The candidate of rank r as an outlier, with the type whose term of the score is largest. */
    Outlier outlier(Candidates cs, int r) {
      int g = cs.local[r];
      int a = cs.a[r];
      int b = cs.b[r];
      int w = b - a;
      double inside = inside(g == 0, leafCount[g], w);
      double outside = outside(g == 0, leafCount[g], w);
      int ra = referenceA(g, a);
      int rb = referenceB(g, b);
      double in = 0;
      int type = 0;
      double largest = Double.NEGATIVE_INFINITY;
      for (int u = 0; u < types; u++) {
        double s = sum(prefix[0], ra, rb, u);
        double cu = Math.min(s, sum(prefix[g], a, b, u));
        double term = Log2.xlog2x(cu) + Log2.xlog2x(s - cu) - Log2.xlog2x(s) + cu * inside + (s - cu) * outside;
        in += cu;
        if (term > largest) {
          largest = term;
          type = u;
        }
      }
      double cu = sum(prefix[g], a, b, type);
      double mass = stretchMass[pair(ra, rb)];
      return new Outlier(index, nodes[g], cs.first[r], cs.last[r], cs.score[r], cs.worthUpTo[r], type,
          in > 0 ? cu / in : 0, sum(prefix[0], ra, rb, type) / mass);
    }
  }
}
