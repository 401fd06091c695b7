package org.ocelotl.scan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ocelotl.model.ProducerTree;

/**
 * The producer tree of a model, derived from the store's producers: only the subtrees that
 * hold data of the model's category and pass the selection, a synthetic leaf for every inner
 * producer with records of its own (so that every value sits on a leaf), and producers cut at
 * the selected depth. {@code leafOf[storeProducer]} is the model leaf that receives that
 * producer's records, or -1.
 */
public record ModelTree(ProducerTree tree, int[] leafOf) {
  /** Suffix of the synthetic leaf that carries an inner producer's own records. */
  public static final String SELF = " (self)";

  /**
   * @param names     store producer names, index = store id
   * @param parents   store parent of each producer (-1 for the one root)
   * @param ownCounts records of the model's category on each producer itself
   */
  public static ModelTree of(String[] names, int[] parents, long[] ownCounts, ProducerSelection selection) {
    int n = names.length;
    int root = root(parents);
    int[][] children = children(parents);
    int[] order = preorder(children, root);
    String[] paths = paths(names, parents, order, root);
    boolean[] selected = select(names, paths, children, selection, root);
    Map<String, Integer> nameCounts = new HashMap<>();
    for (String name : names) {
      nameCounts.merge(name, 1, Integer::sum);
    }
    int[] depthOf = new int[n];
    for (int p : order) {
      depthOf[p] = p == root ? 0 : depthOf[parents[p]] + 1;
    }
    // A producer "holds" data when it or a descendant has selected records; ancestors of
    // selected producers are kept for the structure but their own records are not counted.
    long[] held = new long[n];
    for (int i = n - 1; i >= 0; i--) {
      int p = order[i];
      if (selected[p]) {
        held[p] += ownCounts[p];
      }
      if (p != root) {
        held[parents[p]] += held[p];
      }
    }
    List<String> nodeNames = new ArrayList<>();
    List<Integer> nodeParents = new ArrayList<>();
    int[] targetNode = new int[n];
    Arrays.fill(targetNode, -1);
    Map<Integer, Integer> nodeOfProducer = new HashMap<>();
    for (int p : order) {
      if (held[p] == 0 && p != root) {
        continue;
      }
      if (selection.depth() > 0 && depthOf[p] > selection.depth()) {
        // Below the cut: its records go to its ancestor at the cut depth (already numbered).
        targetNode[p] = targetNode[parents[p]];
        continue;
      }
      int node = nodeNames.size();
      // Names that repeat (rank-0 under two hosts) are shown by their path.
      nodeNames.add(p == root ? names[root] : nameCounts.get(names[p]) == 1 ? names[p] : paths[p]);
      nodeParents.add(p == root ? -1 : nodeOfProducer.get(parents[p]));
      nodeOfProducer.put(p, node);
      boolean cut = selection.depth() > 0 && depthOf[p] == selection.depth();
      boolean inner = !cut && Arrays.stream(children[p]).anyMatch(c -> held[c] > 0);
      if (!inner) {
        targetNode[p] = node;
      } else if (selected[p] && ownCounts[p] > 0) {
        targetNode[p] = nodeNames.size();
        nodeNames.add(nodeNames.get(node) + SELF);
        nodeParents.add(node);
      }
    }
    ProducerTree tree = new ProducerTree(nodeNames.toArray(String[]::new),
        nodeParents.stream().mapToInt(Integer::intValue).toArray());
    int[] leafIndexOfNode = new int[tree.size()];
    Arrays.fill(leafIndexOfNode, -1);
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      leafIndexOfNode[tree.leafNode(leaf)] = leaf;
    }
    int[] leafOf = new int[n];
    for (int p = 0; p < n; p++) {
      leafOf[p] = selected[p] && targetNode[p] >= 0 ? leafIndexOfNode[targetNode[p]] : -1;
    }
    return new ModelTree(tree, leafOf);
  }

  private static int root(int[] parents) {
    int root = -1;
    for (int p = 0; p < parents.length; p++) {
      if (parents[p] < 0) {
        if (root >= 0) {
          throw new IllegalArgumentException("producers " + root + " and " + p + " are both roots");
        }
        root = p;
      }
    }
    if (root < 0) {
      throw new IllegalArgumentException("no root producer (parent -1)");
    }
    return root;
  }

  private static int[][] children(int[] parents) {
    List<List<Integer>> lists = new ArrayList<>();
    for (int i = 0; i < parents.length; i++) {
      lists.add(new ArrayList<>());
    }
    for (int i = 0; i < parents.length; i++) {
      if (parents[i] >= 0) {
        lists.get(parents[i]).add(i);
      }
    }
    return lists.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
  }

  private static int[] preorder(int[][] children, int root) {
    int[] order = new int[children.length];
    int[] stack = new int[children.length];
    int top = 0;
    int count = 0;
    stack[top++] = root;
    while (top > 0) {
      int p = stack[--top];
      order[count++] = p;
      for (int c = children[p].length - 1; c >= 0; c--) {
        stack[top++] = children[p][c];
      }
    }
    return Arrays.copyOf(order, count);
  }

  /** Path from below the root, '/'-separated: the unambiguous name of a producer. */
  private static String[] paths(String[] names, int[] parents, int[] preorder, int root) {
    String[] paths = new String[names.length];
    paths[root] = "";
    for (int p : preorder) {
      if (p != root) {
        paths[p] = parents[p] == root ? names[p] : paths[parents[p]] + "/" + names[p];
      }
    }
    return paths;
  }

  private static boolean[] select(String[] names, String[] paths, int[][] children, ProducerSelection selection,
      int root) {
    boolean[] selected = new boolean[names.length];
    if (selection.include().isEmpty()) {
      Arrays.fill(selected, true);
    }
    for (String wanted : selection.include()) {
      markSubtree(children, resolve(names, paths, wanted, root), selected, true);
    }
    for (String unwanted : selection.exclude()) {
      markSubtree(children, resolve(names, paths, unwanted, root), selected, false);
    }
    return selected;
  }

  private static void markSubtree(int[][] children, int p, boolean[] selected, boolean value) {
    selected[p] = value;
    for (int c : children[p]) {
      markSubtree(children, c, selected, value);
    }
  }

  /** The producer with that path, or that name when it is unique. */
  private static int resolve(String[] names, String[] paths, String wanted, int root) {
    int found = -1;
    for (int p = 0; p < names.length; p++) {
      if (p == root) {
        continue;
      }
      if (paths[p].equals(wanted)) {
        return p;
      }
      if (names[p].equals(wanted)) {
        if (found >= 0) {
          throw new IllegalArgumentException("producer name '" + wanted + "' is ambiguous: write its path, e.g. '"
              + paths[found] + "' or '" + paths[p] + "'");
        }
        found = p;
      }
    }
    if (found < 0) {
      throw new IllegalArgumentException("unknown producer '" + wanted + "'");
    }
    return found;
  }
}
