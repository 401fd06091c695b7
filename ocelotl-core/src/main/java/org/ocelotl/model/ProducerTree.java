package org.ocelotl.model;

import java.util.Arrays;
import java.util.List;

/**
 * The rooted tree of producers (site › cluster › machine › process › thread…).
 *
 * <p>Nodes are numbered 0..size-1 with the root at 0 and every parent before its children, so a
 * node is an int handle, never an object. Leaves are numbered 0..leafCount-1 in depth-first
 * order: every node therefore covers one contiguous range of leaves
 * [firstLeaf(h), firstLeaf(h) + leafCount(h)), which is what lets the aggregation and the views
 * treat a subtree as a band of rows of the microscopic model.
 */
public final class ProducerTree {
  /** The root's label ({@link #label}), as the web page writes it too. */
  public static final String ALL_PRODUCERS = "all producers";

  private final String[] names;
  private final int[] parents;
  private final int[][] children;
  private final int[] firstLeaf;
  private final int[] leafCount;
  private final int[] depth;
  private final int[] leafNodes;

  /**
   * @param names   node names, index = node id
   * @param parents parent of each node; parents[0] must be -1 (the root), and parents[i] &lt; i
   */
  public ProducerTree(String[] names, int[] parents) {
    if (names.length == 0 || names.length != parents.length) {
      throw new IllegalArgumentException(
          "a producer tree needs one parent per name and at least a root; got "
              + names.length + " names and " + parents.length + " parents");
    }
    if (parents[0] != -1) {
      throw new IllegalArgumentException("node 0 must be the root (parent -1), found parent " + parents[0]);
    }
    for (int i = 1; i < parents.length; i++) {
      if (parents[i] < 0 || parents[i] >= i) {
        throw new IllegalArgumentException(
            "node " + i + " (" + names[i] + ") must have a parent numbered before it, found " + parents[i]);
      }
    }
    this.names = names.clone();
    this.parents = parents.clone();
    this.children = childLists(parents);
    this.depth = new int[parents.length];
    for (int i = 1; i < parents.length; i++) {
      depth[i] = depth[parents[i]] + 1;
    }
    this.leafNodes = numberLeaves();
    this.firstLeaf = new int[parents.length];
    this.leafCount = new int[parents.length];
    Arrays.fill(firstLeaf, Integer.MAX_VALUE);
    for (int leaf = 0; leaf < leafNodes.length; leaf++) {
      firstLeaf[leafNodes[leaf]] = leaf;
      leafCount[leafNodes[leaf]] = 1;
    }
    for (int i = parents.length - 1; i > 0; i--) {
      leafCount[parents[i]] += leafCount[i];
      firstLeaf[parents[i]] = Math.min(firstLeaf[parents[i]], firstLeaf[i]);
    }
  }

  /** A root with the given producers as its leaves, in order. */
  public static ProducerTree flat(String rootName, List<String> leafNames) {
    String[] names = new String[leafNames.size() + 1];
    int[] parents = new int[names.length];
    names[0] = rootName;
    parents[0] = -1;
    for (int i = 0; i < leafNames.size(); i++) {
      names[i + 1] = leafNames.get(i);
    }
    return new ProducerTree(names, parents);
  }

  private static int[][] childLists(int[] parents) {
    int[] counts = new int[parents.length];
    for (int i = 1; i < parents.length; i++) {
      counts[parents[i]]++;
    }
    int[][] result = new int[parents.length][];
    for (int i = 0; i < parents.length; i++) {
      result[i] = new int[counts[i]];
    }
    Arrays.fill(counts, 0);
    for (int i = 1; i < parents.length; i++) {
      result[parents[i]][counts[parents[i]]++] = i;
    }
    return result;
  }

  // Leaves are numbered in depth-first preorder (an explicit stack: real trees can be deep);
  // then, because every parent is numbered before its children, one backward pass over the
  // node ids folds leaf counts and first leaves up the tree.
  private int[] numberLeaves() {
    int[] order = new int[parents.length];
    int leaves = 0;
    int[] stack = new int[parents.length]; // each node is pushed once
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      int node = stack[--top];
      if (children[node].length == 0) {
        order[leaves++] = node;
      }
      for (int c = children[node].length - 1; c >= 0; c--) {
        stack[top++] = children[node][c];
      }
    }
    return Arrays.copyOf(order, leaves);
  }

  public int size() {
    return names.length;
  }

  public String name(int node) {
    return names[node];
  }

  /**
   * The node's path as filters and tooltips spell it: the names from below the root joined by
   * '/' ("site/cluster1/m3"); the root is named by its own name. The root's name (often a
   * format's placeholder such as Pajé's "0") is never a prefix.
   */
  public String path(int node) {
    if (parents[node] < 0) {
      return names[node];
    }
    StringBuilder path = new StringBuilder(names[node]);
    for (int n = parents[node]; parents[n] >= 0; n = parents[n]) {
      path.insert(0, names[n] + "/");
    }
    return path.toString();
  }

  /**
   * What the front ends call a node: its path, or "all producers" for the root, whose own name
   * (often "0" in Pajé traces) would read as a rank.
   */
  public String label(int node) {
    return parents[node] < 0 ? ALL_PRODUCERS : path(node);
  }

  public int parent(int node) {
    return parents[node];
  }

  public int[] children(int node) {
    return children[node].clone();
  }

  public int childCount(int node) {
    return children[node].length;
  }

  public int child(int node, int index) {
    return children[node][index];
  }

  public boolean isLeaf(int node) {
    return children[node].length == 0;
  }

  public int depth(int node) {
    return depth[node];
  }

  /** Depth of the deepest node (0 for a lone root). */
  public int height() {
    return Arrays.stream(depth).max().orElse(0);
  }

  public int leafCount() {
    return leafNodes.length;
  }

  /** Number of leaves under a node (1 for a leaf). */
  public int leafCount(int node) {
    return leafCount[node];
  }

  /** Index, among leaves, of the first leaf under a node. */
  public int firstLeaf(int node) {
    return firstLeaf[node];
  }

  /** Node id of the leaf with the given leaf index. */
  public int leafNode(int leafIndex) {
    return leafNodes[leafIndex];
  }

  /** Node id of the node with this name, or -1. Linear: for parsing and look-ups, not hot paths. */
  public int find(String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
