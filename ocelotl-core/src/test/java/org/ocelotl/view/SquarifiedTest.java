package org.ocelotl.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SquarifiedTest {
  static final double EPS = 1e-9;

  /**
   * The example of Bruls, Huizing and van Wijk: 6, 6, 4, 3, 2, 2, 1 in a 6 × 4 rectangle.
   * <pre>
   *  +-----+------+----+
   *  |  6  |  4   | 3  |   6, 6: a column of width 3
   *  +-----+------+----+   4, 3: a row of height 7/3 on the 3 × 4 left
   *  |  6  | 2  | 2  |1|   2 | 2 | 1: one column each, 5/3 high
   *  +-----+----+----+-+
   * </pre>
   */
  @Test
  void thePapersExample() {
    Rect[] r = Squarified.layout(new double[] {6, 6, 4, 3, 2, 2, 1}, new Rect(0, 0, 6, 4));
    assertRect(0, 0, 3, 2, r[0]);
    assertRect(0, 2, 3, 2, r[1]);
    assertRect(3, 0, 12.0 / 7, 7.0 / 3, r[2]);
    assertRect(3 + 12.0 / 7, 0, 9.0 / 7, 7.0 / 3, r[3]);
    assertRect(3, 7.0 / 3, 1.2, 5.0 / 3, r[4]);
    assertRect(4.2, 7.0 / 3, 1.2, 5.0 / 3, r[5]);
    assertRect(5.4, 7.0 / 3, 0.6, 5.0 / 3, r[6]);
  }

  @Test
  void oneItemFillsTheSpaceAndTwoEqualItemsHalveIt() {
    assertRect(1, 2, 3, 4, Squarified.layout(new double[] {5}, new Rect(1, 2, 3, 4))[0]);
    Rect[] two = Squarified.layout(new double[] {1, 1}, new Rect(0, 0, 4, 2));
    assertRect(0, 0, 2, 2, two[0]);
    assertRect(2, 0, 2, 2, two[1]);
  }

  @Test
  void zeroValuesGetEmptyRectanglesAndTheOthersStillFill() {
    Rect[] r = Squarified.layout(new double[] {0, 3, 0, 1}, new Rect(0, 0, 2, 2));
    assertEquals(0, r[0].area(), EPS);
    assertEquals(0, r[2].area(), EPS);
    assertEquals(3, r[1].area(), EPS);
    assertEquals(1, r[3].area(), EPS);
    Rect[] none = Squarified.layout(new double[] {0, 0}, new Rect(0, 0, 2, 2));
    assertEquals(0, none[0].area() + none[1].area());
  }

  /** Areas ∝ values to 1e-9, inside the space, no two overlapping: on 500 seeded random lists. */
  @Test
  void randomListsAreTiledExactly() {
    for (int seed = 0; seed < 500; seed++) {
      Random random = new Random(seed);
      int n = 1 + random.nextInt(30);
      double[] values = new double[n];
      for (int i = 0; i < n; i++) {
        values[i] = random.nextInt(4) == 0 ? random.nextDouble() * 1e-3 : random.nextDouble() * 100;
      }
      Arrays.sort(values);
      reverse(values);
      Rect space = new Rect(random.nextDouble(), random.nextDouble(), 0.1 + random.nextDouble() * 10,
          0.1 + random.nextDouble() * 10);
      Rect[] r = Squarified.layout(values, space);
      double total = Arrays.stream(values).sum();
      for (int i = 0; i < n; i++) {
        String where = "seed " + seed + ", item " + i;
        assertEquals(values[i] / total * space.area(), r[i].area(), EPS * space.area(), where);
        assertTrue(r[i].x() >= space.x() - EPS && r[i].y() >= space.y() - EPS
            && r[i].x() + r[i].w() <= space.x() + space.w() + EPS
            && r[i].y() + r[i].h() <= space.y() + space.h() + EPS, where + " lies outside");
        for (int j = 0; j < i; j++) {
          double dx = Math.min(r[i].x() + r[i].w(), r[j].x() + r[j].w()) - Math.max(r[i].x(), r[j].x());
          double dy = Math.min(r[i].y() + r[i].h(), r[j].y() + r[j].h()) - Math.max(r[i].y(), r[j].y());
          assertTrue(dx <= EPS || dy <= EPS, where + " overlaps item " + j);
        }
      }
    }
  }

  /**
   * On 300 seeded random trees, the nested squarified layout's mean leaf aspect ratio is no
   * worse than the slice-and-dice layout's (which alternates horizontal and vertical cuts by depth).
   */
  @Test
  void aspectRatiosAreNoWorseThanSliceAndDice() {
    for (int seed = 0; seed < 300; seed++) {
      Random random = new Random(seed);
      Node root = randomTree(random, 0);
      Rect space = new Rect(0, 0, 1 + random.nextDouble() * 3, 1 + random.nextDouble() * 3);
      List<Double> squarified = new ArrayList<>();
      List<Double> sliced = new ArrayList<>();
      squarify(root, space, squarified);
      sliceAndDice(root, space, 0, sliced);
      double a = squarified.stream().mapToDouble(Double::doubleValue).average().orElse(1);
      double b = sliced.stream().mapToDouble(Double::doubleValue).average().orElse(1);
      assertTrue(a <= b * (1 + 1e-9), "seed " + seed + ": squarified mean aspect " + a + " > slice-and-dice " + b);
    }
  }

  record Node(double value, List<Node> children) {}

  static Node randomTree(Random random, int depth) {
    if (depth == 3 || depth > 0 && random.nextInt(3) == 0) {
      return new Node(1 + random.nextDouble() * 99, List.of());
    }
    List<Node> children = new ArrayList<>();
    int n = 2 + random.nextInt(8);
    for (int i = 0; i < n; i++) {
      children.add(randomTree(random, depth + 1));
    }
    children.sort((x, y) -> Double.compare(y.value(), x.value()));
    return new Node(children.stream().mapToDouble(Node::value).sum(), children);
  }

  static void squarify(Node node, Rect r, List<Double> aspects) {
    if (node.children().isEmpty()) {
      aspects.add(r.aspect());
      return;
    }
    Rect[] rects = Squarified.layout(node.children().stream().mapToDouble(Node::value).toArray(), r);
    for (int i = 0; i < rects.length; i++) {
      squarify(node.children().get(i), rects[i], aspects);
    }
  }

  static void sliceAndDice(Node node, Rect r, int depth, List<Double> aspects) {
    if (node.children().isEmpty()) {
      aspects.add(r.aspect());
      return;
    }
    double offset = 0;
    for (Node child : node.children()) {
      double share = child.value() / node.value();
      Rect c = depth % 2 == 0 ? new Rect(r.x() + offset * r.w(), r.y(), share * r.w(), r.h())
          : new Rect(r.x(), r.y() + offset * r.h(), r.w(), share * r.h());
      offset += share;
      sliceAndDice(child, c, depth + 1, aspects);
    }
  }

  static void reverse(double[] values) {
    for (int i = 0, j = values.length - 1; i < j; i++, j--) {
      double t = values[i];
      values[i] = values[j];
      values[j] = t;
    }
  }

  static void assertRect(double x, double y, double w, double h, Rect r) {
    assertEquals(x, r.x(), EPS, "x of " + r);
    assertEquals(y, r.y(), EPS, "y of " + r);
    assertEquals(w, r.w(), EPS, "w of " + r);
    assertEquals(h, r.h(), EPS, "h of " + r);
  }
}
