package org.ocelotl.scan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.ocelotl.model.ProducerTree;

class ModelTreeTest {
  /**
   * <pre>
   * 0 root
   * ├── 1 siteA            (own records: 5)
   * │   ├── 2 host1
   * │   │   └── 3 rank    (7)
   * │   └── 4 host2
   * │       └── 5 rank    (2)
   * ├── 6 routers         (no records anywhere below)
   * │   └── 7 r1
   * └── 8 siteB
   *     └── 9 host3       (4)
   * </pre>
   */
  private static final String[] NAMES = {"root", "siteA", "host1", "rank", "host2", "rank", "routers", "r1", "siteB", "host3"};
  private static final int[] PARENTS = {-1, 0, 1, 2, 1, 4, 0, 6, 0, 8};
  private static final long[] OWN = {0, 5, 0, 7, 0, 2, 0, 0, 0, 4};

  private static List<String> leafNames(ProducerTree tree) {
    List<String> names = new ArrayList<>();
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      names.add(tree.name(tree.leafNode(leaf)));
    }
    return names;
  }

  @Test
  void keepsDataSubtreesAddsSelfLeavesAndNamesRepeatsByPath() {
    ModelTree model = ModelTree.of(NAMES, PARENTS, OWN, ProducerSelection.ALL);
    assertEquals(List.of("siteA (self)", "siteA/host1/rank", "siteA/host2/rank", "host3"), leafNames(model.tree()));
    assertArrayEquals(new int[] {-1, 0, -1, 1, -1, 2, -1, -1, -1, 3}, model.leafOf());
    assertEquals("siteA", model.tree().name(model.tree().parent(model.tree().leafNode(0))));
  }

  @Test
  void depthCutSumsSubtreesIntoTheirAncestor() {
    ModelTree model = ModelTree.of(NAMES, PARENTS, OWN, new ProducerSelection(List.of(), List.of(), 1));
    assertEquals(List.of("siteA", "siteB"), leafNames(model.tree()));
    assertArrayEquals(new int[] {-1, 0, 0, 0, 0, 0, -1, -1, 1, 1}, model.leafOf());
  }

  @Test
  void includeKeepsSubtreesAndTheirAncestors() {
    ModelTree model = ModelTree.of(NAMES, PARENTS, OWN, new ProducerSelection(List.of("host2", "siteB"), List.of(), 0));
    assertEquals(List.of("siteA/host2/rank", "host3"), leafNames(model.tree()));
    assertArrayEquals(new int[] {-1, -1, -1, -1, -1, 0, -1, -1, -1, 1}, model.leafOf(),
        "siteA's own records are not in host2's subtree");
  }

  @Test
  void excludeRemovesSubtrees() {
    ModelTree model = ModelTree.of(NAMES, PARENTS, OWN, new ProducerSelection(List.of(), List.of("siteA/host1"), 0));
    assertEquals(List.of("siteA (self)", "siteA/host2/rank", "host3"), leafNames(model.tree()));
  }

  @Test
  void ambiguousAndUnknownNamesAreRefusedClearly() {
    IllegalArgumentException ambiguous = assertThrows(IllegalArgumentException.class,
        () -> ModelTree.of(NAMES, PARENTS, OWN, new ProducerSelection(List.of("rank"), List.of(), 0)));
    assertEquals("producer name 'rank' is ambiguous: write its path, e.g. 'siteA/host1/rank' or 'siteA/host2/rank'",
        ambiguous.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> ModelTree.of(NAMES, PARENTS, OWN, new ProducerSelection(List.of(), List.of("nowhere"), 0)));
    assertEquals("unknown producer 'nowhere'", unknown.getMessage());
  }
}
