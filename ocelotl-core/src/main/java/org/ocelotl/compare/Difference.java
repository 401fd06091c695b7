package org.ocelotl.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.MicroscopicModel;
import org.ocelotl.model.ProducerTree;

/**
 * How one run departs from another, cell by cell (docs/aggregation.md, "Comparing two runs"): two
 * models of the same N slices matched by producer path and type name, and the <em>difference
 * model</em> whose types are, for each type j, the gain j+ = max(0, other − base) and the loss
 * j− = max(0, base − other). It is non-negative and additive like any microscopic model, so every
 * aggregation runs on it unchanged; a cell where OTHER equals BASE carries no mass.
 *
 * <p>Producers are those of both runs (BASE's tree, less the leaves OTHER lacks); those of one run
 * only are listed ({@link #onlyInBase}, {@link #onlyInOther}), not compared: a producer with no
 * counterpart would read as a departure of its whole mass, which says only that it exists. Types
 * are the union: a type of one run only is 0 in the other (a new MPI call is a real departure).
 * Difference types whose every cell is 0 are left out (they would cost the qualities a component
 * and change no partition).
 *
 * @param base       BASE's values on the common producers and the union's types
 * @param other      OTHER's, likewise
 * @param model      the difference model: the common producers, the slices, the kept ± types
 * @param typeOf     for each type of {@code model}, its type in {@link #types}
 * @param gained     for each type of {@code model}: true for j+, false for j−
 * @param types      the union of both runs' types, BASE's first
 */
public record Difference(MicroscopicModel base, MicroscopicModel other, MicroscopicModel model, int[] typeOf,
    boolean[] gained, List<String> types, List<String> onlyInBase, List<String> onlyInOther) {
  /** The suffixes of a type's gain and loss in the difference model's type names. */
  public static final String GAIN = " +";
  public static final String LOSS = " −";

  /**
   * @throws IllegalArgumentException when the models' slice counts differ or they share no producer
   */
  public static Difference of(MicroscopicModel base, MicroscopicModel other) {
    if (base.slices() != other.slices()) {
      throw new IllegalArgumentException("the runs are cut into " + base.slices() + " and " + other.slices()
          + " slices; a comparison needs the same");
    }
    Map<String, Integer> otherLeaves = leavesByPath(other.tree());
    Map<String, Integer> baseLeaves = leavesByPath(base.tree());
    List<String> onlyInBase = new ArrayList<>();
    boolean[] keep = new boolean[base.tree().size()];
    for (Map.Entry<String, Integer> e : baseLeaves.entrySet()) {
      if (otherLeaves.containsKey(e.getKey())) {
        keep[base.tree().leafNode(e.getValue())] = true;
      } else {
        onlyInBase.add(e.getKey());
      }
    }
    List<String> onlyInOther = otherLeaves.keySet().stream().filter(path -> !baseLeaves.containsKey(path)).toList();
    if (onlyInBase.size() == baseLeaves.size()) {
      throw new IllegalArgumentException("the runs have no producer in common (matched by path: BASE has "
          + String.join(", ", first(new ArrayList<>(baseLeaves.keySet()))) + "; OTHER has "
          + String.join(", ", first(new ArrayList<>(otherLeaves.keySet()))) + ")");
    }
    ProducerTree tree = pruned(base.tree(), keep);
    Map<String, Integer> union = new LinkedHashMap<>();
    for (String t : base.types()) {
      union.putIfAbsent(t, union.size());
    }
    for (String t : other.types()) {
      union.putIfAbsent(t, union.size());
    }
    List<String> types = List.copyOf(union.keySet());
    MicroscopicModel b = aligned(base, tree, types);
    MicroscopicModel o = aligned(other, tree, types);
    return ofAligned(b, o, onlyInBase, onlyInOther);
  }

  /** The difference of two models with the same producers, slices and types. */
  static Difference ofAligned(MicroscopicModel b, MicroscopicModel o, List<String> onlyInBase,
      List<String> onlyInOther) {
    int u = b.typeCount();
    double[] bv = b.values();
    double[] ov = o.values();
    boolean[] anyGain = new boolean[u];
    boolean[] anyLoss = new boolean[u];
    for (int i = 0; i < bv.length; i++) {
      anyGain[i % u] |= ov[i] > bv[i];
      anyLoss[i % u] |= bv[i] > ov[i];
    }
    List<Integer> typeOf = new ArrayList<>();
    List<Boolean> gained = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int j = 0; j < u; j++) {
      if (anyGain[j]) {
        typeOf.add(j);
        gained.add(true);
        names.add(b.types().get(j) + GAIN);
      }
      if (anyLoss[j]) {
        typeOf.add(j);
        gained.add(false);
        names.add(b.types().get(j) + LOSS);
      }
    }
    if (names.isEmpty()) { // the same runs: a model needs a type; its every cell is 0
      typeOf.add(0);
      gained.add(true);
      names.add(b.types().get(0) + GAIN);
    }
    int k = names.size();
    int cells = bv.length / u;
    double[] d = new double[cells * k];
    for (int c = 0; c < cells; c++) {
      for (int t = 0; t < k; t++) {
        int j = typeOf.get(t);
        double delta = ov[c * u + j] - bv[c * u + j];
        d[c * k + t] = gained.get(t) ? Math.max(0, delta) : Math.max(0, -delta);
      }
    }
    boolean[] gainedArray = new boolean[k];
    for (int t = 0; t < k; t++) {
      gainedArray[t] = gained.get(t);
    }
    return new Difference(b, o, new MicroscopicModel(b.tree(), b.slices(), names, d),
        typeOf.stream().mapToInt(Integer::intValue).toArray(), gainedArray, b.types(), List.copyOf(onlyInBase),
        List.copyOf(onlyInOther));
  }

  /** Per type of {@link #types}: the sums of {@code run} over the leaves of a node and the slices [first, last]. */
  public static double[] sums(MicroscopicModel run, int node, int first, int last) {
    ProducerTree tree = run.tree();
    int u = run.typeCount();
    double[] sums = new double[u];
    double[] v = run.values();
    for (int leaf = tree.firstLeaf(node); leaf < tree.firstLeaf(node) + tree.leafCount(node); leaf++) {
      for (int i = run.index(leaf, first, 0); i < run.index(leaf, last, 0) + u; i++) {
        sums[i % u] += v[i];
      }
    }
    return sums;
  }

  /** The path of every leaf, to its leaf index. */
  private static Map<String, Integer> leavesByPath(ProducerTree tree) {
    Map<String, Integer> paths = new LinkedHashMap<>();
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      paths.put(tree.path(tree.leafNode(leaf)), leaf);
    }
    return paths;
  }

  private static List<String> first(List<String> paths) {
    return paths.size() <= 3 ? paths : List.of(paths.get(0), paths.get(1), paths.get(2), "… (" + paths.size() + ")");
  }

  /** The tree of the kept leaves and their ancestors, in the same order. */
  private static ProducerTree pruned(ProducerTree tree, boolean[] keep) {
    // Parents come before children: one backward pass marks every ancestor of a kept leaf.
    for (int node = tree.size() - 1; node > 0; node--) {
      if (keep[node]) {
        keep[tree.parent(node)] = true;
      }
    }
    int[] newId = new int[tree.size()];
    List<String> names = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    for (int node = 0; node < tree.size(); node++) {
      if (keep[node]) {
        newId[node] = names.size();
        names.add(tree.name(node));
        parents.add(node == 0 ? -1 : newId[tree.parent(node)]);
      }
    }
    return new ProducerTree(names.toArray(String[]::new), parents.stream().mapToInt(Integer::intValue).toArray());
  }

  /** {@code run}'s values on {@code tree}'s leaves (matched by path) and on {@code types} (by name; 0 where absent). */
  private static MicroscopicModel aligned(MicroscopicModel run, ProducerTree tree, List<String> types) {
    Map<String, Integer> leaves = leavesByPath(run.tree());
    // A name repeated among one run's types (Pajé values of two state types) is one type here: summed.
    int[] to = new int[run.typeCount()];
    for (int t = 0; t < run.typeCount(); t++) {
      to[t] = types.indexOf(run.types().get(t));
    }
    int n = run.slices();
    int u = types.size();
    double[] values = new double[tree.leafCount() * n * u];
    double[] v = run.values();
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      int source = leaves.get(tree.path(tree.leafNode(leaf)));
      for (int s = 0; s < n; s++) {
        for (int t = 0; t < to.length; t++) {
          values[(leaf * n + s) * u + to[t]] += v[run.index(source, s, t)];
        }
      }
    }
    return new MicroscopicModel(tree, n, types, values);
  }
}
