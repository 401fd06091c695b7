package org.ocelotl.view;

import java.util.Arrays;
import java.util.List;

/**
 * Where a topology graph's shown nodes and their labels go so that nothing overlaps and nothing
 * leaves the unit square: every node is a box of one half side (the largest a node is drawn at,
 * so the places depend on the cut and the picture's side, never on the time shown), pushed apart
 * from the force layout's places until no two boxes meet; each label then takes the first of
 * four places around its node (below, above, right, left) that meets no node box, no label
 * already placed and no border, and is left out where none does.
 */
public final class TopologyLayout {
  /** Rounds of pushing overlapping boxes apart before the fallback grid. */
  static final int ROUNDS = 400;
  /** A label's font size in pixels at the side the layout is made for. */
  static final double LABEL_PX = 10;
  /** A character's advance as a fraction of the font size: above the mean of sans-serif fonts (0.6), bold wider. */
  static final double CHAR_WIDTH = 0.62;
  static final double BOLD_CHAR_WIDTH = 0.68;

  private TopologyLayout() {}

  /** A label's box {x0, y0, x1, y1} for a name at a font size (unit), centred on x with its baseline at y. */
  public static double[] labelBox(String name, boolean bold, double height, double x, double y) {
    double w = name.length() * (bold ? BOLD_CHAR_WIDTH : CHAR_WIDTH) * height;
    return new double[] {x - w / 2, y - height, x + w / 2, y + 0.3 * height};
  }

  /**
   * Moves the centres (in place) so that boxes of half side {@code half} keep {@code gap} apart
   * and stay {@code border} inside the unit square.
   *
   * @return the half side to draw at: {@code half}, or smaller where the fallback grid needed it
   */
  static double separate(double[] x, double[] y, double half, double gap, double border) {
    int n = x.length;
    double lo = half + border;
    double hi = 1 - half - border;
    double reach = 2 * half + gap; // centres closer than this on both axes: the boxes meet
    for (int round = 0; round < ROUNDS; round++) {
      clamp(x, lo, hi);
      clamp(y, lo, hi);
      if (!push(x, y, reach)) {
        clamp(x, lo, hi);
        clamp(y, lo, hi);
        if (!overlaps(x, y, reach)) {
          return half;
        }
      }
    }
    return grid(x, y, half, gap, border);
  }

  /** One pass over every pair: each overlapping pair moves apart along its shallower axis. */
  private static boolean push(double[] x, double[] y, double reach) {
    boolean moved = false;
    for (int i = 0; i < x.length; i++) {
      for (int j = i + 1; j < x.length; j++) {
        double ox = reach - Math.abs(x[i] - x[j]);
        double oy = reach - Math.abs(y[i] - y[j]);
        if (ox <= 0 || oy <= 0) {
          continue;
        }
        moved = true;
        // Half of the overlap each, a little more so that rounding cannot leave them touching.
        if (ox <= oy) {
          double shift = ox / 2 * 1.01;
          double sign = x[i] < x[j] || x[i] == x[j] && i < j ? -1 : 1;
          x[i] += sign * shift;
          x[j] -= sign * shift;
        } else {
          double shift = oy / 2 * 1.01;
          double sign = y[i] < y[j] || y[i] == y[j] && i < j ? -1 : 1;
          y[i] += sign * shift;
          y[j] -= sign * shift;
        }
      }
    }
    return moved;
  }

  private static void clamp(double[] v, double lo, double hi) {
    for (int i = 0; i < v.length; i++) {
      v[i] = Math.max(lo, Math.min(hi, v[i]));
    }
  }

  private static boolean overlaps(double[] x, double[] y, double reach) {
    for (int i = 0; i < x.length; i++) {
      for (int j = i + 1; j < x.length; j++) {
        if (Math.abs(x[i] - x[j]) < reach && Math.abs(y[i] - y[j]) < reach) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Too crowded to push apart: the nodes in rows (by height, then left to right), one cell each,
   * which cannot overlap; the boxes shrink to fit the cells where they must.
   */
  private static double grid(double[] x, double[] y, double half, double gap, double border) {
    int n = x.length;
    int columns = (int) Math.ceil(Math.sqrt(n));
    int rows = (n + columns - 1) / columns;
    double cell = (1 - 2 * border) / Math.max(columns, rows);
    double drawn = Math.min(half, (cell - gap) / 2);
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> y[a] != y[b] ? Double.compare(y[a], y[b]) : Integer.compare(a, b));
    for (int r = 0; r < rows; r++) {
      Integer[] row = Arrays.copyOfRange(order, r * columns, Math.min(n, (r + 1) * columns));
      Arrays.sort(row, (a, b) -> x[a] != x[b] ? Double.compare(x[a], x[b]) : Integer.compare(a, b));
      for (int c = 0; c < row.length; c++) {
        x[row[c]] = border + (c + 0.5) * cell;
        y[row[c]] = border + (r + 0.5) * cell;
      }
    }
    return drawn;
  }

  /**
   * Places the labels: aggregates first, then in node order; each at the first free place.
   *
   * @return per node {labelled (1 or 0), x, baseline}
   */
  static double[][] labels(double[] x, double[] y, double half, List<String> names, boolean[] bold, double height) {
    int n = x.length;
    double[][] placed = new double[n][];
    double[][] result = new double[n][3];
    double pad = 0.25 * height;
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> bold[a] != bold[b] ? (bold[a] ? -1 : 1) : Integer.compare(a, b));
    for (int i : order) {
      double w = labelBox(names.get(i), bold[i], height, 0, 0)[2] * 2;
      double[][] candidates = {
          {x[i], y[i] + half + pad + height},
          {x[i], y[i] - half - pad - 0.3 * height},
          {x[i] + half + pad + w / 2, y[i] + 0.35 * height},
          {x[i] - half - pad - w / 2, y[i] + 0.35 * height}};
      for (double[] at : candidates) {
        double[] box = labelBox(names.get(i), bold[i], height, at[0], at[1]);
        if (box[0] >= 0 && box[1] >= 0 && box[2] <= 1 && box[3] <= 1 && free(box, x, y, half, placed)) {
          placed[i] = box;
          result[i] = new double[] {1, at[0], at[1]};
          break;
        }
      }
    }
    return result;
  }

  private static boolean free(double[] box, double[] x, double[] y, double half, double[][] placed) {
    for (int k = 0; k < x.length; k++) {
      if (meet(box, new double[] {x[k] - half, y[k] - half, x[k] + half, y[k] + half})) {
        return false;
      }
      if (placed[k] != null && meet(box, placed[k])) {
        return false;
      }
    }
    return true;
  }

  /** Whether two boxes {x0, y0, x1, y1} share more than an edge. */
  public static boolean meet(double[] a, double[] b) {
    return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  }
}
